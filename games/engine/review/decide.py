"""One decision of one seat, judged from that seat's knowledge only (`SeatKnowledge`).

The judge is the `hard` bot: its choice is the review's first choice (`best`), and every option gets
a value on the bot's own scale, in steps of 向听 (distance to a qualifying hand):

- a discard: `-向听 + 0.5·ln(share of the best option's useful-tile score)` less the danger the
  bot weighs against sure threats (`NormalBot.pick`'s utility, with `HardBot`'s caution);
- a claim or a kong: minus the 向听 it leaves (passing: the 向听 now); a win: `WIN_VALUE`.

The verdict compares the played option with the bot's: `agrees` when they are the same action,
`close` when the played one is worth less than `MISTAKE_GAP` steps below it, else `mistake`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..actions import Action
from ..bots import evaluate as ev
from ..bots.defense import danger, read_threats
from ..bots.hard import HardBot
from ..bots.normal import NormalBot, Position, claimed_meld
from ..kinds import ActionKind as K
from ..kinds import Phase
from ..tiles import code_to_str
from .knowledge import SeatKnowledge

MISTAKE_GAP = 0.5  # steps of 向听: about a third of the useful tiles given up, or any step lost
WIN_VALUE = 10.0
_WINS = (K.WIN, K.SELF_WIN)
_TURN_KONGS = (K.CONCEALED_KONG, K.ADDED_KONG)


class DecisionKind(StrEnum):
    """What a reviewed decision was: a discard on the seat's own turn, an answer to a discard or a
    kong (吃/碰/杠/胡/过), or the 换牌 choice."""

    DISCARD = "discard"
    CLAIM = "claim"
    SWAP = "swap"


_DISCARDS = (K.DISCARD, K.DECLARE)
_SWAP = (K.BURY, K.SKIP)

AGREES, CLOSE, MISTAKE = "agrees", "close", "mistake"


@dataclass(frozen=True)
class Option:
    """One choice open to the seat, as the review shows it."""

    action: str  # the action in log notation ("2:discard:5m")
    kind: str
    tile: str | None
    value: float
    rank: int  # 1 = the bot's first choice
    shanten: dict[str, int] = field(default_factory=dict)  # per open plan (PLAN_NAMES) after it
    useful: int | None = None  # unseen tiles that bring the hand closer after a discard (牌效)
    danger: float | None = None  # the bot's reading of the chance it deals in
    before: int | None = None  # claims and kongs: 向听 before and after
    after: int | None = None
    plans: tuple[str, ...] = ()  # claims: the plans still open after it
    kept: bool | None = None  # claims: a plan closest now stays open

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action,
            "kind": self.kind,
            "tile": self.tile,
            "value": round(self.value, 3),
            "rank": self.rank,
        }
        for key in ("useful", "danger", "before", "after", "kept"):
            value = getattr(self, key)
            if value is not None:
                out[key] = round(value, 3) if isinstance(value, float) else value
        if self.shanten:
            out["shanten"] = dict(self.shanten)
        if self.plans:
            out["plans"] = list(self.plans)
        return out


@dataclass(frozen=True)
class Decision:
    step: int  # index of the action in the hand's log: the replay's frame `step` is just before it
    kind: DecisionKind
    options: tuple[Option, ...]
    played: str
    best: str | None  # None: the bot has no opinion (换牌)
    verdict: str | None  # agrees / close / mistake; None when not rated
    gap: float  # the bot's value of its choice minus the played option's, ≥ 0
    useful_lost: int  # useful tiles of the bot's discard minus the played one's, when more
    hand: tuple[str, ...]
    drawn: str | None
    tile: str | None  # the tile being claimed, for a claim

    @property
    def agrees(self) -> bool | None:
        return None if self.verdict is None else self.verdict == AGREES

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "kind": self.kind,
            "options": [o.to_json() for o in self.options],
            "played": self.played,
            "best": self.best,
            "agrees": self.agrees,
            "verdict": self.verdict,
            "gap": round(self.gap, 3),
            "useful_lost": self.useful_lost,
            "hand": list(self.hand),
            "drawn": self.drawn,
            "tile": self.tile,
        }


def judge(known: SeatKnowledge, played: Action, step: int) -> Decision:
    """The review of `played`, the seat's answer at `step`, from what `known` holds."""
    seat = known.seat
    legal = known.legal_actions(seat)
    hand = tuple(code_to_str(t) for t in range(len(known.counts[seat])) for _ in range(known.counts[seat][t]))
    drawn = None if known.drawn_tile is None else code_to_str(known.drawn_tile)
    if any(a.kind in _SWAP for a in legal):
        options = tuple(Option(str(a), a.kind, _tile(a), 0.0, 0) for a in legal)
        return Decision(step, DecisionKind.SWAP, options, str(played), None, None, 0.0, 0, hand, drawn, None)
    bot = HardBot()
    best = bot.choose(known, seat)
    if known.phase == Phase.TURN:
        kind, tile, values = DecisionKind.DISCARD, None, _turn_values(bot, known, legal)
    else:
        kind = DecisionKind.CLAIM
        tile = code_to_str(known.claim_tile if known.claim_tile is not None else known.last_discard)
        values = _claim_values(known, legal)
    scored = {a: v.value for a, v in values.items()}
    ranked = sorted(legal, key=lambda a: (a != best, -scored[a], str(a)))
    options = tuple(_with_rank(values[a], rank) for rank, a in enumerate(ranked, start=1))
    gap = max(0.0, scored[best] - scored.get(played, -WIN_VALUE))
    verdict = AGREES if played == best else CLOSE if gap < MISTAKE_GAP else MISTAKE
    lost = 0
    if kind == DecisionKind.DISCARD and played in values and values[best].useful is not None:
        lost = max(0, (values[best].useful or 0) - (values[played].useful or 0))
    return Decision(step, kind, options, str(played), str(best), verdict, gap, lost, hand, drawn, tile)


def _tile(action: Action) -> str | None:
    return None if action.tile is None else code_to_str(action.tile)


def _with_rank(option: Option, rank: int) -> Option:
    return Option(**{**option.__dict__, "rank": rank})


def _turn_values(bot: HardBot, known: SeatKnowledge, legal: list[Action]) -> dict[Action, Option]:
    seat = known.seat
    pos = Position(known, seat)
    threats = read_threats(known, seat)
    unseen = pos.unseen
    counts = pos.counts
    discards = [a for a in legal if a.kind in _DISCARDS]
    by_tile: dict[int, tuple[float, int | None, dict[str, int]]] = {}
    if pos.plans:
        ranked = bot.rank_discards(pos)
        weighed = bot.weigh_threats(pos, ranked, threats)
        top = ranked[0].score or 1.0
        caution, sure = 0.0, []
        if weighed is not None:
            sure, cautions = weighed
            step = max(0, ranked[0].shanten)
            caution = cautions[min(step, len(cautions) - 1)]
        for option in ranked:
            value = _offence(option, top)
            if caution:
                value -= caution * bot.risk(pos, option.tile, sure)
            counts[option.tile] -= 1
            try:
                per_plan = {ev.PLAN_NAMES[p]: ev.shanten(p, counts) for p in pos.plans}
                useful = ev.useful_tiles(option.plan, counts, unseen)
            finally:
                counts[option.tile] += 1
            by_tile[option.tile] = (value, useful, per_plan)
    else:  # no qualifying hand left: the bot discards for safety alone
        for tile in {a.tile for a in discards}:
            by_tile[tile] = (-bot.risk(pos, tile, threats), None, {})
    before = pos.distance()
    out = {}
    for action in legal:
        tile = _tile(action)
        if action.kind in _WINS:
            out[action] = Option(str(action), action.kind, tile, WIN_VALUE, 0)
        elif action.kind in _TURN_KONGS:
            remove = {action.tile: 4 if action.kind == K.CONCEALED_KONG else 1}
            shape = ev.MeldShape(action.tile, False) if action.kind == K.CONCEALED_KONG else None
            after = pos.distance_after(remove, shape)
            out[action] = Option(str(action), action.kind, tile, float(-after), 0, before=before, after=after)
        else:
            value, useful, per_plan = by_tile[action.tile]
            out[action] = Option(
                str(action),
                action.kind,
                tile,
                value,
                0,
                shanten=per_plan,
                useful=useful,
                danger=round(danger(action.tile, threats, unseen), 4),
            )
    return out


def _offence(option: ev.DiscardOption, top: float) -> float:
    """`NormalBot.pick`'s offence: distance, then the share of the best useful-tile score."""
    share = option.score / top
    return -option.shanten + 0.5 * math.log(min(1.0, max(0.05, share)))


def _claim_values(known: SeatKnowledge, legal: list[Action]) -> dict[Action, Option]:
    seat = known.seat
    pos = Position(known, seat)
    tile = known.claim_tile if known.claim_tile is not None else known.last_discard
    if pos.plans:
        before, closest = ev.closest_plans(pos.counts, pos.plans)
    else:
        before, closest = 99, []
    out = {}
    for action in legal:
        if action.kind in _WINS:
            out[action] = Option(str(action), action.kind, _tile(action), WIN_VALUE, 0)
        elif action.kind == K.PASS:
            names = tuple(ev.PLAN_NAMES[p] for p in pos.plans)
            out[action] = Option(
                str(action),
                action.kind,
                None,
                float(-before),
                0,
                before=before,
                after=before,
                plans=names,
                kept=True,
            )
        else:
            shape, _ = claimed_meld(action, tile)
            plans = ev.open_plans(pos.shapes + [shape])
            after = NormalBot.after_claim(pos, action, tile)
            out[action] = Option(
                str(action),
                action.kind,
                _tile(action),
                float(-after),
                0,
                before=before,
                after=after,
                plans=tuple(ev.PLAN_NAMES[p] for p in plans),
                kept=any(p in plans for p in closest),
            )
    return out
