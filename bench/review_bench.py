"""复盘 calibration and speed (issue 28). Prints figures; asserts nothing.

    .venv/bin/python bench/review_bench.py [--hands 200] [--seed S]

Plays `--hands` hands with bots easy, normal, hard, hard (seats rotating between hands, as
`python -m games.engine simulate` does), then reviews every seat of every hand from its export:

- agreement per level: the share of each level's rated decisions on which the seat played the
  review's first choice (the `hard` bot's, from the seat's view) — targets: hard ≥ 99 %, ordered
  easy < normal < hard; and the mistakes per seat-hand for each level;
- review time per hand: the CPU time of one seat's review of one hand (mean, p99, max) — target:
  at most 1 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.review import review  # noqa: E402
from games.engine.simulate import export_of, simulate  # noqa: E402
from games.engine.verify import parse_export  # noqa: E402

LEVELS = ["easy", "normal", "hard", "hard"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", default="review-bench")
    args = parser.parse_args()
    exports = []

    def keep(index, state):
        exports.append((index, parse_export(export_of(state))))

    simulate(args.hands, args.seed, LEVELS, on_hand=keep)
    rows = {
        level: dict.fromkeys(("seat_hands", "rated", "agreed", "close", "mistakes"), 0) for level in LEVELS
    }
    times = []
    clock = time.process_time
    for index, export in exports:
        for player, level in enumerate(LEVELS):
            seat = (player + index) % 4  # simulate's rotation: player p sits at seat (p + i) % 4
            start = clock()
            summary = review(export, seat).summary
            times.append(clock() - start)
            row = rows[level]
            row["seat_hands"] += 1
            row["rated"] += summary.rated
            row["agreed"] += summary.agreed
            row["close"] += summary.close
            row["mistakes"] += summary.mistakes
    print(f"{len(exports)} hands, bots {','.join(LEVELS)}, seed {args.seed!r}")
    for level, row in rows.items():
        rate = row["agreed"] / max(1, row["rated"])
        print(
            f"  {level:<7} agreement {rate:7.2%}  over {row['rated']:>6} decisions;"
            f"  mistakes per hand {row['mistakes'] / max(1, row['seat_hands']):5.2f};"
            f"  close per hand {row['close'] / max(1, row['seat_hands']):5.2f}"
        )
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"review time per seat-hand (CPU): mean {sum(times) / len(times) * 1000:.1f} ms,"
        f" p99 {p99 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms (target <= 1000 ms)"
    )


if __name__ == "__main__":
    main()
