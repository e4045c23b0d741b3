"""Playing through the services: whole hands, refusals, timeouts, restarts."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from games import services
from games.engine.actions import Action as EngineAction
from games.engine.state import GameState
from games.models import Action, Hand, Table
from games.services import ServiceError
from games.services.commands import Move

from .helpers import advance_to_seat_zero, later, play_until_ended, put_state, replay_hand, state_of

pytestmark = pytest.mark.django_db


def test_whole_hand_one_human_three_bots(bot_table, alice):
    state = play_until_ended(bot_table, {0: alice})
    bot_table.refresh_from_db()
    hand = Hand.objects.get(match__table=bot_table)
    assert hand.result is not None and hand.ended is not None
    assert hand.result == state.result.to_json()
    # The log is contiguous, versions strictly increase, and replaying it reproduces the result.
    rows = list(hand.actions.order_by("seq"))
    assert [a.seq for a in rows] == list(range(1, len(rows) + 1))
    versions = [a.version for a in rows]
    assert versions == sorted(set(versions)) and versions[-1] == bot_table.version
    assert replay_hand(hand).result.to_json() == hand.result
    # Scores carry the payments; dealer and 荒番 are carried to the next hand.
    assert bot_table.scores == hand.result["payments"]
    assert sum(bot_table.scores) == 0
    assert bot_table.dealer == hand.result["dealer_next"]
    assert bot_table.huangfan == hand.result["huangfan_next"]
    # The clock deals the next hand the room's ready timeout after this one ended, if not pressed.
    assert bot_table.deadline == hand.ended + timedelta(seconds=bot_table.room.ready_timeout)
    # Human moves are not marked as the clock's; bot moves are.
    assert all(not a.by_clock for a in rows if a.seat == 0)
    assert all(a.by_clock for a in rows if a.seat != 0)


def test_next_hand_carries_dealer_and_huangfan(bot_table, alice):
    play_until_ended(bot_table, {0: alice})
    bot_table.refresh_from_db()
    with pytest.raises(ServiceError):
        services.table_act(
            table_id=bot_table.pk, user=alice, action=Move.parse("0:pass"), version=bot_table.version
        )
    services.table_next_hand(table_id=bot_table.pk, user=alice)
    bot_table.refresh_from_db()
    hands = list(Hand.objects.filter(match__table=bot_table).order_by("number"))
    assert [h.number for h in hands] == [1, 2]
    assert hands[1].dealer == hands[0].result["dealer_next"]
    assert hands[1].huangfan == hands[0].result["huangfan_next"]
    state = state_of(bot_table)
    assert state.phase != "ended" and state.dealer == hands[1].dealer
    with pytest.raises(ServiceError) as err:
        services.table_next_hand(table_id=bot_table.pk, user=alice)
    assert err.value.code == "hand_in_progress"


def test_stale_version_refused_and_nothing_changes(bot_table, alice):
    state = advance_to_seat_zero(bot_table)
    before = (bot_table.version, bot_table.state, Action.objects.count())
    move = str(state.legal_actions(0)[0])
    with pytest.raises(ServiceError) as err:
        services.table_act(
            table_id=bot_table.pk, user=alice, action=Move.parse(move), version=bot_table.version - 1
        )
    assert err.value.code == "stale_version"
    bot_table.refresh_from_db()
    assert (bot_table.version, bot_table.state, Action.objects.count()) == before
    # The same move with the current version is accepted, and replaying it with the old one is refused.
    services.table_act(table_id=bot_table.pk, user=alice, action=Move.parse(move), version=before[0])
    with pytest.raises(ServiceError) as err:
        services.table_act(table_id=bot_table.pk, user=alice, action=Move.parse(move), version=before[0])
    assert err.value.code in {"stale_version", "not_your_turn", "claim_window_closed", "tile_not_in_hand"}


def test_action_for_another_seat_refused(bot_table, alice, bob):
    state = advance_to_seat_zero(bot_table)
    version = bot_table.version
    with pytest.raises(ServiceError) as err:
        services.table_act(table_id=bot_table.pk, user=alice, action=Move.parse("1:pass"), version=version)
    assert err.value.code == "not_your_seat"
    with pytest.raises(ServiceError) as err:  # bob is not seated at all
        services.table_act(
            table_id=bot_table.pk, user=bob, action=Move.of(state.legal_actions(0)[0]), version=version
        )
    assert err.value.code == "not_seated"
    bot_table.refresh_from_db()
    assert bot_table.version == version


def test_a_form_move_is_played_for_the_senders_own_seat(bot_table, alice):
    """A form's fields name no seat: the service plays them for the sender's seat."""
    state = advance_to_seat_zero(bot_table)
    move = state.timeout_action(0)
    before = len(state.actions)
    services.table_act(
        table_id=bot_table.pk, user=alice, action=Move(move.kind, move.tile), version=bot_table.version
    )
    assert state_of(bot_table).actions[before] == move


def test_tile_not_held_is_refused_with_engine_code(bot_table, alice):
    state = advance_to_seat_zero(bot_table)
    while state.phase != "turn":  # answer claim offers until it is alice's own turn
        move = str(state.timeout_action(0))
        services.table_act(
            table_id=bot_table.pk, user=alice, action=Move.parse(move), version=bot_table.version
        )
        state = advance_to_seat_zero(bot_table)
    held = set(state.view(0)["hand"]) | {state.view(0)["drawn"]}
    missing = next(
        f"{r}{s}" for s in "mpsz" for r in range(1, 10 if s != "z" else 8) if f"{r}{s}" not in held
    )
    with pytest.raises(ServiceError) as err:
        services.table_act(
            table_id=bot_table.pk,
            user=alice,
            action=Move.parse(f"0:discard:{missing}"),
            version=bot_table.version,
        )
    assert err.value.code == "tile_not_in_hand"


def test_state_resumes_after_reload(bot_table, alice):
    """A restart loses nothing: the hand continues from the stored row alone."""
    advance_to_seat_zero(bot_table)
    stored = Table.objects.get(pk=bot_table.pk)  # a fresh read, as a new process would do
    state = state_of(stored)
    assert [str(a) for a in state.actions] == list(
        Action.objects.filter(hand__match__table=stored).order_by("seq").values_list("action", flat=True)
    )
    play_until_ended(stored, {0: alice})
    hand = Hand.objects.get(match__table=stored)
    assert replay_hand(hand).result.to_json() == hand.result


def test_human_timeout_fires_once_through_the_clock(bot_table, alice):
    state = advance_to_seat_zero(bot_table)
    bot_table.refresh_from_db()
    assert bot_table.turn_deadline is not None
    expected = str(state.timeout_action(0))
    count = Action.objects.count()
    # Before the deadline nothing happens for the human.
    assert (
        services.clock_tick(now=bot_table.turn_deadline - (bot_table.turn_deadline - timezone.now()) / 2) == 0
    )
    assert Action.objects.count() == count
    services.clock_tick(now=bot_table.turn_deadline)
    first = Action.objects.order_by("id")[count]
    assert (first.action, first.by_clock) == (expected, True)
    assert Action.objects.filter(seat=0, hand__match__table=bot_table).count() == 1


def test_bot_waits_for_its_think_delay(room, alice):
    room.bot_delay = Decimal("5")
    room.save()
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_fill_bots(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    state = state_of(table)
    if 0 in state.pending_seats():
        services.table_act(
            table_id=table.pk, user=alice, action=Move.of(state.timeout_action(0)), version=table.version
        )
        table.refresh_from_db()
    count = Action.objects.count()
    assert services.clock_tick(now=later(1)) == 0
    assert Action.objects.count() == count
    assert services.clock_tick(now=later(6)) >= 1


def test_stand_during_hand_hands_seat_to_a_bot(bot_table, alice):
    services.table_stand(table_id=bot_table.pk, user=alice)
    bot_table.refresh_from_db()
    seat = bot_table.seats.get(index=0)
    assert seat.is_bot and seat.user is None and bot_table.huangfan == 0
    for _ in range(3000):
        if state_of(bot_table).phase == "ended":
            break
        services.clock_tick(now=timezone.now())
    assert state_of(bot_table).phase == "ended"


def test_next_hand_with_an_old_version_is_refused(bot_table, alice):
    play_until_ended(bot_table, {0: alice})
    bot_table.refresh_from_db()
    with pytest.raises(ServiceError) as err:
        services.table_next_hand(table_id=bot_table.pk, user=alice, version=bot_table.version - 1)
    assert err.value.code == "stale_version"
    assert Hand.objects.filter(match__table=bot_table).count() == 1
    services.table_next_hand(table_id=bot_table.pk, user=alice, version=str(bot_table.version))
    assert Hand.objects.filter(match__table=bot_table).count() == 2


def _open_claim_window(table, alice):
    """Seat 3 (a bot, dealing) has discarded 5m: seat 1 (a bot) may pong it, alice in seat 0 may chow it."""
    state = GameState.from_setup(
        hands=["46m2468p2468s123z", "55m2357p2357s367z", "1112345678999s", "159m159p159s1234z5z"],
        wall="3m7m8p6z",
        dealer=3,
    )
    state.apply(EngineAction.parse("3:discard:5m"))
    put_state(table, state)
    return table.version


def test_a_claim_made_on_the_window_still_counts_after_another_seat_answered(bot_table, alice):
    seen = _open_claim_window(bot_table, alice)
    services.clock_tick(now=timezone.now())  # the bot in seat 1 answers first
    bot_table.refresh_from_db()
    assert bot_table.version > seen
    assert state_of(bot_table).legal_actions(0), "alice is still asked"
    services.table_act(table_id=bot_table.pk, user=alice, action=Move.parse("0:pass"), version=seen)
    rows = list(Hand.objects.get(match__table=bot_table).actions.values_list("action", flat=True))
    assert "0:pass" in rows


def test_a_click_from_before_the_window_opened_is_stale(bot_table, alice):
    seen = _open_claim_window(bot_table, alice)
    before = Action.objects.count()
    with pytest.raises(ServiceError) as err:
        services.table_act(table_id=bot_table.pk, user=alice, action=Move.parse("0:pass"), version=seen - 1)
    assert err.value.code == "stale_version"
    assert Action.objects.count() == before
