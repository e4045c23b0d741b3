"""games.store: the one reader and writer of a table's hand state and action log.

The lock takes the Table row alone, then reads the table with its room and hand, and its seats; an
action appends one Action row and writes the Table row without the log; a load is the saved state,
from this process's copy when it is the one saved, else replayed from the deal and the rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Profile
from games import services, store
from games.engine.state import GameState
from games.models import Action, Room, Seat, Table
from games.services import ServiceError, current_hand, play
from games.services.commands import Move

from .helpers import advance_to_seat_zero

pytestmark = pytest.mark.django_db

SAVEPOINTS = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


@pytest.fixture(autouse=True)
def _cold():
    store.forget_all()
    yield
    store.forget_all()


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run the services' after-commit work (the test's transaction never commits)."""

    def run(verb, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return verb(**kwargs)

    return run


def replayed(table: Table) -> GameState:
    """The table's state as a process without a copy reads it: the deal replayed with the log."""
    deal = {name: value for name, value in table.state.items() if name != "moves"}
    log = list(Action.objects.filter(hand_id=table.hand_id).order_by("seq").values_list("action", flat=True))
    assert len(log) == table.state["moves"]
    return GameState.from_json({**deal, "actions": log})


def one_step(table, alice, committed) -> None:
    """Alice answers when asked, else the clock plays the bots' moves."""
    table.refresh_from_db()
    state = store.load(table)
    if 0 in state.pending_seats() and state.legal_actions(0):
        move = Move.of(state.timeout_action(0))
        committed(services.table_act, table_id=table.pk, user=alice, action=move, version=table.version)
    else:
        assert committed(services.clock_tick, now=timezone.now()) > 0


def statements(ctx: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in ctx.captured_queries if not q["sql"].startswith(SAVEPOINTS)]


# --- the lock ------------------------------------------------------------------------------------


def test_the_lock_takes_the_table_row_alone_then_reads_the_table_room_hand_and_seats(bot_table):
    with CaptureQueriesContext(connection) as ctx:
        table = store.lock(bot_table.pk)
    sql = statements(ctx)
    if connection.features.has_select_for_update:
        # one round trip: the lock on the Table row alone, then the two reads, each its own statement
        (sent,) = sql
        lock_sql, table_sql, seat_sql = sent.split("; ")
        assert 'FROM "games_table"' in lock_sql and "JOIN" not in lock_sql and "FOR UPDATE" in lock_sql
        assert "FOR UPDATE" not in table_sql + seat_sql
    else:  # SQLite: no row lock, the table's read is the check
        table_sql, seat_sql = sql
    assert 'FROM "games_table"' in table_sql and '"games_room"' in table_sql and '"games_hand"' in table_sql
    assert 'FROM "games_seat"' in seat_sql and "JOIN" not in seat_sql
    with CaptureQueriesContext(connection) as ctx:
        assert table.room.pk == bot_table.room_id and table.hand.pk == bot_table.hand_id
        seats = store.seats(table)
    assert ctx.captured_queries == []
    assert [seat.index for seat in seats] == [0, 1, 2, 3]
    assert [seat.pk for seat in seats] == list(
        Seat.objects.filter(table=bot_table).order_by("index").values_list("pk", flat=True)
    )
    assert all(seat.table is table for seat in seats)


@pytest.mark.parametrize(
    ("conditions", "found"),
    [
        ({}, True),
        ({"status": Table.Status.PLAYING}, True),
        ({"status": Table.Status.WAITING}, False),
        ({"status": Table.Status.PLAYING, "deadline__lte": "future"}, True),
        ({"status": Table.Status.PLAYING, "deadline__lte": "past"}, False),
    ],
)
@pytest.mark.parametrize("skip_locked", [False, True])
def test_the_lock_finds_the_table_only_when_its_conditions_hold(bot_table, conditions, found, skip_locked):
    now = timezone.now()
    when = {"future": now + timedelta(days=1), "past": now - timedelta(days=1)}
    conditions = {name: when.get(value, value) for name, value in conditions.items()}
    table = store.lock(bot_table.pk, skip_locked=skip_locked, **conditions)
    assert (table is not None) == found
    if found:
        assert table.pk == bot_table.pk and table.version == bot_table.version
    assert store.lock(bot_table.pk + 1000, skip_locked=skip_locked, **conditions) is None


def test_a_table_with_seats_is_one_query_with_users_and_profiles(bot_table, alice):
    with CaptureQueriesContext(connection) as ctx:
        table, seats = store.table_with_seats(bot_table.pk)
        assert seats[0].user.pk == alice.pk and getattr(seats[0].user, "profile", None) is None  # read, none
        assert table.room.name and all(seat.table is table for seat in seats)
    assert len(ctx.captured_queries) == 1
    assert store.table_with_seats(bot_table.pk + 1000) == (None, None)


def test_the_table_with_seats_reads_what_the_orm_reads(bot_table, alice):
    Profile.objects.create(user=alice, display_name="爱丽丝")
    table, seats = store.table_with_seats(bot_table.pk)
    expected = list(Seat.objects.filter(table=bot_table).order_by("index"))
    assert [model_to_dict(s) for s in seats] == [model_to_dict(s) for s in expected]
    assert all(s.table is table for s in seats)
    assert model_to_dict(table) == model_to_dict(Table.objects.get(pk=bot_table.pk))
    assert model_to_dict(table.room) == model_to_dict(Room.objects.get(pk=bot_table.room_id))
    assert model_to_dict(seats[0].user) == model_to_dict(alice)
    assert seats[0].user.profile.display_name == "爱丽丝"
    assert all(s.user is None for s in seats[1:])
    assert store.table_with_seats(999999) == (None, None)


# --- saving: one row per action, the log never rewritten ---------------------------------------


def test_an_action_appends_one_row_and_does_not_rewrite_the_log(bot_table, alice):
    state = advance_to_seat_zero(bot_table)
    before = list(
        Action.objects.filter(hand_id=bot_table.hand_id).order_by("seq").values_list("pk", "action")
    )
    deal = Table.objects.get(pk=bot_table.pk).state
    with CaptureQueriesContext(connection) as ctx:
        services.table_act(
            table_id=bot_table.pk,
            user=alice,
            action=Move.of(state.timeout_action(0)),
            version=bot_table.version,
        )
    after = list(Action.objects.filter(hand_id=bot_table.hand_id).order_by("seq").values_list("pk", "action"))
    assert after[: len(before)] == before and len(after) == len(before) + 1
    table = Table.objects.get(pk=bot_table.pk)
    assert table.state == {**deal, "moves": len(after)} and "actions" not in table.state
    updates = [sql for sql in statements(ctx) if sql.startswith("UPDATE")]
    # an answer that ends a claim window also stamps the window's end on its own row (store.release)
    (update,) = [sql for sql in updates if not sql.startswith('UPDATE "games_action" SET "version"')]
    assert len(updates) <= 2
    assert '"games_table"' in update and '"actions"' not in update and after[-1][1] not in update
    row = Action.objects.get(hand_id=table.hand_id, seq=len(after))
    assert row.version == table.version and row.seat == 0 and not row.by_clock


def test_a_deal_writes_the_deal_and_no_log(bot_table):
    table = Table.objects.get(pk=bot_table.pk)
    assert set(table.state) >= {"rules", "dealer", "huangfan", "stake", "seed", "commitment"}
    assert "actions" not in table.state
    assert table.state["moves"] == Action.objects.filter(hand_id=table.hand_id).count()
    assert store.load(table).commitment == current_hand(table).commitment


def test_the_version_check_refuses_a_stale_version_and_changes_nothing(bot_table, alice):
    state = advance_to_seat_zero(bot_table)
    before = (Table.objects.get(pk=bot_table.pk).version, Action.objects.count())
    with pytest.raises(ServiceError) as err:
        services.table_act(
            table_id=bot_table.pk,
            user=alice,
            action=Move.of(state.timeout_action(0)),
            version=bot_table.version - 5,
        )
    assert err.value.code == "stale_version"
    assert (Table.objects.get(pk=bot_table.pk).version, Action.objects.count()) == before


# --- loading: the copy is the saved state ------------------------------------------------------


def test_the_copy_is_the_saved_state_through_a_whole_hand(bot_table, alice, committed):
    for _ in range(3000):
        one_step(bot_table, alice, committed)
        table = Table.objects.get(pk=bot_table.pk)
        assert store._snapshots.get(table.pk, table.version).saved  # a copy, not a replay, is read
        copy, cold = store.load(table), replayed(table)
        assert copy.to_json() == cold.to_json()
        assert store.state_json(copy) == table.state
        assert [str(a) for a in copy.actions] == list(
            Action.objects.filter(hand_id=table.hand_id).order_by("seq").values_list("action", flat=True)
        )
        assert copy.phase == cold.phase and copy.pending_seats() == cold.pending_seats()
        for seat in (0, 1, 2, 3, None):
            assert copy.view(seat) == cold.view(seat)
        for seat in copy.pending_seats():
            assert copy.legal_actions(seat) == cold.legal_actions(seat)
        if copy.phase == "ended":
            assert copy.result.to_json() == cold.result.to_json()
            return
    raise AssertionError("the hand did not end")


def test_the_next_action_uses_the_copy(bot_table, alice, committed, monkeypatch):
    one_step(bot_table, alice, committed)
    monkeypatch.setattr(GameState, "from_json", lambda *a, **k: pytest.fail("replayed"))
    for _ in range(20):
        if store.load(Table.objects.get(pk=bot_table.pk)).phase == "ended":
            break
        one_step(bot_table, alice, committed)


def test_a_row_written_elsewhere_is_read_from_the_rows(bot_table, alice, committed):
    one_step(bot_table, alice, committed)
    table = Table.objects.get(pk=bot_table.pk)
    assert store.load(table) is not None
    saved = store._snapshots.get(table.pk, table.version)
    assert saved.matches(table)
    # The copy is for that exact row: not for another version, hand or deal of the table.
    for name, value in (
        ("version", table.version + 1),
        ("hand_id", None),
        ("state", store.state_json(GameState.new(seed="e" * 64))),
    ):
        changed = Table.objects.get(pk=table.pk)
        setattr(changed, name, value)
        assert not saved.matches(changed), name
    # Another process moved the table on (its copy is not here): the log is replayed.
    other = replayed(table)
    seat = other.pending_seats()[0]
    other.apply(other.timeout_action(seat))
    with transaction.atomic():
        locked = store.lock(table.pk)
        store.append(locked, locked.hand, other, by_clock=True)
        store.save(locked, other)
    moved = Table.objects.get(pk=table.pk)
    assert moved.version == table.version + 1
    assert store.load(moved).to_json() == other.to_json()


def test_a_rolled_back_save_is_not_remembered(bot_table, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        one_step(bot_table, alice, lambda verb, **kwargs: verb(**kwargs))
        raise RuntimeError("a later step of the same transaction failed")
    assert len(store._snapshots) == 0
    table = Table.objects.get(pk=bot_table.pk)
    assert store.load(table).to_json() == replayed(bot_table).to_json()
    assert table.version == bot_table.version


def test_each_load_is_a_new_object(bot_table, alice, committed):
    one_step(bot_table, alice, committed)
    table = Table.objects.get(pk=bot_table.pk)
    first, second = store.load(table), store.load(table)
    assert first is not second
    first.apply(first.timeout_action(first.pending_seats()[0]))
    assert second.to_json() == replayed(table).to_json()


def test_the_saved_version_is_kept_before_the_broadcast_leaves(bot_table, alice, committed, monkeypatch):
    """The snapshot of the version a service saved is in the store's cache, with its state and hand
    number, when the broadcast announcing that version is sent (the sockets here render from it)."""
    from games.services import broadcast

    kept = []

    def send(group, message):
        if message.get("type") == "table.update":
            kept.append((message["version"], store._snapshots.get(message["table_id"], message["version"])))

    monkeypatch.setattr(broadcast, "_send", send)
    one_step(bot_table, alice, committed)
    table = Table.objects.get(pk=bot_table.pk)
    version, snapshot = kept[-1]
    assert version == table.version and snapshot is not None and snapshot.matches(table)
    assert snapshot.state.to_json() == replayed(table).to_json()
    assert snapshot.hand_number == current_hand(table).number == 1
    assert play.load_state(table).to_json() == snapshot.state.to_json()
    assert play.load_state(table) is not snapshot.state  # a service gets its own copy


def test_a_kept_version_stays_as_it_was_saved_while_the_table_plays_on(bot_table, alice, committed):
    """The renders of a version share the state the service saved; the next actions play on copies
    of it, so every kept version still shows exactly its own log."""
    kept = []
    for _ in range(120):
        one_step(bot_table, alice, committed)
        table = Table.objects.get(pk=bot_table.pk)
        snapshot = store._snapshots.get(table.pk, table.version)
        if snapshot is not None and snapshot.saved:
            kept.append((snapshot, store.state_json(snapshot.state), replayed(table).to_json()))
        if table.state and store.load(table).phase == "ended":
            break
    assert len(kept) > 10
    for snapshot, saved, cold in kept:
        assert store.state_json(snapshot.state) == saved == snapshot.raw
        assert snapshot.state.to_json() == cold


def test_the_snapshot_cache_is_bounded_and_drops_the_least_recently_used_version():
    snapshots = store._Snapshots(3)

    def kept(table_id: int, version: int) -> store.Snapshot:
        snapshot = store.Snapshot(Table(pk=table_id, version=version, state={"moves": version}), state=None)
        snapshots.put(snapshot)
        return snapshot

    one_1, one_2, two_1 = kept(1, 1), kept(1, 2), kept(2, 1)
    assert snapshots.newest(1) is one_2 and snapshots.newest(2) is two_1
    assert snapshots.get(1, 1) is one_1  # used: now the most recent
    two_2 = kept(2, 2)
    assert len(snapshots) == 3
    assert snapshots.get(1, 2) is None  # the least recently used went
    assert [snapshots.get(1, 1), snapshots.get(2, 1), snapshots.get(2, 2)] == [one_1, two_1, two_2]
    assert snapshots.newest(2) is two_2 and snapshots.newest(1) is None
    again = kept(1, 1)  # the same key again: replaced, nothing else goes
    assert len(snapshots) == 3 and snapshots.get(1, 1) is again and snapshots.newest(1) is again
    kept(2, 1)  # an older version kept again does not hide a newer one
    assert snapshots.newest(2) is two_2
