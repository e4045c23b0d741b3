"""What one action costs the database (issues 7, 12 and 25): a service locks the table and reads it (with
its room and current hand) and its seats once, then appends one Action row and writes one Table row.

On PostgreSQL the lock and the two reads are three statements sent in one round trip (one `execute`,
so one captured query); SQLite locks no rows, and reads the table and its seats in two."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services, store
from games.models import Action, Hand, Table
from games.services import ServiceError, current_hand
from games.services.commands import Move
from games.services.presence import hand_in_progress

from .helpers import advance_to_seat_zero, play_until_ended, state_of

# Each service's transaction commits, as in a server: the process then keeps the state it saved
# (games.store), and an action at the table it saved last needs no replay of the hand's log.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_copies_from_other_tests():
    store.forget_all()
    yield
    store.forget_all()


# Transaction control (the services' own, and savepoints): not reads or writes of rows.
SAVEPOINTS = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "BEGIN", "COMMIT", "ROLLBACK")


def statements(ctx: CaptureQueriesContext) -> list[str]:
    """The SQL sent, without transaction control."""
    return [q["sql"] for q in ctx.captured_queries if not q["sql"].startswith(SAVEPOINTS)]


def kinds(sql: list[str]) -> list[str]:
    return [s.split(None, 1)[0] for s in sql]


WINDOW_STAMP = 'UPDATE "games_action" SET "version"'


def without_window_stamps(sql: list[str], most: int) -> list[str]:
    """`sql` without the stamps of a claim window's end on the answer that was logged in the same call
    (`games.store.release`: a held window released after its last answer), at most `most` of them,
    each right after the INSERT of the answer it stamps."""
    stamps = [i for i, s in enumerate(sql) if s.startswith(WINDOW_STAMP)]
    assert len(stamps) <= most, sql
    assert all(i > 0 and sql[i - 1].startswith('INSERT INTO "games_action"') for i in stamps), sql
    return [s for i, s in enumerate(sql) if i not in stamps]


# The statements of `games.store.lock`, as captured: one round trip on PostgreSQL, two reads on SQLite.
LOCK = ["SELECT"] if connection.features.has_select_for_update else ["SELECT", "SELECT"]


def locked_table_sql(sql: list[str]) -> tuple[str, str]:
    """The read of the locked table and the read of its seats among `sql`, the statements from the lock."""
    if connection.features.has_select_for_update:
        lock, table, seats = sql[0].split("; ")
        assert "FOR UPDATE" in lock and "JOIN" not in lock
        return table, seats
    return sql[0], sql[1]


def test_a_person_s_action_is_two_reads_and_two_writes(bot_table, alice):
    state = advance_to_seat_zero(bot_table)
    move = str(state.timeout_action(0))
    with CaptureQueriesContext(connection) as ctx:
        services.table_act(
            table_id=bot_table.pk, user=alice, action=Move.parse(move), version=bot_table.version
        )
    if state_of(bot_table).phase == "ended":
        pytest.skip("this move ended the hand (the hand's end writes more)")
    sql = without_window_stamps(statements(ctx), most=1)
    assert kinds(sql) == [*LOCK, "INSERT", "UPDATE"], sql
    table_sql, seat_sql = locked_table_sql(sql)
    assert 'FROM "games_table"' in table_sql
    assert 'FROM "games_seat"' in seat_sql
    assert '"games_action"' in sql[-2] and '"games_table"' in sql[-1]
    assert Action.objects.filter(hand=current_hand(bot_table), seat=0).exists()


def test_a_refused_action_reads_and_writes_nothing_more(bot_table, alice):
    state = advance_to_seat_zero(bot_table)
    move = str(state.timeout_action(0))
    with CaptureQueriesContext(connection) as ctx, pytest.raises(ServiceError) as err:
        services.table_act(
            table_id=bot_table.pk, user=alice, action=Move.parse(move), version=bot_table.version + 1
        )
    assert err.value.code == "stale_version"
    assert kinds(statements(ctx)) == LOCK


def test_dealing_the_next_hand_is_two_reads_and_two_writes(bot_table, alice):
    play_until_ended(bot_table, {0: alice})
    bot_table.refresh_from_db()
    with CaptureQueriesContext(connection) as ctx:
        services.table_next_hand(table_id=bot_table.pk, user=alice, version=bot_table.version)
    sql = statements(ctx)
    assert kinds(sql) == [*LOCK, "INSERT", "UPDATE"], sql
    assert '"games_hand"' in sql[-2] and '"games_table"' in sql[-1]


def test_a_clock_tick_writes_each_bot_move_once_and_the_table_once(bot_table, alice):
    state = advance_to_seat_zero(bot_table)
    # Alice answers until a bot must move (passing a chow on seat 3's discard makes it her turn).
    while 0 in state.pending_seats() and state.legal_actions(0):
        services.table_act(
            table_id=bot_table.pk,
            user=alice,
            action=Move.of(state.timeout_action(0)),
            version=bot_table.version,
        )
        state = state_of(bot_table)
    if state.phase == "ended":
        pytest.skip("the hand ended")
    with CaptureQueriesContext(connection) as ctx:
        applied = services.clock_tick(now=timezone.now())
    if state_of(bot_table).phase == "ended":
        pytest.skip("the bots ended the hand (the hand's end writes more)")
    assert applied > 0
    sql = without_window_stamps(statements(ctx), most=applied)
    # due tables (playing, and waiting on a ready check), the locked table, its seats, the moves, the table
    assert kinds(sql) == ["SELECT", *LOCK, *["INSERT"] * applied, "UPDATE"], sql


def test_an_idle_clock_tick_is_one_read(bot_table, alice):
    advance_to_seat_zero(bot_table)
    with CaptureQueriesContext(connection) as ctx:
        assert services.clock_tick(now=timezone.now()) == 0
    assert kinds(statements(ctx)) == ["SELECT"]


def test_the_table_knows_its_current_hand(bot_table, alice):
    first = Hand.objects.get(match__table=bot_table)
    assert current_hand(bot_table) == first and hand_in_progress(bot_table) == first
    play_until_ended(bot_table, {0: alice})
    bot_table.refresh_from_db()
    assert current_hand(bot_table) == first and hand_in_progress(bot_table) is None
    services.table_next_hand(table_id=bot_table.pk, user=alice)
    bot_table.refresh_from_db()
    second = Hand.objects.filter(match__table=bot_table).order_by("-id").first()
    assert second.number == 2 and current_hand(bot_table) == second == hand_in_progress(bot_table)


def test_the_migration_sets_each_table_s_latest_hand(bot_table, alice, room):
    play_until_ended(bot_table, {0: alice})
    services.table_next_hand(table_id=bot_table.pk, user=alice)
    latest = Hand.objects.filter(match__table=bot_table).order_by("-id").first()
    empty = services.table_create(room_id=room.pk, user=alice)
    Table.objects.update(hand=None)
    migration = importlib.import_module("games.migrations.0003_table_hand")
    migration.backfill_hand(apps, None)
    assert Table.objects.get(pk=bot_table.pk).hand == latest and latest.number == 2
    assert Table.objects.get(pk=empty.pk).hand is None


@pytest.fixture
def slow_timers(room):
    """Turn timers far longer than the grace period (list it before `bot_table`)."""
    room.discard_timeout = room.claim_timeout = 600
    room.save()
    return room


def test_a_seat_put_in_autoplay_by_the_grace_period_is_played_in_the_same_tick(slow_timers, bot_table, alice):
    advance_to_seat_zero(bot_table)
    t0 = timezone.now()
    services.seat_disconnected(table_id=bot_table.pk, user=alice, now=t0)
    assert not Action.objects.filter(seat=0).exists()
    services.clock_tick(now=t0 + timedelta(seconds=slow_timers.grace_period + 1))
    seat = bot_table.seats.get(index=0)
    assert seat.autoplay and seat.autoplay_reason == "away" and seat.timeouts == 0
    assert Action.objects.filter(seat=0, by_clock=True).exists()
