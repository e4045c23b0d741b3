"""`python -m games.engine score FILE.json` | `simulate --hands N --seed S [--preset P] [--options JSON]
[--export DIR]` | `verify HAND_EXPORT.json` | `review HAND_EXPORT.json --seat N [--json]`.

Bad arguments or an unreadable input: one line on stderr and exit status 2, never a traceback.
`score` prints one line per case; a case that cannot be scored gets an error line and exit status 1.
`verify` exits 1 with one line on stderr when a well-formed export fails its check.
"""

from __future__ import annotations

import argparse
import sys


def _score(args: argparse.Namespace) -> int:
    from .score_cmd import CaseError, run_score

    try:
        errors = run_score(args.file, sys.stdout)
    except CaseError as exc:
        print(f"score: {exc}", file=sys.stderr)
        return 2
    return 1 if errors else 0


def _simulate(args: argparse.Namespace) -> int:
    from .simulate import main_simulate

    return main_simulate(args) or 0


def _verify(args: argparse.Namespace) -> int:
    from .verify import ExportError, VerifyFailed, verify_path

    try:
        report = verify_path(args.file)
    except ExportError as exc:
        print(f"verify: bad input: {exc}", file=sys.stderr)
        return 2
    except VerifyFailed as exc:
        print(f"verify: FAILED: {exc}", file=sys.stderr)
        return 1
    print(report.summary())
    return 0


def _review(args: argparse.Namespace) -> int:
    from .review.cli import main_review

    return main_review(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description="Shanghai Mahjong engine tools"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score every case of a vector file, one JSON line each")
    score.add_argument("file", help="JSON list of scoring cases (tests/engine/cases format)")
    score.set_defaults(func=_score)
    simulate = sub.add_parser("simulate", help="play bot hands end to end")
    simulate.add_argument("--hands", default="100", help="how many hands (a positive integer)")
    simulate.add_argument("--seed", default=None)
    simulate.add_argument("--bots", default="easy,easy,easy,easy", help="four bot levels, comma-separated")
    simulate.add_argument("--preset", default="standard", help="standard, lazi or home")
    simulate.add_argument(
        "--options", default=None, help='room options as JSON, e.g. \'{"payment": "chu_chong"}\''
    )
    simulate.add_argument("--export", default=None, help="write each hand as a hand export JSON into DIR")
    simulate.set_defaults(func=_simulate)
    verify = sub.add_parser("verify", help="check a hand export's commitment and wall, and replay it")
    verify.add_argument(
        "file", help="hand export JSON (seed, rules, dealer, huangfan, stake, actions, commitment, wall)"
    )
    verify.set_defaults(func=_verify)
    review = sub.add_parser("review", help="review one seat's decisions of a hand export beside the hard bot")
    review.add_argument("file", help="hand export JSON (as for verify)")
    review.add_argument("--seat", required=True, help="the seat to review, 0-3")
    review.add_argument("--json", action="store_true", help="print the review as one JSON object")
    review.set_defaults(func=_review)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly, as command-line tools do.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
