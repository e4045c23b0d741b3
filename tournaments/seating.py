"""Seating a round (pure Python): tables of four so that, as far as the numbers allow, nobody meets
an opponent twice, and each player's seat (wind) moves on from round to round.

Greedy tables from a shuffled order, then swaps between tables while they remove a repeated pair;
the best of a few hundred tries is kept (16 players over 3 rounds: 0 repeated pairs, found within
the first tries; 16 over 5 rounds is the most an affine plane allows, and the search comes close).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, permutations

TRIES = 300

Table = list[int]


def met_pairs(rounds: Sequence[Sequence[Table]]) -> set[frozenset[int]]:
    return {frozenset(pair) for tables in rounds for table in tables for pair in combinations(table, 2)}


def repeated_pairs(rounds: Sequence[Sequence[Table]]) -> int:
    """How many times two players met again after their first table together."""
    seen: set[frozenset[int]] = set()
    repeats = 0
    for tables in rounds:
        for table in tables:
            for pair in map(frozenset, combinations(table, 2)):
                repeats += pair in seen
                seen.add(pair)
    return repeats


def _cost(table: Table, met: set[frozenset[int]]) -> int:
    return sum(frozenset(pair) in met for pair in combinations(table, 2))


def _greedy(order: list[int], met: set[frozenset[int]]) -> list[Table]:
    left = list(order)
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < 4:
            best = min(left, key=lambda p: sum(frozenset((p, q)) in met for q in table))
            left.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def _improve(tables: list[Table], met: set[frozenset[int]]) -> int:
    """Swap players between tables while a swap lowers the repeats; returns the repeats left."""
    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for i in range(4):
                for j in range(4):
                    before = _cost(tables[a], met) + _cost(tables[b], met)
                    if not before:
                        continue
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                    if _cost(tables[a], met) + _cost(tables[b], met) < before:
                        improved = True
                    else:
                        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
    return sum(_cost(t, met) for t in tables)


def _seat(table: Table, seats_held: dict[int, list[int]]) -> Table:
    """The table's players in seat order: as few as possible in a seat they held before, and among
    those orders the one moving each player one seat on from their last (the winds rotate)."""

    def cost(order: tuple[int, ...]) -> tuple[int, int]:
        again = sum(seat in seats_held.get(p, ()) for seat, p in enumerate(order))
        moved = sum(
            seats_held.get(p) is not None and seat != (seats_held[p][-1] + 1) % 4
            for seat, p in enumerate(order)
        )
        return again, moved

    return list(min(permutations(table), key=cost))


def seat_round(
    players: Sequence[int], previous: Sequence[Sequence[Table]], rng: random.Random
) -> list[Table]:
    """The tables of the next round (each in seat order, East first); `players` a multiple of four,
    `previous` the earlier rounds' tables in seat order."""
    if len(players) % 4 or not players:
        raise ValueError("a round seats a positive multiple of four players")
    met = met_pairs(previous)
    best, best_cost = None, None
    for _ in range(TRIES):
        order = list(players)
        rng.shuffle(order)
        tables = _greedy(order, met)
        cost = _improve(tables, met)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    seats_held: dict[int, list[int]] = {}
    for tables in previous:
        for table in tables:
            for seat, p in enumerate(table):
                seats_held.setdefault(p, []).append(seat)
    return [_seat(table, seats_held) for table in best]
