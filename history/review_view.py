"""The review page's view model: one stored review (`HandReview.data`), one decision at a time."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.kinds import ActionKind
from games.engine.review import DecisionKind

from .review_words import KINDS, VERDICTS, action_word, plan_word

NEAR = 3  # patterns shown per discard before the rest fold away


@dataclass
class OptionRow:
    action: str
    kind: str
    word: str
    tile: str | None
    rank: int
    value: float
    useful: int | None
    danger: float | None
    shanten: list[tuple[str, int]]
    before: int | None
    after: int | None
    plans: list[str]
    kept: bool | None
    played: bool
    best: bool

    @property
    def tiles(self) -> list[str]:
        """The tiles to show: a chow's three (its `tile` is the lowest), else the one tile if any."""
        if self.tile is None:
            return []
        if self.kind == ActionKind.CHOW:
            rank, suit = int(self.tile[0]), self.tile[1]
            return [f"{rank + i}{suit}" for i in range(3)]
        return [self.tile]

    @property
    def shanten_near(self) -> list[tuple[str, int]]:
        """The closest patterns, shown in the row; the others (`shanten_far`) fold away."""
        return self.shanten[:NEAR]

    @property
    def shanten_far(self) -> list[tuple[str, int]]:
        return self.shanten[NEAR:]


@dataclass
class DecisionView:
    index: int
    count: int
    step: int
    kind: str
    kind_word: object
    verdict: str | None
    verdict_word: object
    gap: float
    played: OptionRow | None
    best: OptionRow | None
    options: list[OptionRow]
    hand: list[str]
    drawn: str | None
    tile: str | None

    @property
    def is_discard(self) -> bool:
        return self.kind == DecisionKind.DISCARD

    @property
    def is_claim(self) -> bool:
        return self.kind == DecisionKind.CLAIM

    @property
    def prev_index(self) -> int | None:
        return self.index - 1 if self.index > 0 else None

    @property
    def next_index(self) -> int | None:
        return self.index + 1 if self.index + 1 < self.count else None


def clamp_index(raw, count: int) -> int:
    try:
        index = int(raw)
    except (TypeError, ValueError):
        return 0
    return max(0, min(count - 1, index)) if count else 0


def _row(option: dict, played: str, best: str | None) -> OptionRow:
    kind = option["kind"]
    hand = list(option.get("shanten", {}).items())
    return OptionRow(
        action=option["action"],
        kind=kind,
        word=action_word(kind),
        tile=option.get("tile"),
        rank=option["rank"],
        value=option["value"],
        useful=option.get("useful"),
        danger=option.get("danger"),
        shanten=sorted(((plan_word(p), n) for p, n in hand), key=lambda pn: pn[1]),
        before=option.get("before"),
        after=option.get("after"),
        plans=[plan_word(p) for p in option.get("plans", ())],
        kept=option.get("kept"),
        played=option["action"] == played,
        best=option["action"] == best,
    )


def decision_view(data: dict, index: int) -> DecisionView | None:
    decisions = data.get("decisions") or []
    if not decisions:
        return None
    d = decisions[index]
    rows = [_row(o, d["played"], d["best"]) for o in d["options"]]
    verdict = d.get("verdict")
    hand, drawn = list(d.get("hand", ())), d.get("drawn")
    if drawn in hand:
        hand.remove(drawn)  # shown apart, as the table shows the tile just drawn
    return DecisionView(
        index=index,
        count=len(decisions),
        step=d["step"],
        kind=d["kind"],
        kind_word=KINDS.get(d["kind"], d["kind"]),
        verdict=verdict,
        verdict_word=VERDICTS.get(verdict, "") if verdict else "",
        gap=d["gap"],
        played=next((r for r in rows if r.played), None),
        best=next((r for r in rows if r.best), None),
        options=rows,
        hand=hand,
        drawn=drawn,
        tile=d.get("tile"),
    )


def timeline(data: dict) -> list[dict]:
    """Every decision as a mark for the strip of links: index, step, verdict."""
    return [
        {
            "index": i,
            "step": d["step"],
            "verdict": d.get("verdict") or "unrated",
            "kind": d["kind"],
        }
        for i, d in enumerate(data.get("decisions") or [])
    ]
