"""games.compat: the library internals the hot path relies on (issue 25). Each test pins exactly the
behaviour the project uses, so that an upgrade of Django, asgiref, Channels or Jinja2 that changes
one of them fails here, by name, rather than on the site."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta
from decimal import Decimal

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer
from django.db import connection
from django.template import engines
from django.utils import timezone, translation

from games import compat, services
from games.models import Action, Room, Seat, Table

SEAT_USER = Seat.user.field


@pytest.fixture
def table(db, alice):
    """A started table: alice in seat 0, bots elsewhere."""
    room = Room.objects.create(
        name="Compat room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy"
    )
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_fill_bots(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table


def values(obj) -> dict:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


# --- asgiref: the loop that runs a sync_to_async worker -----------------------------------------


@pytest.mark.parametrize("wrap", [sync_to_async, database_sync_to_async], ids=["sync_to_async", "channels"])
async def test_a_sync_to_async_worker_knows_the_loop_that_awaits_it(wrap):
    found = await wrap(compat.sync_to_async_caller_loop)()
    assert found is asyncio.get_running_loop()


def test_a_thread_that_sync_to_async_did_not_start_has_no_caller_loop():
    found = []
    worker = threading.Thread(target=lambda: found.append(compat.sync_to_async_caller_loop()))
    worker.start()
    worker.join()
    assert found == [None]


def test_a_loop_recorded_in_another_process_is_not_the_callers():
    found = []

    def forked_child_view():
        # What a forked child sees in a thread its parent's sync_to_async started: the parent's pid.
        SyncToAsync.threadlocal.main_event_loop = asyncio.new_event_loop()
        SyncToAsync.threadlocal.main_event_loop_pid = -1
        try:
            found.append(compat.sync_to_async_caller_loop())
        finally:
            SyncToAsync.threadlocal.main_event_loop.close()

    worker = threading.Thread(target=forked_child_view)
    worker.start()
    worker.join()
    assert found == [None]


# --- Django: a related object in a field's cache ------------------------------------------------


def test_a_row_read_without_its_user_has_none_cached(table):
    seat = Seat.objects.get(table=table, index=0)
    assert compat.related_cached(SEAT_USER, seat) == (False, None)


def test_select_related_caches_the_user(table, alice, django_assert_num_queries):
    seat = Seat.objects.select_related("user").get(table=table, index=0)
    with django_assert_num_queries(0):
        cached, user = compat.related_cached(SEAT_USER, seat)
        assert cached and user == alice and user is seat.user


def test_a_cached_user_is_read_without_a_query(table, alice, django_assert_num_queries):
    seat = Seat.objects.get(table=table, index=0)
    compat.cache_related(SEAT_USER, seat, alice)
    with django_assert_num_queries(0):
        assert seat.user is alice
        assert compat.related_cached(SEAT_USER, seat) == (True, alice)


# --- Django: compiled SQL and rows turned into model instances ----------------------------------


def run(statement: compat.SelectStatement, params) -> list:
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, params)
        return statement.instances(cursor.fetchall())


def test_a_select_statement_reads_what_the_orm_reads_with_its_related_objects(
    table, alice, django_assert_num_queries
):
    queryset = Seat.objects.select_related("user", "table__room").filter(table_id=table.pk).order_by("index")
    statement = compat.SelectStatement(queryset)
    assert statement.model is Seat
    assert statement.params == [table.pk]
    found = run(statement, statement.params)
    expected = list(queryset)
    assert [values(seat) for seat in found] == [values(seat) for seat in expected]
    assert all(not seat._state.adding and seat._state.db == "default" for seat in found)
    with django_assert_num_queries(0):
        assert [seat.user for seat in found] == [alice, None, None, None]
        assert {seat.table.room.name for seat in found} == {"Compat room"}
        assert values(found[0].table) == values(expected[0].table)


def test_a_select_statement_runs_again_with_new_parameters(table):
    statement = compat.SelectStatement(Seat.objects.filter(table_id=table.pk, index=0))
    assert sorted(statement.params) == sorted([table.pk, 0])
    other = [3 if p == 0 else p for p in statement.params]
    (found,) = run(statement, other)
    assert found.index == 3 and found.table_id == table.pk


def test_a_datetime_parameter_is_compiled_as_prepare_lookup_value_prepares_it(table):
    moment = timezone.now() + timedelta(minutes=5)
    statement = compat.SelectStatement(Table.objects.filter(pk=table.pk, deadline__lte=moment))
    assert compat.prepare_lookup_value(moment, connection) in statement.params
    assert compat.prepare_lookup_value(7, connection) == 7
    assert compat.prepare_lookup_value("playing", connection) == "playing"


def test_the_insert_sql_takes_one_parameter_per_field_and_returns_nothing(table):
    names = ("hand", "seq", "seat", "action", "version", "by_clock", "created")
    fields = [Action._meta.get_field(name) for name in names]
    sql, params = compat.insert_sql(Action, fields)
    assert "RETURNING" not in sql.upper()
    assert sql.count("%s") == len(params) == len(fields)
    moment = timezone.now()
    assert table.hand_id is not None
    row = [table.hand_id, 999, 2, "2:discard:5p", 12345, True, moment]
    with connection.cursor() as cursor:
        cursor.execute(sql, [f.get_db_prep_save(v, connection) for f, v in zip(fields, row, strict=True)])
    written = Action.objects.get(hand_id=table.hand_id, seq=999)
    assert [getattr(written, f.attname) for f in fields] == row


def test_the_update_sql_takes_the_fields_in_order_and_the_key_last(table):
    seat = Seat.objects.get(table=table, index=1)
    fields = [Seat._meta.get_field(name) for name in ("connected", "ready", "seen")]
    sql, params = compat.update_sql(Seat, fields)
    assert params == [0, 1, 2, 3]
    assert sql.count("%s") == 4
    moment = timezone.now()
    row = [True, True, moment]
    with connection.cursor() as cursor:
        cursor.execute(
            sql, [f.get_db_prep_save(v, connection) for f, v in zip(fields, row, strict=True)] + [seat.pk]
        )
        assert cursor.rowcount == 1
    seat.refresh_from_db()
    assert (seat.connected, seat.ready, seat.seen) == (True, True, moment)


def test_the_update_sql_takes_other_keys_after_the_fields(table):
    seat = Seat.objects.get(table=table, index=2)
    fields = [Seat._meta.get_field("ready")]
    sql, params = compat.update_sql(Seat, fields, ("table", "index"))
    assert params == [0, 1, 2]
    assert sql.count("%s") == 3
    with connection.cursor() as cursor:
        cursor.execute(sql, [True, table.pk, 2])
        assert cursor.rowcount == 1
    seat.refresh_from_db()
    assert seat.ready


# --- Django: a language's catalogue --------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("message", ["账户", "牌桌", "This field is required."])
def test_a_catalogue_translates_as_the_active_language_does(compiled, language, message):
    with translation.override(language):
        expected = translation.gettext(message)
    assert compat.catalogue_gettext(language)(message) == expected


def test_the_english_catalogue_holds_the_projects_and_djangos_strings(compiled):
    gettext = compat.catalogue_gettext("en")
    assert gettext("账户") != "账户"
    assert compat.catalogue_gettext("zh-hans")("This field is required.") != "This field is required."


# --- Jinja2: a compiled template rendered on a context of its variables -------------------------


def test_rendering_with_the_globals_given_is_what_render_gives():
    env = engines["jinja2"].env
    template = env.from_string(
        "{{ greeting }} {{ text }} {% for t in tiles %}{{ t }},{% endfor %}{% if Phase %}P{% endif %}"
        "{% set n = tiles|length %}{{ n }}",
        globals={"greeting": "你好"},
    )
    variables = {"text": "<b>", "tiles": ["1m", "5p"]}
    expected = template.render(variables)
    assert "&lt;b&gt;" in expected and expected.startswith("你好") and "P" in expected
    assert compat.render_template(template, {**template.globals, **variables}) == expected


def test_rendering_takes_no_globals_but_the_ones_given():
    """The caller passes the globals itself (rendering.py keeps them as a plain dict): the context is
    made of the given variables alone."""
    env = engines["jinja2"].env
    template = env.from_string("[{{ greeting }}]", globals={"greeting": "你好"})
    assert compat.render_template(template, {}) == "[]"
    assert compat.render_template(template, {"greeting": "hi"}) == "[hi]"


# --- Channels: a group send that leaves one channel out ------------------------------------------


async def sends_to_the_group_but_the_one_left_out(layer) -> None:
    """`group_send_to_others` reaches every member of the group but the one left out; that one
    finds nothing before a message sent to it afterwards. Also run on Redis by the multi-process
    suite (tests/multiprocess/test_channel_layer.py)."""
    assert compat.can_send_to_others(layer)
    group = f"compat-{id(layer)}"
    first, left_out, last = [await layer.new_channel() for _ in range(3)]
    for channel in (first, left_out, last):
        await layer.group_add(group, channel)
    assert await compat.group_send_to_others(layer, group, {"type": "x.update", "n": 1}, left_out) == 2
    for channel in (first, last):
        assert await asyncio.wait_for(layer.receive(channel), 10) == {"type": "x.update", "n": 1}
    await layer.send(left_out, {"type": "x.mark"})
    assert await asyncio.wait_for(layer.receive(left_out), 10) == {"type": "x.mark"}
    await layer.group_discard(group, first)
    assert await compat.group_send_to_others(layer, group, {"type": "x.update", "n": 2}, left_out) == 1


async def test_a_group_send_leaves_one_channel_out_on_the_in_memory_layer():
    await sends_to_the_group_but_the_one_left_out(InMemoryChannelLayer())


async def test_an_expired_member_is_dropped_as_group_send_drops_it():
    layer = InMemoryChannelLayer(group_expiry=-1)  # every membership is older than that
    await layer.group_add("compat-expired", "member")
    assert await compat.group_send_to_others(layer, "compat-expired", {"type": "x.update"}, "other") == 0


def test_the_pub_sub_layer_is_not_one_whose_groups_are_known():
    from channels_redis.pubsub import RedisPubSubChannelLayer

    assert not compat.can_send_to_others(RedisPubSubChannelLayer())
