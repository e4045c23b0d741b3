"""The table tells everyone who left a seat and why, and that a discard was made by the turn timer
(issue 26): a line in the info bar, a badge in the centre, in the reader's language, for seated
people and spectators alike, until the next deal (a departure) or the next discard (a timer discard)."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.conf import settings
from django.utils import timezone

from games import services
from games.engine.kinds import Phase, discards_in
from games.models import Room
from games.services.commands import Move

from .helpers import advance_to_seat_zero, play_until_ended, press_next_hand_for_all, started_table, state_of


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run each service's after-commit work (its note, then its broadcast) as a real commit would."""

    def run(fn, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(**kwargs)

    return run


def page(client, table_id: int, language: str = "zh-hans") -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(f"/table/{table_id}/").content.decode()


def departures(html: str) -> list[tuple[str, str, str]]:
    """(seat, reason, words) of each departure line in the info bar."""
    found = re.findall(r'data-testid="departure" data-seat="(\d)" data-reason="(\w+)">([^<]+)<', html)
    return [(seat, reason, unescape(words)) for seat, reason, words in found]


def test_someone_who_stands_up_at_a_waiting_table_is_named_for_everyone(
    room, alice, bob, client_for, committed
):
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_sit(table_id=table.pk, user=bob)
    assert departures(page(client_for(alice), table.pk)) == []
    committed(services.table_stand, table_id=table.pk, user=bob)
    assert departures(page(client_for(alice), table.pk)) == [("1", "left", "bob 离开了牌桌。")]
    assert departures(page(client_for(), table.pk, "en")) == [("1", "left", "bob left the table.")]


def test_those_who_did_not_press_start_are_named_as_timed_out(room, alice, bob, client_for, committed):
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_sit(table_id=table.pk, user=bob)
    services.table_fill_bots(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    committed(services.clock_tick, now=timezone.now() + timedelta(seconds=room.ready_timeout + 1))
    assert not table.seats.filter(user=bob).exists()
    assert departures(page(client_for(alice), table.pk, "en")) == [
        ("1", "timed_out", "bob did not press Start in time and has been unseated.")
    ]


def test_a_banned_player_is_named_as_banned(room, alice, bob, client_for, committed):
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_sit(table_id=table.pk, user=bob)
    committed(services.ban_player, user=bob, reason="abuse")
    assert departures(page(client_for(alice), table.pk)) == [("1", "banned", "bob 被禁止入座，已离座。")]


def test_leaving_during_a_hand_is_told_until_the_next_deal(room, alice, bob, carol, client_for, committed):
    """alice leaves during the hand; bob plays on beside the bots; carol watches."""
    table = started_table(room, alice, bob)
    committed(services.table_stand, table_id=table.pk, user=alice)
    spectator = client_for(carol)
    assert departures(page(spectator, table.pk)) == [("0", "left", "alice 中途离开，由机器人代打。")]
    assert departures(page(client_for(bob), table.pk, "en")) == [
        ("0", "left", "alice left during the match; a bot plays the seat.")
    ]
    play_until_ended(table, {1: bob})
    assert departures(page(spectator, table.pk)), "still the hand it happened in"
    press_next_hand_for_all(table.pk)
    table.refresh_from_db()
    assert state_of(table).phase != Phase.ENDED, "the next hand is dealt"
    assert departures(page(spectator, table.pk)) == []


def test_a_discard_made_by_the_turn_timer_is_marked_for_everyone_until_the_next_discard(
    bot_table, alice, bob, client_for, committed
):
    for _ in range(20):  # seat 0's turn to discard (a claim it may pass on is timed out too)
        state = advance_to_seat_zero(bot_table)
        bot_table.refresh_from_db()
        if state.phase == Phase.TURN:
            break
        services.clock_tick(now=bot_table.turn_deadline + timedelta(seconds=1))
    assert state.phase == Phase.TURN
    rivers = sum(len(r) for r in state.rivers)
    at = bot_table.turn_deadline + timedelta(seconds=1)
    Room.objects.filter(pk=bot_table.room_id).update(bot_delay=5)  # the bots wait after the timer's discard
    committed(services.clock_tick, now=at)
    assert sum(len(r) for r in state_of(bot_table).rivers) == rivers + 1
    html = page(client_for(bob), bot_table.pk)
    badge = re.search(r'data-testid="timer-discard" data-seat="(\d)" title="([^"]+)">([^<]+)<', html)
    assert badge and badge.groups() == ("0", "alice：超时自动出牌", "超时自动出牌")
    english = page(client_for(), bot_table.pk, "en")
    assert (
        'data-testid="timer-discard" data-seat="0" title="alice: discarded by the timer">Timer discard<'
        in english
    )
    # The next discard (a bot's, the ponger's after a claim of it, or another timer's) ends alice's note.
    timer_discards = discards_in(state_of(bot_table))
    for _ in range(200):
        state = state_of(bot_table)
        if discards_in(state) > timer_discards or state.phase == Phase.ENDED:
            break
        bot_table.refresh_from_db()
        services.clock_tick(now=max(at, bot_table.turn_deadline or at) + timedelta(seconds=60))
    alices = 'data-testid="timer-discard" data-seat="0"' in page(client_for(bob), bot_table.pk)
    if discards_in(state_of(bot_table)) > timer_discards:
        assert not alices
    else:  # the hand ended on the timer's discard (a win on it): it stays the last discard, and marked
        assert state_of(bot_table).phase == Phase.ENDED and alices


def test_a_discard_the_person_made_is_not_marked(bot_table, alice, client_for, committed):
    state = advance_to_seat_zero(bot_table)
    bot_table.refresh_from_db()
    move = state.legal_actions(0)[0]
    committed(
        services.table_act,
        table_id=bot_table.pk,
        user=alice,
        action=Move.parse(str(move)),
        version=bot_table.version,
    )
    assert 'data-testid="timer-discard"' not in page(client_for(alice), bot_table.pk)


def test_an_account_staff_delete_leaves_its_seats_to_a_bot_and_the_hand_plays_on(
    room, alice, bob, carol, make_user, client_for, committed
):
    """The admin's delete (a hard delete, unlike the site's own deletion, which is refused while the
    person sits): the seat must not be left with neither a person nor a bot. bob's playing seat goes
    to a bot at once; carol's waiting seat is emptied."""
    table = started_table(room, alice, bob)
    for _ in range(200):  # until the hand waits on bob, whose turn timer is far off
        state = state_of(table)
        if 1 in state.pending_seats():
            break
        if 0 in state.pending_seats():
            services.table_act(
                table_id=table.pk, user=alice, action=Move.of(state.timeout_action(0)), version=table.version
            )
        else:
            assert services.clock_tick(now=timezone.now()) > 0
    assert 1 in state_of(table).pending_seats()
    dave = make_user("dave")
    waiting = services.table_create(room_id=room.pk, user=dave)
    services.table_sit(table_id=waiting.pk, user=carol)
    committed(bob.delete)
    seat = table.seats.get(index=1)
    assert seat.user_id is None and seat.is_bot
    assert departures(page(client_for(alice), table.pk)) == [
        ("1", "erased", "bob 的账户已被删除，由机器人代打。")
    ]
    assert departures(page(client_for(), table.pk, "en")) == [
        ("1", "erased", "bob's account was deleted; a bot plays the seat.")
    ]
    assert play_until_ended(table, {0: alice}).phase == Phase.ENDED, "the bot plays bob's turns"
    committed(carol.delete)
    assert list(waiting.seats.filter(user__isnull=False).values_list("user", flat=True)) == [dave.pk]
    assert departures(page(client_for(dave), waiting.pk, "en")) == [
        ("1", "erased", "carol's account was deleted and has been unseated.")
    ]
