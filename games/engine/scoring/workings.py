"""The workings of a score: the lines of the count a value starts from and each step the scorer took.

Each preset computes its value BY building these steps (`standard.share_steps`, `lazi`'s and `home`'s
`workings`), so what an explanation shows is what the engine did, not a restatement of the rules.
They carry codes and numbers only; words belong to the web layer (`games/names.py`, `games/presentation/explain.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..melds import Meld
from ..tiles import N_KINDS
from .core import FLOWER_HUA, WinScore, meld_hua, triplet_hua


class LineKind(StrEnum):
    """What one line of the 花 (§6) or `home` M (§9) count is."""

    FLOWER = "flower"  # one flower tile (in `home` also a dragon)
    NO_FLOWERS = "no_flowers"  # `home`: no flower tile counts 10
    MELD = "meld"  # a declared meld that scores (honour pong or kong, suit kong; `home`: wind set)
    KONG = "kong"  # `home`: every kong adds 1 besides its wind line
    CONCEALED_PONG = "concealed_pong"  # an honour triplet held in the hand


@dataclass(frozen=True, slots=True)
class Line:
    kind: LineKind
    tiles: tuple[int, ...]
    amount: int
    meld_kind: str | None = None  # for MELD / KONG lines: the meld's kind


class StepKind(StrEnum):
    """One step of a share's value; `value` in a `Step` is the running figure after it."""

    BASE = "base"  # a pattern's fixed value P and cap C (standard)
    BASE_HUA = "base_hua"  # P = base + per-花 × 花 (standard 混一色 / 碰碰胡; lazi 3 + 花): operand = base
    FIXED = "fixed"  # a fixed hand (lazi: operand = 喇; home 八花齐: the payment cap)
    FLOOR = "floor"  # P = max(P, operand) (杠开 / 大吊车 / an option's "at least 1 勒子")
    DOUBLE = "double"  # P × 2 (standard: C = max(C, 2); lazi: one 番, or 荒番 with operand = the count)
    DOUBLE_CAP = "double_cap"  # P × 2 and C × 2 (开宝, 荒番; operand = the 荒番 count for 荒番)
    CAP = "cap"  # V = min(P, operand)
    TIMES = "times"  # home: N × operand (one factor of N); value = N so far
    PAY = "pay"  # home: min(M × N + 1, cap); operand = N
    STAKE = "stake"  # V × operand (the table stake)


@dataclass(frozen=True, slots=True)
class Step:
    kind: StepKind
    by: tuple[str, ...]  # the pattern or features that caused it (codes of the scoring cases)
    value: int
    cap: int | None = None  # the running cap: C in 勒子 (standard), the payment cap (home PAY)
    operand: int | None = None


@dataclass(frozen=True, slots=True)
class Workings:
    """A scored win with how it was reached. For an illegal win `lines` still holds the count and
    `steps` is empty; `refused` then says why: "incomplete" (no sets-and-pair, seven pairs or
    all-honours shape), "plain" (complete but no §5 pattern), "eight_flowers" (fewer than eight)."""

    score: WinScore
    lines: tuple[Line, ...]
    steps: tuple[Step, ...]
    refused: str | None = None


def hua_lines(counts: Sequence[int], melds: Sequence[Meld], flowers: Sequence[int]) -> tuple[Line, ...]:
    """The 花 of §6 line by line, from the same units as `core.hua_of` (their sum is `hua_of`)."""
    lines = [Line(LineKind.FLOWER, (t,), FLOWER_HUA) for t in flowers]
    for meld in melds:
        amount = meld_hua(meld)
        if amount:
            lines.append(Line(LineKind.MELD, meld.tiles, amount, meld.kind))
    for tile in range(27, N_KINDS):
        if counts[tile] >= 3:
            lines.append(Line(LineKind.CONCEALED_PONG, (tile,) * 3, triplet_hua(tile)))
    return tuple(lines)
