"""Rules §10 through the services: leaving and disconnecting during a hand, 托管 after two timeouts."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import timezone

from games import services
from games.models import Action, Seat, Table
from games.services import ServiceError
from games.services.commands import Move
from ledger.models import Account, Journal, Penalty
from ledger.services import balance_of, journal_total

from .helpers import advance_to_seat_zero, play_until_ended, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def slow_timers(room):
    """Turn timers far longer than the grace period, so only the grace period can fire (list this
    fixture before `bot_table` so the first hand is dealt with them)."""
    room.discard_timeout = 600
    room.claim_timeout = 600
    room.save()
    return room


def alice_seat(table) -> Seat:
    return table.seats.get(index=0)


def set_bot_delay(room, seconds: int) -> None:
    room.bot_delay = Decimal(seconds)
    room.save(update_fields=["bot_delay"])


def test_leaving_during_a_hand_is_penalised_at_once(bot_table, alice):
    Table.objects.filter(pk=bot_table.pk).update(huangfan=2)
    services.table_stand(table_id=bot_table.pk, user=alice)
    bot_table.refresh_from_db()
    penalty = Penalty.objects.get()
    assert (penalty.user, penalty.kind, penalty.seat, penalty.amount) == (alice, "leave", 0, Decimal("2.00"))
    journal = penalty.journals.get()
    assert journal_total(journal) == 0
    assert balance_of(alice) == Decimal("-2.00")
    assert balance_of(Account.objects.get(kind="bots")) == Decimal("1.50")  # three bot seats, 25 % each
    assert balance_of(Account.objects.get(kind="house")) == Decimal("0.50")
    seat = alice_seat(bot_table)
    assert seat.is_bot and seat.user is None
    assert bot_table.huangfan == 0  # 荒番 resets when someone leaves


def test_leaving_between_hands_costs_nothing(bot_table, alice):
    play_until_ended(bot_table, {0: alice})
    services.table_stand(table_id=bot_table.pk, user=alice)
    assert not Penalty.objects.exists()


def test_coming_back_within_the_grace_period_costs_nothing(slow_timers, bot_table, alice):
    advance_to_seat_zero(bot_table)
    t0 = timezone.now()
    services.seat_disconnected(table_id=bot_table.pk, user=alice, now=t0)
    bot_table.refresh_from_db()
    assert alice_seat(bot_table).away_since == t0
    assert bot_table.deadline <= t0 + timedelta(seconds=slow_timers.grace_period)
    services.seat_connected(table_id=bot_table.pk, user=alice)
    services.clock_tick(now=t0 + timedelta(seconds=slow_timers.grace_period + 1))
    seat = alice_seat(bot_table)
    assert not Penalty.objects.exists()
    assert seat.connected and seat.away_since is None and not seat.autoplay


def test_past_the_grace_period_penalty_and_autoplay_until_return(slow_timers, bot_table, alice):
    advance_to_seat_zero(bot_table)
    Table.objects.filter(pk=bot_table.pk).update(huangfan=1)
    set_bot_delay(slow_timers, 900)  # nothing but the grace period is due below
    t0 = timezone.now()
    services.seat_disconnected(table_id=bot_table.pk, user=alice, now=t0)
    services.clock_tick(now=t0 + timedelta(seconds=slow_timers.grace_period - 1))
    assert not Penalty.objects.exists()
    bot_table.refresh_from_db()
    version = bot_table.version
    services.clock_tick(now=t0 + timedelta(seconds=slow_timers.grace_period + 1))
    bot_table.refresh_from_db()
    penalty = Penalty.objects.get()
    assert (penalty.user, penalty.kind, penalty.amount) == (alice, "disconnect", Decimal("2.00"))
    assert journal_total(penalty.journals.get(kind=Journal.Kind.PENALTY)) == 0
    seat = alice_seat(bot_table)
    assert seat.autoplay and seat.autoplay_reason == "away" and seat.user == alice
    assert bot_table.huangfan == 0 and bot_table.version > version
    # the seat now plays itself through the clock: the bot moves it (no timeout is counted)
    count = Action.objects.filter(seat=0).count()
    services.clock_tick(now=t0 + timedelta(seconds=901))
    assert Action.objects.filter(seat=0, by_clock=True).count() > count
    assert alice_seat(bot_table).timeouts == 0
    # later ticks do not charge again
    services.clock_tick(now=t0 + timedelta(seconds=2000))
    assert Penalty.objects.count() == 1
    # coming back ends the auto-play
    services.seat_connected(table_id=bot_table.pk, user=alice)
    seat = alice_seat(bot_table)
    assert not seat.autoplay and seat.connected


def test_a_disconnect_while_waiting_is_not_an_absence(room, alice):
    table = services.table_create(room_id=room.pk, user=alice)
    services.seat_disconnected(table_id=table.pk, user=alice)
    seat = alice_seat(table)
    assert seat.away_since is None and not seat.connected


# --- 托管 after two consecutive timeouts ----------------------------------------------------------


def time_out_alice(table) -> datetime:
    """The clock times alice out; returns the moment it ticked. The bots' moves in that tick are dated
    then, so the clock must be asked at that moment or later to let them go on."""
    table.refresh_from_db()
    at = table.turn_deadline + timedelta(seconds=1)
    services.clock_tick(now=at)
    return at


def test_two_consecutive_timeouts_start_autoplay_and_cancel_ends_it(bot_table, alice):
    advance_to_seat_zero(bot_table)
    later = time_out_alice(bot_table)
    seat = alice_seat(bot_table)
    assert seat.timeouts == 1 and not seat.autoplay
    advance_to_seat_zero(bot_table, now=later)
    later = time_out_alice(bot_table)
    seat = alice_seat(bot_table)
    assert seat.autoplay and seat.autoplay_reason == "timeouts"
    # every seat now plays itself with no think delay, so the clock never waits for alice's turn
    # timer again: the hand runs to its end, and no further timeout is counted for her
    services.clock_tick(now=later)
    assert state_of(bot_table).phase == "ended"
    assert alice_seat(bot_table).timeouts == 2
    version = Table.objects.get(pk=bot_table.pk).version
    services.table_cancel_autoplay(table_id=bot_table.pk, user=alice)
    seat = alice_seat(bot_table)
    assert not seat.autoplay and seat.timeouts == 0
    assert Table.objects.get(pk=bot_table.pk).version == version + 1
    with pytest.raises(ServiceError) as err:
        services.table_cancel_autoplay(table_id=bot_table.pk, user=alice)
    assert err.value.code == "not_in_autoplay"


def test_an_own_move_breaks_the_run_of_timeouts(bot_table, alice):
    advance_to_seat_zero(bot_table)
    later = time_out_alice(bot_table)
    assert alice_seat(bot_table).timeouts == 1
    state = advance_to_seat_zero(bot_table, now=later)
    bot_table.refresh_from_db()
    services.table_act(
        table_id=bot_table.pk, user=alice, action=Move.of(state.timeout_action(0)), version=bot_table.version
    )
    assert alice_seat(bot_table).timeouts == 0
    advance_to_seat_zero(bot_table, now=later)  # a window the clock opened at `later` is timed from then
    time_out_alice(bot_table)
    seat = alice_seat(bot_table)
    assert seat.timeouts == 1 and not seat.autoplay


def test_cancel_autoplay_needs_a_seat(bot_table, bob):
    with pytest.raises(ServiceError) as err:
        services.table_cancel_autoplay(table_id=bot_table.pk, user=bob)
    assert err.value.code == "not_seated"


def test_one_absence_is_charged_once(slow_timers, bot_table, alice):
    advance_to_seat_zero(bot_table)
    t0 = timezone.now()
    services.seat_disconnected(table_id=bot_table.pk, user=alice, now=t0)
    services.clock_tick(now=t0 + timedelta(seconds=slow_timers.grace_period + 1))
    assert Penalty.objects.filter(kind="disconnect").count() == 1
    services.table_stand(table_id=bot_table.pk, user=alice)  # still away, now gone for good
    assert Penalty.objects.count() == 1
    assert alice_seat(bot_table).is_bot


def test_a_leave_resets_huangfan_for_the_next_hand(bot_table, alice):
    play_until_ended(bot_table, {0: alice})
    Table.objects.filter(pk=bot_table.pk).update(huangfan=3)
    services.table_next_hand(table_id=bot_table.pk, user=alice)
    services.table_stand(table_id=bot_table.pk, user=alice)
    bot_table.refresh_from_db()
    assert bot_table.huangfan == 0
    play_until_ended(bot_table, {})
    bot_table.refresh_from_db()
    hand = bot_table.matches.get().hands.get(number=2)
    assert hand.huangfan == 3 and hand.result["huangfan_next"] > 0  # what the hand alone would leave
    assert bot_table.huangfan == 0


# --- presence across processes: a dead process's sockets stop vouching -------------------------


def past_stale(seconds: float) -> timedelta:
    return timedelta(seconds=settings.PRESENCE_STALE + seconds)


def test_a_seat_no_process_vouches_for_is_swept_and_charged_after_the_grace(slow_timers, bot_table, alice):
    advance_to_seat_zero(bot_table)
    set_bot_delay(slow_timers, 900)  # nothing but the grace period is due below
    t0 = timezone.now()
    services.seat_connected(table_id=bot_table.pk, user=alice, now=t0)
    assert services.sweep_stale_presence(now=t0 + past_stale(-1)) == 0
    assert alice_seat(bot_table).connected
    t1 = t0 + past_stale(+1)
    assert services.sweep_stale_presence(now=t1) == 1
    seat = alice_seat(bot_table)
    assert not seat.connected and seat.away_since == t1
    assert services.sweep_stale_presence(now=t1) == 0  # swept once
    services.clock_tick(now=t1 + timedelta(seconds=slow_timers.grace_period + 1))
    penalty = Penalty.objects.get()
    assert (penalty.user, penalty.kind) == (alice, "disconnect")
    assert alice_seat(bot_table).autoplay


def test_a_vouched_seat_stays_connected(bot_table, alice):
    t0 = timezone.now()
    services.seat_connected(table_id=bot_table.pk, user=alice, now=t0)
    assert services.vouch_for({(bot_table.pk, alice.pk)}, now=t0 + timedelta(seconds=30)) == 1
    assert services.sweep_stale_presence(now=t0 + past_stale(+1)) == 0
    seat = alice_seat(bot_table)
    assert seat.connected and seat.away_since is None


def test_a_vouch_counts_only_for_the_socket_s_own_table(room, bot_table, alice, bob):
    other = services.table_create(room_id=room.pk, user=bob)
    # alice watching bob's table and bob watching alice's: neither seat is vouched for
    assert services.vouch_for({(other.pk, alice.pk), (bot_table.pk, bob.pk)}) == 0
    assert not Seat.objects.filter(seen__isnull=False).exists()


def test_a_vouch_brings_back_a_seat_swept_while_its_socket_lived(bot_table, alice):
    """A process that stalled past PRESENCE_STALE: its sockets are still open, so the person is here."""
    advance_to_seat_zero(bot_table)
    t0 = timezone.now()
    services.seat_connected(table_id=bot_table.pk, user=alice, now=t0)
    assert services.sweep_stale_presence(now=t0 + past_stale(+1)) == 1
    assert services.vouch_for({(bot_table.pk, alice.pk)}, now=t0 + past_stale(+2)) == 1
    seat = alice_seat(bot_table)
    assert seat.connected and seat.away_since is None and seat.seen == t0 + past_stale(+2)


def test_asking_for_autoplay_hands_the_seat_to_the_bot_until_cancelled(bot_table, alice, bob):
    advance_to_seat_zero(bot_table)
    version = Table.objects.get(pk=bot_table.pk).version
    services.table_request_autoplay(table_id=bot_table.pk, user=alice)
    seat = alice_seat(bot_table)
    assert seat.autoplay and seat.autoplay_reason == "asked"
    assert Table.objects.get(pk=bot_table.pk).version == version + 1
    with pytest.raises(ServiceError) as err:
        services.table_request_autoplay(table_id=bot_table.pk, user=alice)
    assert err.value.code == "already_in_autoplay"
    with pytest.raises(ServiceError) as err:
        services.table_request_autoplay(table_id=bot_table.pk, user=bob)
    assert err.value.code == "not_seated"
    services.clock_tick(now=timezone.now())  # alice's turn is played by the bot, and the rest of the hand
    assert state_of(bot_table).phase == "ended"
    services.table_cancel_autoplay(table_id=bot_table.pk, user=alice)
    assert not alice_seat(bot_table).autoplay
