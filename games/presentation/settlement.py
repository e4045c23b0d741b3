"""The settlement panel shown over the table when a hand ends (issue 13): every hand laid down (摊牌)
with the winning tile marked, and the scoring explained the way the calculator explains it (pattern
and features, the 花 lines, the value steps, who pays whom and why — 承包,
抢杠, the loss cap — through the one partial `templates/scoring/explanation.html`), each seat's ± for
the hand and the match, the next dealer and the 荒番 count; 流局 for a drawn hand.

Built once per ended version and language for all its viewers: everything in it is public once the
hand is over; its words (the explanation's) are in the language active while it is built. Who is
ready for the next hand (`next_hand_view`) is built per render: it is small, and the viewer's own
button depends on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from games.engine.state import GameState
from games.engine.tiles import code_to_str
from games.models import Seat, Table
from games.presentation.explain import explain_hand
from games.services.policy import counts_ready


@dataclass
class LaidDown:
    """One seat's hand at 摊牌."""

    index: int
    name: str
    wind: str  # the wind's tile code (the template names it)
    is_dealer: bool
    melds: list = field(default_factory=list)  # rendering.MeldView, face up
    concealed: list[str] = field(default_factory=list)
    flowers: list[str] = field(default_factory=list)
    winning_tile: str | None = None  # set apart and marked, for a winner
    payment: int = 0
    total: int = 0


@dataclass
class Panel:
    kind: str  # "win" or "draw"
    hands: list[LaidDown]
    explanation: SafeString  # empty for a drawn hand
    dealer_next: str  # empty when no hand follows (a planned table's last)
    huangfan: int
    huangfan_next: int


def settlement_panel(
    state: GameState,
    seats: list,
    scores: list[int],
    huangfan_next: int | None = None,
    *,
    planned: bool = False,
    planned_dealer: int | None = None,
) -> Panel:
    """`seats`: the viewer's `SeatView`s of this version (names, winds, melds face up); `scores`: the
    match totals after this hand; `huangfan_next`: the count the table carries into the next hand
    (the table's, which is 0 when a player left during or after this hand, rules §7; by default what
    this hand alone leaves). At a `planned` (tournament) table the next dealer is the plan's
    (`planned_dealer`, None after its last hand), not the rules'."""
    result = state.result
    # A winner's concealed tiles without the winning tile are the win's own (`WinContext.concealed`):
    # the engine puts a self-drawn tile in the hand but never a discard or a robbed kong's tile, so
    # taking the tile out of the hand would drop one of the winner's own copies on a discard win.
    wins = {ctx.winner: ctx for ctx in result.contexts}
    hands = []
    for seat in seats:
        ctx = wins.get(seat.index)
        tiles = ctx.concealed if ctx is not None else state.hands[seat.index]
        concealed = [code_to_str(c) for c in tiles]
        win_text = code_to_str(ctx.winning_tile) if ctx is not None and ctx.winning_tile is not None else None
        hands.append(
            LaidDown(
                index=seat.index,
                name=seat.name,
                wind=seat.wind,
                is_dealer=seat.is_dealer,
                melds=seat.melds,
                concealed=concealed,
                flowers=list(seat.flowers),
                winning_tile=win_text,
                payment=int(result.payments[seat.index]),
                total=int(scores[seat.index]) if scores else 0,
            )
        )
    names = [seat.name for seat in seats]
    html = SafeString("")  # a drawn hand has nothing to explain: its ± are on the laid-down rows
    if result.contexts:
        explanation = explain_hand(list(result.contexts), state.rules, list(result.payments), names=names)
        html = SafeString(render_to_string("scoring/explanation.html", {"explanation": explanation}))
    return Panel(
        kind=result.kind,
        hands=hands,
        explanation=html,
        dealer_next=_next_dealer_name(names, result.dealer_next, planned, planned_dealer),
        huangfan=state.huangfan_in_play,
        huangfan_next=result.huangfan_next if huangfan_next is None else huangfan_next,
    )


def _next_dealer_name(names: list[str], by_rules: int, planned: bool, planned_dealer: int | None) -> str:
    if not planned:
        return names[by_rules]
    return names[planned_dealer] if planned_dealer is not None else ""


@dataclass
class ReadySeat:
    """One seat's state for the next hand: `ready` when it pressed 下一局 or plays itself."""

    index: int
    name: str
    ready: bool


@dataclass
class NextHand:
    seats: list[ReadySeat]
    mine_ready: bool  # the viewer's seat is ready (their button waits); False for a spectator
    deadline: datetime | None  # when the clock deals whoever has not pressed (None: not scheduled)


def next_hand_view(
    table: Table, seats: list[Seat], views: list, viewer: int | None, now: datetime
) -> NextHand:
    """Each seat's readiness for the next hand (`seats`: the table's seats in index order; `views`:
    their `SeatView`s, for the names shown)."""
    rows = [
        ReadySeat(index=seat.index, name=view.name, ready=counts_ready(seat))
        for seat, view in zip(seats, views, strict=True)
    ]
    deadline = (
        table.deadline
        if table.status == Table.Status.PLAYING and table.deadline and table.deadline > now
        else None
    )
    return NextHand(seats=rows, mine_ready=viewer is not None and rows[viewer].ready, deadline=deadline)
