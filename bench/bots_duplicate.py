"""One bot level against the level below on duplicate deals (issue 16). Prints figures; asserts nothing.

    .venv/bin/python bench/bots_duplicate.py --challenger hard --field normal --deals 8000 --seed S
        [--jobs 2] [--sprt DELTA]

Each deal gives every seat its own wall (`games.engine.duplicate`) and is played five times: the
challenger in each seat against three copies of the field, and four copies of the field as the
baseline (`games.engine.bots.duplicate_match`). Deal `i`'s seed is sha256("duplicate:S:i").

Primary figure: the challenger's mean net per hand minus the baseline seat's, in 底 (`Rules.base`
points), with a 95% interval over deals. Secondary, per seat-hand: win, deal-in, self-draw, 承包
paid (a partner of the winner who paid) and drawn hands, for the challenger, the field seats beside
it, and the baseline seats. `--sprt DELTA` stops early once Wald's test tells an edge of DELTA 底
from none (checked every 100 deals). `--per-deal PATH` writes each deal's edge, so two versions of
a bot run on the same seed can be compared deal by deal (the difference has a far narrower interval
than either edge); `--against PATH` prints that difference for a file written earlier. The last line is `edge=… ci95=[lo, hi] deals=N`.
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import levels  # noqa: E402
from games.engine.bots.duplicate_match import STATS, DuplicateMatch, Sprt, deal_seed, mean_ci95  # noqa: E402

_MATCH: DuplicateMatch | None = None


def _init(challenger: str, field: str) -> None:
    global _MATCH
    _MATCH = DuplicateMatch(challenger, field)


def _play(seed: str):
    return _MATCH.deal(seed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--challenger", required=True, choices=levels())
    parser.add_argument("--field", required=True, choices=levels())
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", default="dup")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the machine is shared)")
    parser.add_argument("--sprt", type=float, default=None, metavar="DELTA", help="stop early (edge in 底)")
    parser.add_argument(
        "--per-deal", metavar="PATH", help="write each deal's edge, one a line (for paired comparisons)"
    )
    parser.add_argument(
        "--against",
        metavar="PATH",
        help="a --per-deal file of another version on the same seed: print the paired difference",
    )
    args = parser.parse_args()
    if args.deals < 2:
        parser.error("--deals must be at least 2")
    if args.jobs < 1:
        parser.error("--jobs must be positive")
    sprt = Sprt(args.sprt) if args.sprt else None
    seeds = (deal_seed(args.seed, i) for i in range(args.deals))
    edges: list[float] = []
    totals = {role: dict.fromkeys(STATS, 0) for role in ("challenger", "field", "baseline")}
    decision = None
    started, cpu_started = time.perf_counter(), time.process_time()
    pool = Pool(args.jobs, _init, (args.challenger, args.field)) if args.jobs > 1 else None
    if pool is None:
        _init(args.challenger, args.field)
    outcomes = pool.imap(_play, seeds, chunksize=20) if pool else map(_play, seeds)
    try:
        for outcome in outcomes:
            edges.append(outcome.edge)
            for role, row in outcome.counts.items():
                for name, n in row.items():
                    totals[role][name] += n
            if sprt and len(edges) % 100 == 0 and (decision := sprt.decision(edges)):
                break
    finally:
        if pool:
            pool.terminate()
    n = len(edges)
    if args.per_deal:
        Path(args.per_deal).write_text("".join(f"{e!r}\n" for e in edges))
    elapsed = time.perf_counter() - started
    mean, lo, hi = mean_ci95(edges)
    print(f"{args.challenger} vs 3×{args.field}: {n} duplicate deals ({5 * n} hands), seed {args.seed!r}")
    seat_hands = {"challenger": 4 * n, "field": 12 * n, "baseline": 4 * n}
    for role, label in (
        ("challenger", args.challenger),
        ("field", f"{args.field} beside it"),
        ("baseline", f"{args.field} baseline"),
    ):
        row, m = totals[role], seat_hands[role]
        print(
            f"  {label:18s} win {row['win'] / m:.4f}  deal-in {row['deal_in'] / m:.4f}  "
            f"self-draw {row['self_draw'] / m:.4f}  承包 paid {row['chengbao'] / m:.4f}  "
            f"draws {row['draw'] / m:.4f}"
        )
    if sprt:
        print(f"  SPRT (edge {args.sprt} against 0): {decision or 'undecided'} after {n} deals")
    print(f"  {elapsed:.0f} s wall, {time.process_time() - cpu_started:.0f} s CPU in this process")
    if args.against:
        other = [float(line) for line in Path(args.against).read_text().split()]
        m = min(n, len(other))
        diff, dlo, dhi = mean_ci95([a - b for a, b in zip(edges[:m], other[:m], strict=True)])
        print(f"  paired against {args.against} over {m} deals: {diff:+.4f} ci95=[{dlo:+.4f}, {dhi:+.4f}]")
    print(f"edge={mean:+.4f} ci95=[{lo:+.4f}, {hi:+.4f}] deals={n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
