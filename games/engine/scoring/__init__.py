"""Scoring: `WinContext` -> `WinScore` per preset, and settlement of a hand into payments.

One shared core (`core.py`) and one small module per preset (`standard.py`, `lazi.py`, `home.py`), each
scoring through its `workings` (`workings.py`: the 花 lines and every step to the value). The turn machine calls
`is_legal_win` on every discard and `winning_tiles` for 听牌 hints and the 承包 "ready" test.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..hand import waits
from ..melds import Meld
from ..rules import Rules
from . import home, lazi, standard
from .core import (
    FEATURES,
    PATTERNS,
    WIN_KINDS,
    ScoringError,
    Settlement,
    Transfer,
    WinContext,
    WinScore,
    explain,
    net,
    qualifies,
    settle,
    shares_for,
    transfers,
)
from .workings import Line, LineKind, Step, StepKind, Workings

__all__ = [
    "FEATURES",
    "PATTERNS",
    "Line",
    "LineKind",
    "Step",
    "StepKind",
    "Transfer",
    "WIN_KINDS",
    "ScoringError",
    "Settlement",
    "WinContext",
    "WinScore",
    "Workings",
    "explain",
    "is_legal_win",
    "net",
    "score_win",
    "settle",
    "shares_for",
    "transfers",
    "winning_tiles",
    "workings",
]

_SCORERS = {"standard": standard.workings, "lazi": lazi.workings, "home": home.workings}


def _require_preset(rules: Rules) -> None:
    if rules.preset not in _SCORERS:
        raise ScoringError(f"scoring for preset {rules.preset!r} is not implemented")


def score_win(ctx: WinContext, rules: Rules) -> WinScore:
    """Score one win; a hand that is not complete or does not qualify gets legal=False, pattern None."""
    return workings(ctx, rules).score


def workings(ctx: WinContext, rules: Rules) -> Workings:
    """Score one win and keep how: the 花 (or `home` M) lines and each step to the value."""
    _require_preset(rules)
    return _SCORERS[rules.preset](ctx, rules)


def is_legal_win(concealed_with_tile_counts: Sequence[int], melds: Sequence[Meld], rules: Rules) -> bool:
    """Complete and qualifying (§5; `home` has no minimum): the check run on every discard."""
    _require_preset(rules)
    if rules.preset == "home":
        return home.is_legal(concealed_with_tile_counts, melds)
    return qualifies(concealed_with_tile_counts, melds)


def winning_tiles(concealed_counts_13: Sequence[int], melds: Sequence[Meld], rules: Rules) -> list[int]:
    """Tiles that would give a legal win (a fifth copy, counting the melds, is never listed)."""
    _require_preset(rules)
    if rules.preset == "home":  # 七对子 is not a structural wait, and dragons are flowers
        candidates, legal = home.wait_candidates(concealed_counts_13, melds), home.is_legal
    else:
        candidates, legal = waits(concealed_counts_13), qualifies
    used = list(concealed_counts_13)
    for meld in melds:
        for tile in meld.tiles:
            used[tile] += 1
    work = list(concealed_counts_13)
    out = []
    for tile in candidates:
        if used[tile] >= 4:
            continue
        work[tile] += 1
        if legal(work, melds):
            out.append(tile)
        work[tile] -= 1
    return out
