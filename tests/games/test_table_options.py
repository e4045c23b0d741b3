"""The house options at the live table (rules §10–§11): 换牌, 敲 and 逛花园, through the services a
browser's commands reach and the frames it is sent.

换牌: a person buries five tiles at once in the 15 s window after the deal, or skips; a bad choice
changes nothing. 敲: a discard that leaves the hand ready may be declared; a declared seat is shown to
everyone, only it is offered 胡, it may not claim, and its non-winning draw is discarded by the clock
after a short pause. 逛花园: each seat's chip stack is shown; payments are what the stacks cover; the
garden's end ends the match and the next deal starts a new one.
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import partial

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from games import services, store
from games.engine import garden as engine_garden
from games.engine.actions import Action as EngineAction
from games.engine.rules import Rules
from games.engine.state import GameState
from games.engine.tiles import code_to_str
from games.models import Action, Hand, Match, Seat, Table
from games.presentation import rendering
from games.services import ServiceError
from games.services.commands import Move
from games.services.house_options import DECLARED_DISCARD_PAUSE, SWAP_WINDOW_SECONDS
from history.models import HandRecord
from ledger.models import Journal

from .helpers import deal_in_and_win, press_next_hand_for_all, put_state, started_table, state_of


@pytest.fixture(autouse=True)
def _fresh_render_cache():
    """Tests here rig the same hands at tables with the same ids: a version this process rendered for
    an earlier test's table must not stand in for this one's."""
    store.forget_all()


def options_room(room, **options) -> None:
    room.rules_options = options
    room.save(update_fields=["rules_options"])


@pytest.fixture
def swap_table(room, alice):
    """alice in seat 0 and three bots, dealt into the 换牌 window."""
    options_room(room, swap_tiles=True, declare_ready=True)
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_fill_bots(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table


def frame(table: Table, user) -> str:
    return rendering.render_table_fragments(table.pk, user)[1]


def region(html: str, name: str) -> str:
    start = html.index(f'<section id="{name}"')
    return html[start : html.index("</section>", start)]


def refused(code: str, call) -> None:
    with pytest.raises(ServiceError) as caught:
        call()
    assert caught.value.code == code


def unchanged(table: Table, call, code: str) -> None:
    """`call` is refused with `code`, and the table, its hand and its log are as they were."""
    table.refresh_from_db()
    before = (table.version, table.state, Action.objects.filter(hand_id=table.hand_id).count())
    refused(code, call)
    table.refresh_from_db()
    assert (table.version, table.state, Action.objects.filter(hand_id=table.hand_id).count()) == before


# --- 换牌 ----------------------------------------------------------------------------------------


def own_tiles(table: Table, seat: int = 0) -> list[str]:
    return [code_to_str(c) for c in state_of(table).hands[seat]]


def test_the_swap_window_lasts_fifteen_seconds_and_five_tiles_are_buried_at_once(swap_table, alice):
    state = state_of(swap_table)
    assert state.phase == "swap" and SWAP_WINDOW_SECONDS == 15
    assert swap_table.turn_deadline - swap_table.changed == timedelta(seconds=15)
    hand = own_tiles(swap_table)
    chosen = hand[:5]
    services.table_swap(
        table_id=swap_table.pk, user=alice, tiles=" ".join(chosen), version=swap_table.version
    )
    state = state_of(swap_table)
    assert sorted(code_to_str(t) for t in state.buried[0]) == sorted(chosen)
    assert len(state.hands[0]) == len(hand)  # five buried, five drawn
    assert state.legal_actions(0) == []  # done
    log = list(Action.objects.filter(hand_id=swap_table.hand_id).values_list("action", flat=True))
    assert sorted(log) == sorted(f"0:bury:{t}" for t in chosen)
    services.clock_tick(now=swap_table.changed + timedelta(seconds=1))  # the bots skip (and play on)
    assert state_of(swap_table).phase != "swap"


def test_a_swap_chosen_on_an_earlier_frame_of_the_window_is_still_current(swap_table, alice):
    dealt = swap_table.version
    services.clock_tick(now=swap_table.changed + timedelta(seconds=1))  # the three bots skip
    swap_table.refresh_from_db()
    assert swap_table.version == dealt + 3
    hand = own_tiles(swap_table)
    services.table_swap(table_id=swap_table.pk, user=alice, tiles=hand[-5:], version=dealt)
    state = state_of(swap_table)
    assert state.phase == "turn" and sorted(code_to_str(t) for t in state.buried[0]) == sorted(hand[-5:])


def test_skipping_the_swap(swap_table, alice):
    services.table_act(
        table_id=swap_table.pk, user=alice, action=Move.parse("0:skip"), version=swap_table.version
    )
    state = state_of(swap_table)
    assert state._swap_done[0] and not state.buried[0]


def test_bad_swaps_are_refused_and_change_nothing(swap_table, alice):
    v = swap_table.version
    hand = own_tiles(swap_table)

    def swap(tiles, version=v):
        return lambda: services.table_swap(table_id=swap_table.pk, user=alice, tiles=tiles, version=version)

    unchanged(swap_table, swap(hand[:4]), "bad_swap")
    unchanged(swap_table, swap(hand[:6]), "bad_swap")
    unchanged(swap_table, swap("xx yy zz 1m 2m"), "bad_swap")
    unchanged(swap_table, swap([1, 2, 3, 4, 5]), "bad_swap")
    absent = next(code_to_str(c) for c in range(34) if code_to_str(c) not in hand)
    unchanged(swap_table, swap([*hand[:4], absent]), "tile_not_in_hand")
    single = next(t for t in hand if hand.count(t) == 1)
    unchanged(swap_table, swap([single] * 2 + [t for t in hand if t != single][:3]), "tile_not_in_hand")
    unchanged(swap_table, swap(hand[:5], version=v + 1), "stale_version")
    unchanged(swap_table, swap(hand[:5], version=v - 1), "stale_version")
    bury_one = partial(
        services.table_act,
        table_id=swap_table.pk,
        user=alice,
        action=Move.parse(f"0:bury:{hand[0]}"),
        version=v,
    )
    unchanged(swap_table, bury_one, "bad_swap")
    services.table_swap(table_id=swap_table.pk, user=alice, tiles=hand[:5], version=v)
    swap_table.refresh_from_db()
    unchanged(swap_table, swap(own_tiles(swap_table)[:5], version=swap_table.version), "already_answered")


def test_outside_the_window_a_swap_is_refused(swap_table, alice):
    services.table_act(
        table_id=swap_table.pk, user=alice, action=Move.parse("0:skip"), version=swap_table.version
    )
    services.clock_tick(now=swap_table.changed + timedelta(seconds=1))
    swap_table.refresh_from_db()
    assert state_of(swap_table).phase != "swap"  # the bots skipped and play on until alice must act
    hand = own_tiles(swap_table)
    swap = partial(
        services.table_swap, table_id=swap_table.pk, user=alice, tiles=hand[:5], version=swap_table.version
    )
    unchanged(swap_table, swap, "swap_closed")
    skip = partial(
        services.table_act,
        table_id=swap_table.pk,
        user=alice,
        action=Move.parse("0:skip"),
        version=swap_table.version,
    )
    unchanged(swap_table, skip, "swap_closed")


def test_a_person_who_lets_the_window_pass_skips_and_it_is_not_a_timeout(swap_table, alice):
    services.clock_tick(now=swap_table.changed + timedelta(seconds=SWAP_WINDOW_SECONDS - 1))
    assert state_of(swap_table).phase == "swap"  # the bots skipped; alice still has time
    services.clock_tick(now=swap_table.changed + timedelta(seconds=SWAP_WINDOW_SECONDS + 1))
    state = state_of(swap_table)
    assert state.phase != "swap" and not state.buried[0]
    assert Seat.objects.get(table=swap_table, index=0).timeouts == 0


def test_the_swap_screen_is_the_seats_own_and_progress_is_public(swap_table, alice, bob):
    mine = frame(swap_table, alice)
    controls = region(mine, "controls")
    hand = own_tiles(swap_table)
    assert 'data-prompt="swap"' in controls and 'data-testid="swap-form"' in controls
    assert controls.count('data-testid="swap-tile"') == len(hand)
    assert sorted(re.findall(r'data-choice="(\w+)"', controls)) == sorted(hand)
    assert re.search(r'<button type="submit" class="primary" data-testid="swap-confirm" disabled>', controls)
    assert "已选 <b data-swap-chosen>0</b>/5" in controls and 'data-testid="swap-skip"' in controls
    assert 'data-total="15"' in region(mine, "board")  # the window's countdown
    for viewer in (bob, AnonymousUser()):
        html = frame(swap_table, viewer)
        assert "swap-form" not in html and "data-choice" not in html
        assert re.findall(r'data-swap="(\w+)"', region(html, "board")) == ["waiting"] * 4

    services.table_swap(table_id=swap_table.pk, user=alice, tiles=hand[:5], version=swap_table.version)
    buried = hand[:5]
    mine = region(frame(swap_table, alice), "controls")
    assert "swap-form" not in mine and 'data-zone="buried"' in mine
    shown = re.search(r'data-zone="buried">(.*?)</p>', mine).group(1)
    assert sorted(re.findall(r'data-tile="(\w+)"', shown)) == sorted(buried)
    seat_zero = re.compile(r'data-seat="0">.*?data-swap="(\w+)"', re.S)
    assert seat_zero.search(region(frame(swap_table, bob), "board")).group(1) == "done"


# --- 敲 ------------------------------------------------------------------------------------------

NINE_GATES_M = "1112345678999m"  # waits on every m tile
SEAT1 = "147p147s258p258s5z"
SEAT2 = "1369p369s1234z67z"
SEAT3 = "2468p2468s1234z7z"


def declare_table(room, alice, *, wall: str) -> Table:
    options_room(room, declare_ready=True)
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_fill_bots(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    state = GameState.from_setup(
        hands=[NINE_GATES_M + "5z", SEAT1, SEAT2, SEAT3], wall=wall, dealer=0, rules=Rules(declare_ready=True)
    )
    put_state(table, state)
    table.refresh_from_db()
    return table


def after_each_other_seat_discards(table: Table, alice, draws: int = 3) -> GameState:
    """alice declares on 5z; the next `draws` seats discard what they draw (engine moves, rigged)."""
    services.table_act(
        table_id=table.pk, user=alice, action=Move.parse("0:declare:5z"), version=table.version
    )
    state = state_of(table)
    for _ in range(draws):
        seat = state.current_seat
        state.apply(EngineAction.of("discard", seat, state.drawn_tile))
    put_state(table, state)
    table.refresh_from_db()
    return state


def test_only_a_discard_that_leaves_the_hand_ready_may_be_declared(room, alice, bob):
    table = declare_table(room, alice, wall="7s8p9s9p5p5s")
    html = region(frame(table, alice), "controls")
    assert re.findall(r'value="0:declare:(\w+)"', html) == ["5z", "8m", "5m", "2m"]  # shown in reverse

    def declare(tile):
        return partial(
            services.table_act,
            table_id=table.pk,
            user=alice,
            action=Move.parse(f"0:declare:{tile}"),
            version=table.version,
        )

    unchanged(table, declare("1m"), "declare_not_ready")  # 112345678999m5z waits on nothing
    services.table_act(
        table_id=table.pk, user=alice, action=Move.parse("0:declare:5z"), version=table.version
    )
    state = state_of(table)
    assert state.declared[0] and code_to_str(state.rivers[0][-1].tile) == "5z"
    for viewer in (alice, bob, AnonymousUser()):
        board = region(frame(table, viewer), "board")
        assert re.search(r'data-seat="0">.*?data-testid="declared"', board, re.S)
        assert board.count('data-testid="declared"') == 1


def test_an_undeclared_seat_is_not_offered_a_win_on_a_complete_hand(room, alice):
    table = declare_table(room, alice, wall="7s8p9s9p5p5s")
    state = GameState.from_setup(
        hands=["11123456789999m", SEAT1, SEAT2, SEAT3],
        wall="7s8p9s9p5p5s",
        dealer=0,
        rules=Rules(declare_ready=True),
    )
    put_state(table, state)
    html = region(frame(table, alice), "controls")
    assert "choice-self_win" not in html and "choice-declare" in html
    self_win = partial(
        services.table_act,
        table_id=table.pk,
        user=alice,
        action=Move.parse("0:self_win"),
        version=table.version,
    )
    unchanged(table, self_win, "not_a_win")


def test_a_declared_seats_drawn_tile_is_discarded_after_a_pause_not_as_a_timeout(room, alice):
    table = declare_table(room, alice, wall="7s8p9s9p5p5s")
    state = after_each_other_seat_discards(table, alice)
    assert state.current_seat == 0 and code_to_str(state.drawn_tile) == "9p"
    html = region(frame(table, alice), "controls")
    assert "choice-" not in html.replace("choice-form", "").replace("cancel-autoplay", "")
    assert services.clock_tick(now=table.changed + DECLARED_DISCARD_PAUSE / 2) == 0
    assert state_of(table).current_seat == 0
    assert services.clock_tick(now=table.changed + DECLARED_DISCARD_PAUSE) >= 1
    state = state_of(table)
    assert code_to_str(state.rivers[0][-1].tile) == "9p"
    assert Seat.objects.get(table=table, index=0).timeouts == 0


def test_a_declared_seats_winning_draw_waits_for_the_turn_timer_and_then_is_a_timeout(room, alice):
    """Rules §11: a drawn tile that would win is offered under the normal turn timer, not discarded
    after the pause; its timeout discards it, counts as a timeout, and leaves the seat in 漏胡."""
    table = declare_table(room, alice, wall="7s8p9s3m5p5s")
    state = after_each_other_seat_discards(table, alice)
    assert state.current_seat == 0 and code_to_str(state.drawn_tile) == "3m"
    assert services.clock_tick(now=table.changed + DECLARED_DISCARD_PAUSE) == 0
    assert state_of(table).rivers[0][-1].tile != state.drawn_tile
    table.refresh_from_db()
    assert services.clock_tick(now=table.turn_deadline) >= 1
    state = state_of(table)
    assert code_to_str(state.rivers[0][-1].tile) == "3m"
    assert [code_to_str(t) for t in state.missed[0]] == ["3m"]
    assert Seat.objects.get(table=table, index=0).timeouts == 1


def test_a_declared_seat_is_offered_a_win_but_may_not_claim(room, alice):
    table = declare_table(room, alice, wall="7s8p9m9p5p5s")
    state = after_each_other_seat_discards(table, alice)  # seat 3 discards 9m: alice may win on it
    assert state.phase == "claims" and [a.kind for a in state.legal_actions(0)] == ["win", "pass"]
    html = region(frame(table, alice), "controls")
    assert "choice-win" in html and "choice-pong" not in html and "choice-exposed_kong" not in html
    pong = partial(
        services.table_act,
        table_id=table.pk,
        user=alice,
        action=Move.parse("0:pong:9m"),
        version=table.version,
    )
    unchanged(table, pong, "declared_no_melds")
    services.table_act(table_id=table.pk, user=alice, action=Move.parse("0:win:9m"), version=table.version)
    assert state_of(table).phase == "ended"


# --- 逛花园 --------------------------------------------------------------------------------------

BOB_NINE_GATES_P = "1112345678999p"  # waits on every p tile
ALICE_DEALS_IN = NINE_GATES_M + "5p"
OTHERS = ["147s258s369s1234z", "147s258s369s567z1z"]


@pytest.fixture
def garden_table(room, alice, bob):
    """alice (seat 0) and bob (seat 1) with two bots; each starts with a stack of 1 point."""
    options_room(room, garden=1)
    return started_table(room, alice, bob)


def deal_bob_a_win(table: Table, alice, bob) -> None:
    table.refresh_from_db()
    state = GameState.from_setup(
        hands=[ALICE_DEALS_IN, BOB_NINE_GATES_P, *OTHERS], wall="2s3s4s5s6s", dealer=0, rules=Rules(garden=1)
    )
    deal_in_and_win(table, state, alice, bob)


def test_chips_are_shown_and_a_hand_pays_only_what_the_stacks_cover(garden_table, alice, bob):
    board = region(frame(garden_table, AnonymousUser()), "board")
    assert re.findall(r'data-chips="(-?\d+)"', board) == ["1"] * 4
    deal_bob_a_win(garden_table, alice, bob)
    hand = Hand.objects.get(pk=garden_table.hand_id)
    owed = hand.result["payments"]
    assert owed[0] < -1 and owed[1] > 1  # the engine's payments are more than the stacks hold
    paid = hand.result["garden"]["paid"]
    assert paid == [-1, 1, 0, 0] and hand.result["garden"]["stacks"] == [0, 2, 1, 1]
    assert garden_table.scores == paid
    assert sorted(HandRecord.objects.filter(hand=hand).values_list("seat", "payment")) == list(
        enumerate(paid)
    )
    entries = Journal.objects.get(kind=Journal.Kind.HAND, hand=hand).entries.values_list("seat", "amount")
    assert {seat: int(amount) for seat, amount in entries if amount} == {0: -1, 1: 1}  # the ledger too
    assert not hand.result["garden"]["over"] and Match.objects.get(pk=hand.match_id).ended is None
    board = region(frame(garden_table, alice), "board")
    assert re.findall(r'data-seat="(\d)">.*?data-chips="(-?\d+)"', board, re.S)
    chips = dict(re.findall(r'data-seat="(\d)">.*?data-chips="(-?\d+)"', board, re.S))
    assert chips == {"0": "0", "1": "2", "2": "1", "3": "1"}
    assert 'data-testid="garden-over"' not in frame(garden_table, alice)


def test_the_gardens_end_ends_the_match_and_the_next_deal_starts_a_new_one(
    garden_table, alice, bob, monkeypatch, client_for
):
    monkeypatch.setattr(engine_garden, "DEALER_CHANGES_PER_MATCH", 1)  # one change of dealer ends it
    deal_bob_a_win(garden_table, alice, bob)
    hand = Hand.objects.get(pk=garden_table.hand_id)
    assert hand.result["garden"]["over"] and Match.objects.get(pk=hand.match_id).ended is not None
    for viewer in (alice, AnonymousUser()):
        assert 'data-testid="garden-over"' in region(frame(garden_table, viewer), "settlement")
    page = client_for(alice).get(f"/history/matches/{hand.match_id}/").content.decode()
    assert re.findall(r'data-chips="(-?\d+)"', page) == ["0", "2", "1", "1"]
    assert "-1" in page and 'data-testid="garden-over"' in page  # what was paid, and the end
    press_next_hand_for_all(garden_table.pk)
    garden_table.refresh_from_db()
    new_hand = Hand.objects.get(pk=garden_table.hand_id)
    assert new_hand.match_id != hand.match_id and new_hand.number == 1
    assert garden_table.scores == [0, 0, 0, 0] and garden_table.dealer == 1
    assert re.findall(r'data-chips="(-?\d+)"', region(frame(garden_table, bob), "board")) == ["1"] * 4


def test_the_new_words_follow_the_language(swap_table, alice):
    with translation.override("en"):
        controls = region(frame(swap_table, alice), "controls")
    assert "Chosen <b data-swap-chosen>0</b>/5" in controls and "No swap" in controls
    assert "已选" not in controls and "不换牌" not in controls
