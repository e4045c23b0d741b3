"""A challenger against a field on duplicate deals (`games.engine.duplicate`), and the statistics.

Each deal is played five times: four times with the challenger in seat 0, 1, 2, 3 and three copies
of the field level in the other seats, and once with four copies of the field level (the baseline).
A deal's figure is the challenger's mean net over its four seats minus the baseline's mean over the
same four seats, in 底 units (`Rules.base` × stake points). (Payments sum to zero, so the baseline's
mean is 0 and the figure is the challenger's mean net; the baseline hand still gives the field's own
rates to compare the secondary figures with.) The deals are the independent units: the
interval is the mean over deals ± 1.96 standard errors (normal approximation, fine for the
hundreds to thousands of deals a comparison needs).

`Sprt` is an optional sequential test on the same per-deal figures (Wald's test on a normal mean
with the variance estimated from the data): it stops as soon as the figures clearly favour an edge
of `delta` or of 0.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

from ..duplicate import DuplicateState
from ..kinds import Phase, ResultKind
from ..rules import Rules
from ..scoring.core import partners_of
from ..state import SELF_DRAWN
from . import get_bot

Z95 = 1.959963984540054
STATS = ("win", "deal_in", "self_draw", "chengbao", "draw")


def deal_seed(seed: str, index: int) -> str:
    return hashlib.sha256(f"duplicate:{seed}:{index}".encode()).hexdigest()


def play(state, bots) -> None:
    while state.phase != Phase.ENDED:
        seat = state.pending_seats()[0]
        state.apply(bots[seat].choose(state, seat))


def seat_stats(state, seat: int) -> dict[str, int]:
    """One seat's share of a finished hand: won, dealt in, self-drew, paid as a 承包 partner, drawn."""
    result = state.result
    out = dict.fromkeys(STATS, 0)
    out["draw"] = int(result.kind == ResultKind.DRAW)
    for w in result.winners:
        if not w.legal:
            continue
        if w.seat == seat:
            out["win"] = 1
            out["self_draw"] |= w.win in SELF_DRAWN
        elif w.from_seat == seat and w.win in ("discard", "rob_kong"):
            out["deal_in"] = 1
        if w.seat != seat and seat in partners_of(w.seat, state.feeds) and result.payments[seat] < 0:
            out["chengbao"] = 1
    return out


@dataclass
class DealOutcome:
    """One deal's five hands: nets in 底 per challenger seat and per baseline seat, and counts."""

    challenger: list[float]
    baseline: list[float]
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # role -> stat -> seat-hands

    @property
    def edge(self) -> float:
        return sum(self.challenger) / 4 - sum(self.baseline) / 4


class DuplicateMatch:
    """Plays deals for one challenger level against one field level (bots built once, reused)."""

    def __init__(self, challenger: str, field: str, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.challenger = [get_bot(challenger) for _ in range(4)]
        self.field = [get_bot(field) for _ in range(4)]

    def deal(self, seed: str) -> DealOutcome:
        unit = self.rules.base  # points per 底 at stake 1
        counts = {role: dict.fromkeys(STATS, 0) for role in ("challenger", "field", "baseline")}
        challenger_nets = []
        for seat in range(4):
            bots = [self.challenger[s] if s == seat else self.field[s] for s in range(4)]
            state = DuplicateState.new(self.rules, seed=seed)
            play(state, bots)
            challenger_nets.append(state.result.payments[seat] / unit)
            for s in range(4):
                role = counts["challenger" if s == seat else "field"]
                for name, n in seat_stats(state, s).items():
                    role[name] += n
        state = DuplicateState.new(self.rules, seed=seed)
        play(state, self.field)
        for s in range(4):
            for name, n in seat_stats(state, s).items():
                counts["baseline"][name] += n
        baseline_nets = [p / unit for p in state.result.payments]
        return DealOutcome(challenger_nets, baseline_nets, counts)


def mean_ci95(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (mean ± 1.96 × sample standard deviation / √n)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = sum(values) / n
    if n == 1:
        return mean, -math.inf, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


class Sprt:
    """Wald's sequential test of edge = 0 (H0) against edge = `delta` (H1) on per-deal figures.

    The log-likelihood ratio of a normal mean with variance s² is (δ Σx − n δ² / 2) / s²; the test
    accepts H1 above log((1 − β) / α) and H0 below log(β / (1 − α)). With s² estimated from the
    data it is approximate, so it is only consulted after `min_n` deals."""

    def __init__(self, delta: float, alpha: float = 0.05, beta: float = 0.05, min_n: int = 200) -> None:
        if delta <= 0:
            raise ValueError("delta must be positive")
        self.delta, self.min_n = delta, min_n
        self.upper = math.log((1 - beta) / alpha)
        self.lower = math.log(beta / (1 - alpha))

    def llr(self, values: list[float]) -> float:
        n = len(values)
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
        if var == 0:
            return math.inf if mean > self.delta / 2 else -math.inf
        return (self.delta * sum(values) - n * self.delta**2 / 2) / var

    def decision(self, values: list[float]) -> str | None:
        """ "H1" (an edge of delta), "H0" (no edge) or None (keep going)."""
        if len(values) < self.min_n:
            return None
        llr = self.llr(values)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None
