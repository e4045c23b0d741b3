"""games.store's precompiled statements (games.store._sql): queries and writes compiled once per
thread must read and write exactly what the ORM would (issues 7 and 12). Each test runs the compiled path and the ORM path side by side and compares the
SQL sent, the objects found or the rows written."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services, store
from games.models import Action, Hand, Seat, Table
from games.store import ACTION_FIELDS as _ACTION_FIELDS
from games.store import STATE_FIELDS as _STATE_FIELDS
from games.store import _lock_row, _locked_table_row
from games.store import _locked_seat_rows as _seat_rows
from games.store import _sql as compiled

pytestmark = pytest.mark.django_db


def values(obj) -> dict:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


def same_objects(found, expected) -> None:
    assert [type(obj) for obj in found] == [type(obj) for obj in expected]
    assert [values(obj) for obj in found] == [values(obj) for obj in expected]
    assert all(not obj._state.adding and obj._state.db == "default" for obj in found)


def compiled_lock(table_id, skip_locked=False, **conditions):
    """The store's lock: the Table row (with its room and hand) when it matches, else nothing."""
    table = store.lock(table_id, skip_locked=skip_locked, **conditions)
    return [] if table is None else [table]


def orm_lock(table_id, skip_locked=False, **conditions):
    """The ORM's queries for the same: the lock on the Table row alone (where rows are locked), then
    the table with its room and hand, then the seats."""
    if compiled.locks_rows():
        if not list(_lock_row(table_id, skip_locked, conditions)):
            return []
        conditions = {}
    tables = list(_locked_table_row(table_id, conditions))
    if tables:
        list(_seat_rows(table_id))
    return tables


def same_sql(fast, orm) -> None:
    """The compiled path sent the ORM's statements: in one round trip where there are row locks."""
    expected = [q["sql"] for q in orm.captured_queries]
    sent = [q["sql"] for q in fast.captured_queries]
    if compiled.locks_rows():  # the lock and both reads, sent together (the reads find nothing unlocked)
        assert len(sent) == 1, sent
        sent = sent[0].split("; ")
        assert len(sent) == 3
    assert sent[: len(expected)] == expected


@pytest.mark.parametrize(
    "conditions",
    [
        {},
        {"status": Table.Status.PLAYING},
        {"status": Table.Status.PLAYING, "deadline__lte": "future"},
        {"status": Table.Status.WAITING, "deadline__lte": "future"},
        {"status": Table.Status.PLAYING, "deadline__lte": "past"},
    ],
)
@pytest.mark.parametrize("skip_locked", [False, True])
def test_the_locked_table_read_finds_what_the_orm_finds(bot_table, room, alice, conditions, skip_locked):
    waiting = services.table_create(room_id=room.pk, user=alice)  # no hand, no deadline
    now = timezone.now()
    when = {"future": now + timedelta(days=1), "past": now - timedelta(days=1)}
    conditions = {name: when.get(value, value) for name, value in conditions.items()}
    for table in (bot_table, waiting):
        for _ in range(2):  # the second run uses the query compiled by the first
            with CaptureQueriesContext(connection) as fast:
                found = compiled_lock(table.pk, skip_locked, **conditions)
            with CaptureQueriesContext(connection) as orm:
                expected = orm_lock(table.pk, skip_locked, **conditions)
            same_objects(found, expected)
            same_sql(fast, orm)
            for obj, want in zip(found, expected, strict=True):
                same_objects([obj.room], [want.room])
                assert (obj.hand is None) == (want.hand is None)
                if want.hand is not None:
                    same_objects([obj.hand], [want.hand])
    assert compiled_lock(bot_table.pk + 1000, skip_locked, **conditions) == []


def test_the_lock_of_a_table_is_the_orm_query(bot_table):
    """The SQL the services send to lock a table is the one the ORM's select_for_update sends, and
    the locking statement reads the Table row alone: what it would join is read after the lock."""
    with CaptureQueriesContext(connection) as orm:
        expected = orm_lock(bot_table.pk)
    with CaptureQueriesContext(connection) as fast:
        table = store.lock(bot_table.pk)
    same_sql(fast, orm)
    same_objects([table], expected)
    if connection.features.has_select_for_update:
        lock_sql = fast.captured_queries[0]["sql"].split("; ")[0]
        assert "JOIN" not in lock_sql and "FOR UPDATE" in lock_sql


def test_the_seats_read_finds_what_the_orm_finds(bot_table, room, alice):
    empty = services.table_create(room_id=room.pk, user=alice)
    for table_id in (bot_table.pk, empty.pk, bot_table.pk):
        found = compiled.select(("test_seats",), _seat_rows, [table_id])
        same_objects(found, list(Seat.objects.filter(table_id=table_id).order_by("index")))


def test_the_lock_gives_the_seats_it_read_and_the_related_manager_still_queries(bot_table, room, alice):
    services.table_create(room_id=room.pk, user=alice)  # four more seats, of another table
    table = store.lock(bot_table.pk)
    seats = store.seats(table)
    same_objects(list(seats), list(Seat.objects.filter(table=bot_table).order_by("index")))
    assert all(seat.table is table for seat in seats)
    with CaptureQueriesContext(connection) as ctx:
        assert [seat.index for seat in store.seats(table)] == [0, 1, 2, 3]
    assert ctx.captured_queries == []
    assert table.seats.filter(index=2).get().pk == seats[2].pk  # still a queryset of this table
    assert table.seats.select_related("user").count() == 4
    assert table.seats.update(ready=True) == 4
    assert Seat.objects.filter(ready=True).count() == 4


def test_parameters_that_cannot_be_told_apart_run_the_orm_query(bot_table):
    def build(a, b):
        return Table.objects.filter(pk=a, version__gte=b - bot_table.pk)

    key = ("test_ambiguous",)
    found = compiled.select(key, build, [bot_table.pk, bot_table.pk])
    same_objects(found, list(build(bot_table.pk, bot_table.pk)))
    # the next call with distinct values compiles, and maps the parameters right
    found = compiled.select(key, build, [bot_table.pk, bot_table.version + bot_table.pk])
    same_objects(found, [Table.objects.get(pk=bot_table.pk)])
    assert compiled.select(key, build, [bot_table.pk, bot_table.version + bot_table.pk + 1]) == []


def test_each_thread_compiles_its_own_queries(bot_table):
    seen = []

    def read():
        compiled.select(("test_thread",), _seat_rows, [bot_table.pk])
        seen.append(compiled._local.cache[("test_thread",)])

    read()
    read()
    thread = threading.Thread(target=read)
    thread.start()
    thread.join()
    assert seen[0] is seen[1] and seen[2] is not seen[0]


def test_the_action_insert_writes_the_row_the_orm_writes(bot_table):
    hand = Hand.objects.get(match__table=bot_table)
    now = timezone.now()
    row = {"seq": 900, "seat": 2, "action": "2:discard:5p", "version": 77, "by_clock": True}
    orm = Action.objects.create(hand=hand, **row)
    written_values = {**row, "hand": hand.pk, "seq": 901, "created": orm.created}
    compiled.insert(Action, _ACTION_FIELDS, [written_values[name] for name in _ACTION_FIELDS])
    written = Action.objects.get(hand=hand, seq=901)
    expected = values(Action.objects.get(pk=orm.pk))
    assert {**values(written), "id": None, "seq": None} == {**expected, "id": None, "seq": None}
    assert orm.created <= timezone.now() and now <= orm.created


def test_an_update_by_keys_changes_the_rows_the_orm_changes(bot_table):
    """The stamp of a claim window's end on the answer logged last (games.store.release)."""
    hand = Hand.objects.get(match__table=bot_table)
    for seq, version in ((900, 50), (901, 51), (902, 51), (903, 52)):
        Action.objects.create(hand=hand, seq=seq, seat=1, action="1:pass", version=version)
    with CaptureQueriesContext(connection) as fast:
        changed = compiled.update_where(Action, ("version",), (60,), hand_id=hand.pk, version=51)
    assert changed == 2
    rows = Action.objects.filter(hand=hand, seq__gte=900).order_by("seq").values_list("version", flat=True)
    assert list(rows) == [50, 60, 60, 52]
    with CaptureQueriesContext(connection) as orm:
        assert Action.objects.filter(hand_id=hand.pk, version=51).update(version=60) == 0  # done already
    assert [q["sql"] for q in fast.captured_queries] == [q["sql"] for q in orm.captured_queries]
    assert compiled.update_where(Action, ("version",), (70,), hand_id=hand.pk, version=99) == 0


FIELDS = _STATE_FIELDS  # what a saved hand state writes (games/services/play.py)


def change(table: Table, hand) -> None:
    table.state = {"nested": [1, "二", None, {"x": 1.5}]}
    table.hand = hand
    table.version += 5
    table.deadline = timezone.now() + timedelta(seconds=3)
    table.turn_deadline = None
    table.changed = timezone.now()
    table.scores = [10, -5, -5, 0]
    table.dealer = 3
    table.huangfan = 2
    table.status = Table.Status.FINISHED


def test_saving_fields_writes_the_row_the_orm_writes(bot_table, room, alice):
    other = services.table_create(room_id=room.pk, user=alice)
    hand = Hand.objects.get(match__table=bot_table)
    for table, save in ((bot_table, None), (other, compiled.save_fields)):
        change(table, hand)
        table.deadline = bot_table.deadline
        table.changed = bot_table.changed
        if save is None:
            table.save(update_fields=FIELDS)
        else:
            save(table, FIELDS)
    a, b = values(Table.objects.get(pk=bot_table.pk)), values(Table.objects.get(pk=other.pk))
    assert a["state"] == {"nested": [1, "二", None, {"x": 1.5}]} and a["status"] == "finished"
    for name in FIELDS:
        if name != "version":  # each table keeps its own
            attname = Table._meta.get_field(name).attname
            assert a[attname] == b[attname], name
    assert b["version"] == other.version and b["room_id"] == other.room_id  # others untouched
    assert b["created"] == other.created and b["owner_id"] == alice.pk


def test_saving_none_writes_null(bot_table):
    bot_table.state = None
    bot_table.hand = None
    bot_table.deadline = None
    compiled.save_fields(bot_table, ("state", "hand", "deadline"))
    row = Table.objects.filter(pk=bot_table.pk).values("state", "hand_id", "deadline").get()
    assert row == {"state": None, "hand_id": None, "deadline": None}


def test_saving_a_row_that_is_gone_fails_like_save(bot_table):
    gone = Table.objects.get(pk=bot_table.pk)
    Table.objects.filter(pk=bot_table.pk).delete()
    with pytest.raises(DatabaseError):
        gone.save(update_fields=["version"])
    with pytest.raises(DatabaseError):
        compiled.save_fields(gone, ("version",))


def test_fields_that_are_no_columns_are_refused():
    with pytest.raises(RuntimeError):
        compiled.CompiledUpdate(Table, ("seats",))
    with pytest.raises(RuntimeError):
        compiled.CompiledInsert(Table, ("matches",))
