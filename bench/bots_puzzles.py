"""Each bot level on the 何切る suite (issue 16). Prints figures; asserts nothing.

    .venv/bin/python bench/bots_puzzles.py [--misses]

The positions, their accepted discards and reasons are in `tests/engine/puzzles/nanikiru.toml`
(`games.engine.bots.puzzles`). Per level: the share solved, per kind (efficiency, plan, value,
defence), and with `--misses` the positions missed and the tile chosen instead.
Targets: `hard` ≥ 80%, `normal` ≥ 60%; `easy` is free to be weak.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import get_bot, levels  # noqa: E402
from games.engine.bots.puzzles import KINDS, load, solve  # noqa: E402
from games.engine.tiles import code_to_str  # noqa: E402

ORDER = ("easy", "normal", "hard")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list the positions each level missed")
    args = parser.parse_args()
    puzzles = load()
    total = Counter(p.kind for p in puzzles)
    print(f"{len(puzzles)} positions: " + ", ".join(f"{total[k]} {k}" for k in KINDS))
    for level in sorted(
        levels(), key=lambda name: (ORDER.index(name) if name in ORDER else len(ORDER), name)
    ):
        bot = get_bot(level)
        solved: Counter[str] = Counter()
        misses = []
        for puzzle in puzzles:
            tile = solve(bot, puzzle)
            if tile in puzzle.answers:
                solved[puzzle.kind] += 1
            else:
                misses.append(f"{puzzle.id}: {code_to_str(tile) if tile is not None else 'no discard'}")
        n = sum(solved.values())
        kinds = "  ".join(f"{k} {solved[k]}/{total[k]}" for k in KINDS)
        print(f"  {level:7s} {n}/{len(puzzles)} = {100 * n / len(puzzles):.0f}%   {kinds}")
        if args.misses and misses:
            print("          missed " + ", ".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
