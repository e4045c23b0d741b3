"""复盘: a hand's decisions for one seat, each beside the `hard` bot's choice (`review`).

The review is a fold over the hand's record (a `HandExport`, the same data as the site's export):
the hand is replayed, and before each action of the seat that had a choice, only
`state.hand_view(seat)` is handed on (`seat_views`); `review_views` judges each decision from that
view alone (`decide.judge` over a `SeatKnowledge`). So the review of a seat at step k depends on
what the seat could see at step k and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..rules import Rules
from ..state import GameState
from ..verify import HandExport
from ..view import HandView
from .decide import AGREES, CLOSE, MISTAKE, MISTAKE_GAP, Decision, judge
from .knowledge import SeatKnowledge

VERSION = 1  # bump when the judging changes: stored reviews of an older version are recomputed


@dataclass(frozen=True)
class Summary:
    decisions: int  # every decision with a choice
    rated: int  # those the bot has an opinion on (not 换牌)
    agreed: int
    close: int
    mistakes: int
    useful_lost: int  # useful tiles given away by discards, against the bot's discard

    @property
    def agreement(self) -> float:
        return self.agreed / self.rated if self.rated else 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "rated": self.rated,
            "agreed": self.agreed,
            "close": self.close,
            "mistakes": self.mistakes,
            "agreement": round(self.agreement, 4),
            "useful_lost": self.useful_lost,
        }


@dataclass(frozen=True)
class Review:
    seat: int
    decisions: tuple[Decision, ...]

    @property
    def summary(self) -> Summary:
        verdicts = [d.verdict for d in self.decisions]
        return Summary(
            decisions=len(verdicts),
            rated=sum(v is not None for v in verdicts),
            agreed=verdicts.count(AGREES),
            close=verdicts.count(CLOSE),
            mistakes=verdicts.count(MISTAKE),
            useful_lost=sum(d.useful_lost for d in self.decisions),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "seat": self.seat,
            "mistake_gap": MISTAKE_GAP,
            "summary": self.summary.to_json(),
            "decisions": [d.to_json() for d in self.decisions],
        }


def seat_views(export: HandExport, seat: int) -> Iterator[tuple[int, HandView, Action]]:
    """(step, the seat's view just before, its action) for each action of `seat` that was a choice
    (more than one legal action). Raises `RuleError` if the record does not replay."""
    state = GameState.new(
        export.rules, export.dealer, export.huangfan, export.stake, export.seed, gengfeng=export.gengfeng
    )
    for step, action in enumerate(export.actions):
        if action.seat == seat and len(state.legal_actions(seat)) > 1:
            yield step, state.hand_view(seat), action
        state.apply(action)


def review_views(views: Iterable[tuple[int, HandView, Action]], rules: Rules) -> tuple[Decision, ...]:
    """Each decision judged from its view alone."""
    return tuple(judge(SeatKnowledge(view, rules), action, step) for step, view, action in views)


def review(export: HandExport, seat: int) -> Review:
    """The review of `seat`'s decisions in the hand `export` (which must replay to its end)."""
    if type(seat) is not int or not 0 <= seat < 4:
        raise ValueError(f"no seat {seat!r}: seats are 0-3")
    return Review(seat, review_views(seat_views(export, seat), export.rules))
