"""`python -m games.engine review EXPORT.json --seat N [--json]`: a hand's review for one seat.

The export is checked first (`verify`: commitment, wall, a full replay), so only a real, finished
hand is reviewed. Bad arguments or input: one line on stderr and exit status 2 (1 when a well-formed
export fails its check), never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from ..verify import ExportError, VerifyFailed, verify_path
from .core import Review, review


def _fail(message: str, status: int = 2) -> int:
    print(f"review: {message}", file=sys.stderr)
    return status


def main_review(args: Any, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        seat = int(args.seat)
    except (TypeError, ValueError):
        seat = -1
    if not 0 <= seat < 4:
        return _fail(f"--seat must be 0, 1, 2 or 3, not {args.seat!r}")
    try:
        report = verify_path(args.file)
    except ExportError as exc:
        return _fail(f"bad input: {exc}")
    except VerifyFailed as exc:
        return _fail(f"FAILED: {exc}", 1)
    result = review(report.export, seat)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False), file=out)
    else:
        out.write(as_text(result))
    return 0


def as_text(result: Review) -> str:
    """One line per decision, then the summary."""
    lines = [f"review of seat {result.seat}"]
    for d in result.decisions:
        if d.verdict is None:
            lines.append(f"step {d.step:>3}  {d.kind:<8} played {d.played}  (not rated)")
            continue
        mark = {"agrees": "=", "close": "~", "mistake": "!"}[d.verdict]
        lines.append(
            f"step {d.step:>3}  {d.kind:<8} {mark} played {d.played:<18} best {d.best:<18}"
            f" {d.verdict} (gap {d.gap:.2f})"
        )
    s = result.summary
    lines.append(
        f"{s.decisions} decisions, {s.rated} rated: {s.agreed} agree ({s.agreement:.1%}), "
        f"{s.close} close, {s.mistakes} mistakes, {s.useful_lost} useful tiles given away"
    )
    return "\n".join(lines) + "\n"
