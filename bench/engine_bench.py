"""Benchmark: our `is_complete` against `mahjong`'s `Agari.is_agari` on the same 100,000 hands.

Half the hands are complete (four sets and a pair), half are random 14-tile draws, from a fixed
seed. Each checker runs once over all hands; the script prints both times, their ratio, and how
often the two agree on the standard (sets + pair) form. `mahjong` also accepts seven pairs and
thirteen orphans and we also accept all-honours hands, so those hands are counted apart.

Run: `.venv/bin/python bench/engine_bench.py` (target: ours at most half of mahjong's time).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.agari import Agari  # noqa: E402

from games.engine.hand import is_complete, is_standard_complete, shanten, waits  # noqa: E402
from games.engine.rules import Rules  # noqa: E402
from games.engine.scoring import is_legal_win, winning_tiles  # noqa: E402

N_HANDS = 100_000
SEED = 20261129
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def complete_hand(rng: random.Random) -> list[int]:
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                counts[rng.randrange(34)] += 3
            else:
                suit, start = rng.randrange(3), rng.randrange(7)
                for k in range(3):
                    counts[suit * 9 + start + k] += 1
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def random_hand(rng: random.Random, wall: list[int]) -> list[int]:
    counts = [0] * 34
    for tile in rng.sample(wall, 14):
        counts[tile] += 1
    return counts


def other_form(counts: list[int]) -> bool:
    """Hands only one side calls complete by definition: 七对, 国士, or all honours."""
    seven_pairs = sum(1 for c in counts if c == 2) == 7
    orphans = all(counts[t] for t in ORPHANS) and sum(counts[t] for t in ORPHANS) == 14
    return seven_pairs or orphans or not any(counts[:27])


def main() -> None:
    rng = random.Random(SEED)
    wall = [t for t in range(34) for _ in range(4)]
    hands = [complete_hand(rng) for _ in range(N_HANDS // 2)]
    hands += [random_hand(rng, wall) for _ in range(N_HANDS - len(hands))]
    rng.shuffle(hands)

    start = time.perf_counter()
    ours = [is_complete(h) for h in hands]
    ours_time = time.perf_counter() - start

    agari = Agari()
    start = time.perf_counter()
    theirs = [agari.is_agari(h) for h in hands]
    theirs_time = time.perf_counter() - start

    standard = [is_standard_complete(h) for h in hands]
    compared = agree = special = 0
    for hand, mine, other, full in zip(hands, standard, theirs, ours, strict=True):
        if other_form(hand):
            special += 1
            continue
        compared += 1
        agree += mine == other == full
    print(f"hands: {len(hands)} ({sum(ours)} complete by our rules)")
    print(f"ours   is_complete: {ours_time:.3f} s")
    print(f"mahjong is_agari:   {theirs_time:.3f} s")
    print(f"ratio ours/mahjong: {ours_time / theirs_time:.3f}")
    print(f"agreement on standard-form hands: {agree}/{compared}; other forms set apart: {special}")
    other_hot_paths(hands)


def per_call(label: str, func, items) -> None:
    start = time.perf_counter()
    for item in items:
        func(item)
    print(f"{label}: {(time.perf_counter() - start) / len(items) * 1e6:.1f} µs per call")


def other_hot_paths(hands: list[list[int]]) -> None:
    """Per-call figures for the other checks the turn machine and the bots make."""
    rules = Rules()
    thirteen = []
    for hand in hands[:20_000]:
        hand = list(hand)
        hand[next(i for i, c in enumerate(hand) if c)] -= 1
        thirteen.append(hand)
    per_call("is_legal_win (14 tiles)", lambda h: is_legal_win(h, (), rules), hands[:20_000])
    per_call("waits (13 tiles)", waits, thirteen)
    per_call("winning_tiles (13 tiles)", lambda h: winning_tiles(h, (), rules), thirteen)
    per_call("shanten (13 tiles, memo warm after the first pass)", shanten, thirteen)


if __name__ == "__main__":
    main()
