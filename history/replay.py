"""Replaying a finished hand step by step for the replay page.

A replay is a fold of the engine's `apply` over the action log (games/engine/README.md): frame N is the state
after the first N actions. Every hand is shown open — the hand is over and its seed revealed, so
nothing is hidden any more — together with what each seat waiting to answer could do at that point
(its legal actions: the claim options) and which action came next.

`ReplaySource` is the hand as the engine needs it; it comes from a stored `Hand` (only once the hand
has ended) or from an uploaded export that `games.engine.verify` accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from calc.links import calc_url
from games.engine.actions import Action, RuleError
from games.engine.kinds import Phase
from games.engine.rules import Rules
from games.engine.state import GameState
from games.engine.tiles import code_to_str
from games.engine.verify import HandExport, VerifyFailed, verify_export
from games.engine.view import Discard
from games.errors import message_for
from games.names import ACTIONS, PATTERNS, PHASES, WIN_KINDS, WINDS, word

from .import_errors import refusal


class NotReplayable(Exception):
    """The hand cannot be replayed (it is still being played, or its record is broken)."""


@dataclass(frozen=True)
class ReplaySource:
    export: HandExport
    names: tuple = tuple(format_lazy(gettext_lazy("座位 {}"), s) for s in range(4))

    @property
    def total(self) -> int:
        return len(self.export.actions)


def source_from_hand(hand, actions: list[str], names=None) -> ReplaySource:
    """The stored hand as an export; `NotReplayable` while it is unfinished."""
    if hand.result is None or not hand.seed:
        raise NotReplayable(_("这局还没有结束，结束后才能回放。"))
    try:
        export = HandExport(
            seed=hand.seed,
            rules=Rules.from_json(hand.rules),
            dealer=hand.dealer,
            huangfan=hand.huangfan,
            stake=hand.stake,
            gengfeng=hand.gengfeng,
            actions=tuple(Action.parse(a) for a in actions),
            commitment=hand.commitment,
            wall=hand.result["wall"],
        )
    except (ValueError, KeyError, TypeError):
        # the exception's own text is a Python message, in English: the person gets the plain fact
        raise NotReplayable(_("这局的记录已损坏，无法回放。")) from None
    return ReplaySource(export, tuple(names) if names else ReplaySource.names)


def check(source: ReplaySource) -> str | None:
    """None when the commitment, wall and full replay check out; otherwise what failed."""
    try:
        verify_export(source.export)
    except VerifyFailed as exc:
        return refusal(exc)
    return None


@dataclass
class SeatFrame:
    seat: int
    name: str
    wind: str  # a lazy word, as every word of a frame: the active language's when shown
    is_dealer: bool
    hand: list[str]
    drawn: str | None
    melds: list[dict]
    flowers: list[str]
    river: list[Discard]
    options: list[dict] = field(default_factory=list)  # {"text", "word", "tile", "taken"}
    pending: bool = False
    payment: int | None = None


@dataclass
class Frame:
    step: int
    total: int
    phase: str
    wall_remaining: int
    last: dict | None  # the action that led here
    next: dict | None  # the action taken from here
    seats: list[SeatFrame]
    result: dict | None  # the settlement, on the last frame

    @property
    def prev_step(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next_step(self) -> int | None:
        return self.step + 1 if self.step < self.total else None


def describe(action: Action, names) -> dict:
    return {
        "text": str(action),
        "seat": action.seat,
        "name": names[action.seat],
        "word": word(ACTIONS, action.kind),
        "tile": None if action.tile is None else code_to_str(action.tile),
    }


def clamp_step(raw, total: int) -> int:
    """The step asked for in the URL, kept within 0..total (anything unreadable is 0)."""
    try:
        step = int(raw)
    except (TypeError, ValueError):
        return 0
    return max(0, min(total, step))


def _settlement(state: GameState, names) -> dict:
    result = state.result
    winners = []
    contexts = (
        result.contexts if len(result.contexts) == len(result.winners) else (None,) * len(result.winners)
    )
    for w, ctx in zip(result.winners, contexts, strict=True):
        winners.append(
            {
                "seat": w.seat,
                "name": names[w.seat],
                "pattern": word(PATTERNS, w.pattern or ""),
                "win": word(WIN_KINDS, w.win),
                "from_seat": w.from_seat,
                "from_name": None if w.from_seat is None else names[w.from_seat],
                "features": list(w.features),
                "hua": w.hua,
                "value": w.value,
                "calc_url": None if ctx is None else calc_url(ctx, state.rules),
            }
        )
    return {"kind": result.kind, "winners": winners, "payments": list(result.payments)}


def frame_at(source: ReplaySource, step: int) -> Frame:
    """The state after `step` actions, every hand open, with the options of the seats to answer."""
    export, names = source.export, source.names
    step = max(0, min(source.total, step))
    state = GameState.new(
        export.rules, export.dealer, export.huangfan, export.stake, export.seed, gengfeng=export.gengfeng
    )
    try:
        for action in export.actions[:step]:
            state.apply(action)
    except RuleError as exc:
        raise NotReplayable(_("这局的记录无法重放：{error}").format(error=message_for(exc.code))) from None
    view = state.public_view()
    following = export.actions[step] if step < source.total else None
    pending = set(state.pending_seats()) if state.phase != Phase.ENDED else set()
    seats = []
    for info, concealed in zip(view.seats, state.hands, strict=True):
        s = info.seat
        drawn = state.drawn_tile if state.phase == Phase.TURN and s == state.current_seat else None
        tiles = list(concealed)
        if drawn is not None and drawn in tiles:
            tiles.remove(drawn)
        options = []
        if s in pending:
            for option in state.legal_actions(s):
                entry = describe(option, names)
                entry["taken"] = following == option
                options.append(entry)
        seats.append(
            SeatFrame(
                seat=s,
                name=names[s],
                wind=word(WINDS, info.wind),
                is_dealer=s == export.dealer,
                hand=[code_to_str(t) for t in tiles],
                drawn=None if drawn is None else code_to_str(drawn),
                # Every hand is open in a replay, concealed kongs too (the spectator view hides them).
                melds=[
                    {**m.to_json(), "tile_list": [code_to_str(t) for t in m.tiles]} for m in state.melds[s]
                ],
                flowers=list(info.flowers),
                river=list(info.river),
                options=options,
                pending=s in pending,
                payment=state.result.payments[s] if state.phase == Phase.ENDED else None,
            )
        )
    return Frame(
        step=step,
        total=source.total,
        phase=word(PHASES, state.phase),
        wall_remaining=state.wall_remaining,
        last=describe(export.actions[step - 1], names) if step else None,
        next=describe(following, names) if following is not None else None,
        seats=seats,
        result=_settlement(state, names) if state.phase == Phase.ENDED else None,
    )
