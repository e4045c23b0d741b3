"""The table screen's view models (issue 13): melds turned toward their source, 听牌 with the copies
still unseen, and the settlement panel."""

from __future__ import annotations

from games.engine.bots import get_bot
from games.engine.kinds import MeldKind, Phase
from games.engine.state import GameState
from games.engine.tiles import code_to_str
from games.engine.view import Discard, HandView, MeldFace, PublicView, SeatPublic
from games.presentation import rendering, viewmodels
from games.presentation.settlement import settlement_panel


def test_the_claimed_tile_lies_at_the_side_of_the_seat_it_came_from():
    def turned_at(owner: int, source: int) -> int:
        meld = viewmodels.MeldView("pong", ["5p", "5p", "5p"], "5p", source, 0, owner)
        return [mark for _, mark in meld.tile_items].index("turned")

    assert turned_at(owner=0, source=3) == 0  # 上家: left
    assert turned_at(owner=0, source=2) == 1  # 对家: middle
    assert turned_at(owner=0, source=1) == 2  # 下家: right
    assert turned_at(owner=2, source=1) == 0  # seat 1 is seat 2's 上家


def test_tenpai_counts_the_copies_the_viewer_has_not_seen():
    def seat(index: int, river=(), melds=()) -> SeatPublic:
        return SeatPublic(index, "1z", (), tuple(melds), tuple(river), 13)

    public = PublicView(
        phase=Phase.TURN,
        current_seat=0,
        dealer=0,
        dice=(1, 1),
        huangfan=0,
        stake=1,
        wall_remaining=50,
        last_discard=None,
        claim_tile=None,
        commitment="",
        seats=(
            seat(0),
            seat(1, river=[Discard("4m", False), Discard("1m", True)]),
            seat(2, melds=[MeldFace(MeldKind.CHOW, ("1m", "2m", "3m"))]),
            seat(3, melds=[MeldFace(MeldKind.KONG_CONCEALED, face_down=4)]),
        ),
        turn_pending=(0,),
    )
    view = HandView(
        seat=0,
        public=public,
        pending=(0,),
        hand=("1m", "1m", "2m", "3m"),
        waits=("1m", "4m"),
        own_melds=(MeldFace(MeldKind.PONG, ("4p", "4p", "4p")),),
    )
    # 1m: two in hand, one in seat 2's chow (the claimed river 1m is that same tile); 4m: one river.
    assert rendering._tenpai(view, 0) == [("1m", 1), ("4m", 3)]
    assert rendering._tenpai(view, None) == []


def _finished(win: bool) -> GameState:
    for n in range(1, 200):
        state = GameState.new(seed=f"{n:064x}")
        while state.phase != "ended":
            seat = state.pending_seats()[0]
            state.apply(get_bot("easy").choose(state, seat))
        if (state.result.kind == "win") == win:
            return state
    raise AssertionError("no such hand")


def _seats(state: GameState) -> list:
    public = state.public_view()
    return [
        viewmodels.SeatView(
            data.seat, "bottom", f"P{data.seat}", False, False, True, **viewmodels.public_seat(public, data)
        )
        for data in public.seats
    ]


def test_the_settlement_panel_lays_down_every_hand_and_explains_the_win():
    state = _finished(win=True)
    panel = settlement_panel(state, _seats(state), [5, -5, 0, 0])
    winner = state.result.contexts[0]
    row = panel.hands[winner.winner]
    assert panel.kind == "win" and row.winning_tile is not None
    for h in panel.hands:  # every concealed tile laid down; the winner's winning tile set apart
        held = [code_to_str(c) for c in state.hands[h.index]]
        if h.index == winner.winner:
            held = [code_to_str(c) for c in winner.concealed]
        assert sorted(h.concealed) == sorted(held)
    assert _shown(row) == 14 + sum(m.kind.startswith("kong") for m in row.melds)
    assert 'data-testid="explanation"' in panel.explanation
    assert panel.explanation.count("data-payment=") == 4
    assert [h.payment for h in panel.hands] == list(state.result.payments)
    assert [h.total for h in panel.hands] == [5, -5, 0, 0]
    assert panel.dealer_next == f"P{state.result.dealer_next}"


def test_a_drawn_hand_has_no_explanation_and_raises_huangfan():
    state = _finished(win=False)
    panel = settlement_panel(state, _seats(state), [0, 0, 0, 0])
    assert panel.kind == "draw" and panel.explanation == ""
    assert panel.huangfan_next == panel.huangfan + 1
    assert all(h.winning_tile is None for h in panel.hands)


def _shown(row) -> int:
    """How many tiles a laid-down row shows: concealed, the winning tile set apart, and the melds'."""
    return len(row.concealed) + (row.winning_tile is not None) + sum(len(m.tiles) for m in row.melds)


def test_a_discard_win_on_a_tile_the_winner_already_held_shows_all_fourteen_tiles():
    """Issue 24 §7: the winning discard is not in the winner's concealed tiles, so only the winner's
    own copies are laid down (three 9p), with the discarded 9p set apart: 13 + 1 tiles."""
    state = GameState.from_setup(
        hands=["1112345678999m9p", "1112345678999p", "147s258s369s1234z", "147s258s369s567z1z"],
        wall="2s3s4s5s6s",
        dealer=0,
    )
    state.apply(next(a for a in state.legal_actions(0) if str(a) == "0:discard:9p"))
    state.apply(next(a for a in state.legal_actions(1) if str(a) == "1:win:9p"))
    assert state.phase == "ended" and state.result.contexts[0].win == "discard"
    row = settlement_panel(state, _seats(state), [0, 0, 0, 0]).hands[1]
    assert row.winning_tile == "9p"
    assert sorted(row.concealed) == sorted(f"{n}p" for n in "1112345678999")
    assert _shown(row) == 14


def test_a_planned_tables_panel_names_the_plans_dealer_not_the_rules():
    state = _finished(win=True)
    planned = (state.result.dealer_next + 2) % 4
    panel = settlement_panel(state, _seats(state), [0, 0, 0, 0], planned=True, planned_dealer=planned)
    assert panel.dealer_next == f"P{planned}"
    last = settlement_panel(state, _seats(state), [0, 0, 0, 0], planned=True, planned_dealer=None)
    assert last.dealer_next == ""
