"""The bots' memo tables give the answers a plain computation gives (games/engine/bots/evaluate.py).

Suit frontiers are stored once per distinct frontier and reached through ids; these tests rebuild
frontiers, distances and per-shape draw lists from the definitions, without any table, and compare
them on many random suit shapes and hands.
"""

import random
from functools import cache

from games.engine.bots import evaluate as ev
from games.engine.tiles import N_KINDS


def _pareto(options) -> tuple[tuple[int, int, int], ...]:
    kept: list[tuple[int, int, int]] = []
    for m, t, h in sorted(set(options), reverse=True):
        if not any(km >= m and kt >= t and kh == h for km, kt, kh in kept):
            kept.append((m, t, h))
    return tuple(kept)


@cache
def plain_frontier(ranks: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """Every split of one suit's counts into sets, partial sets, at most one pair and loose tiles,
    reduced to the options no other beats: the definition, over count tuples."""
    if not any(ranks):
        return ((0, 0, 0),)
    i = next(r for r, c in enumerate(ranks) if c)

    def less(*used: int) -> tuple[int, ...]:
        out = list(ranks)
        for r in used:
            out[r] -= 1
        return tuple(out)

    options = list(plain_frontier(less(i)))
    if ranks[i] >= 3:
        options += [(m + 1, t, h) for m, t, h in plain_frontier(less(i, i, i))]
    if ranks[i] >= 2:
        for m, t, h in plain_frontier(less(i, i)):
            options.append((m, t + 1, h))
            if not h:
                options.append((m, t, 1))
    if i <= 6 and ranks[i + 1] and ranks[i + 2]:
        options += [(m + 1, t, h) for m, t, h in plain_frontier(less(i, i + 1, i + 2))]
    if i <= 7 and ranks[i + 1]:
        options += [(m, t + 1, h) for m, t, h in plain_frontier(less(i, i + 1))]
    if i <= 6 and ranks[i + 2]:
        options += [(m, t + 1, h) for m, t, h in plain_frontier(less(i, i + 2))]
    return _pareto(options)


def key_of(ranks: tuple[int, ...]) -> int:
    return sum(c * 5**r for r, c in enumerate(ranks))


def random_suit(rng: random.Random) -> tuple[int, ...]:
    tiles = rng.sample([r for r in range(9) for _ in range(4)], rng.randint(0, 14))
    return tuple(tiles.count(r) for r in range(9))


def test_interned_frontiers_match_the_definition():
    rng = random.Random(5)
    for _ in range(3000):
        ranks = random_suit(rng)
        assert ev.suit_frontier(key_of(ranks)) == plain_frontier(ranks)


def test_memoised_suit_distance_matches_the_plain_combination():
    rng = random.Random(6)
    for _ in range(3000):
        ranks = random_suit(rng)
        hm, hq, need = rng.randint(0, 4), rng.randint(0, 7), rng.randint(0, 4)
        expected = ev._combine(plain_frontier(ranks), (hm, hq), need)
        assert ev._one_suit_cached(key_of(ranks), hm, hq, need) == expected


def test_memoised_shape_lists_exactly_the_draws_that_help():
    rng = random.Random(7)
    for _ in range(1500):
        ranks = random_suit(rng)
        hm, hq, need = rng.randint(0, 3), rng.randint(0, 4), rng.randint(1, 4)

        def distance(rs, pongs=hm, pairs=hq, need=need):
            return ev._combine(plain_frontier(tuple(rs)), (pongs, pairs), need)

        current = distance(ranks)
        helps = tuple(
            r
            for r in range(9)
            if ranks[r] < 4 and distance([c + (i == r) for i, c in enumerate(ranks)]) < current
        )
        single = distance(ranks, hm, hq + 1) < current
        pair = hq > 0 and distance(ranks, hm + 1, hq - 1) < current
        assert ev._one_suit_shape(key_of(ranks), hm, hq, need) == (current, helps, single, pair)


def test_shanten_of_random_hands_matches_the_plain_frontier():
    """Whole hands: each one-suit plan's distance read through the tables equals the definition."""
    rng = random.Random(8)
    wall = [k for k in range(N_KINDS) for _ in range(4)]
    for _ in range(1000):
        n = rng.choice([2, 5, 8, 11, 13, 14])
        hand = [0] * N_KINDS
        for code in rng.sample(wall, n):
            hand[code] += 1
        need = ev.need_sets(n)
        honours = ev.honour_parts(hand)
        for suit in range(3):
            ranks = tuple(hand[suit * 9 : suit * 9 + 9])
            for plan, parts in ((ev.HUN[suit], honours), (ev.QING[suit], (0, 0))):
                formula = ev._combine(plain_frontier(ranks), parts, need)
                inside = sum(hand[k] for k in ev.plan_kinds(plan))
                expected = max(formula, ev.junk_bound(n - inside, n))
                assert ev.shanten(plan, hand, n) == expected
