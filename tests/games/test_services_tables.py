"""Seating verbs: every refusal has its code and changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games import services
from games.models import Table
from games.services import ServiceError

pytestmark = pytest.mark.django_db


def refused(code: str, fn, **kwargs) -> None:
    with pytest.raises(ServiceError) as err:
        fn(**kwargs)
    assert err.value.code == code, err.value


def test_create_puts_the_creator_in_seat_zero_as_owner(room, alice):
    table = services.table_create(room_id=room.pk, user=alice)
    assert table.owner == alice and table.status == Table.Status.WAITING
    assert [s.user_id for s in table.seats.order_by("index")] == [alice.pk, None, None, None]
    refused("login_required", services.table_create, room_id=room.pk, user=AnonymousUser())
    refused("no_such_room", services.table_create, room_id=987654, user=alice)


def test_sit_refusals(room, alice, bob, make_user):
    table = services.table_create(room_id=room.pk, user=alice)
    version = Table.objects.get(pk=table.pk).version
    refused("already_seated", services.table_sit, table_id=table.pk, user=alice)
    refused("seat_taken", services.table_sit, table_id=table.pk, user=bob, seat=0)
    refused("no_such_seat", services.table_sit, table_id=table.pk, user=bob, seat=4)
    refused("no_such_seat", services.table_sit, table_id=table.pk, user=bob, seat="1")
    refused("no_such_table", services.table_sit, table_id=987654, user=bob)
    refused("no_such_table", services.table_sit, table_id="1", user=bob)
    refused("login_required", services.table_sit, table_id=table.pk, user=None)
    assert Table.objects.get(pk=table.pk).version == version
    assert services.table_sit(table_id=table.pk, user=bob, seat=3).index == 3
    for i in range(2):
        services.table_sit(table_id=table.pk, user=make_user(f"extra{i}"))
    refused("table_full", services.table_sit, table_id=table.pk, user=make_user("late"))


def test_fill_remove_and_start_refusals(room, alice, bob):
    table = services.table_create(room_id=room.pk, user=alice)
    refused("not_seated", services.table_fill_bots, table_id=table.pk, user=bob)
    refused("bad_bot_level", services.table_fill_bots, table_id=table.pk, user=alice, level="grandmaster")
    refused("seats_not_filled", services.table_start, table_id=table.pk, user=alice)
    assert services.table_fill_bots(table_id=table.pk, user=alice) == 3
    assert services.table_fill_bots(table_id=table.pk, user=alice) == 0
    services.table_remove_bot(table_id=table.pk, user=alice, seat=2)
    assert table.seats.get(index=2).is_empty
    refused("no_such_seat", services.table_remove_bot, table_id=table.pk, user=alice, seat=0)  # a person
    refused("no_such_seat", services.table_remove_bot, table_id=table.pk, user=alice, seat=2)  # empty now
    services.table_fill_bots(table_id=table.pk, user=alice)
    refused("not_seated", services.table_start, table_id=table.pk, user=bob)


def test_no_seat_changes_once_playing(bot_table, alice, bob):
    refused("table_not_waiting", services.table_sit, table_id=bot_table.pk, user=bob)
    refused("table_not_waiting", services.table_fill_bots, table_id=bot_table.pk, user=alice)
    refused("table_not_waiting", services.table_start, table_id=bot_table.pk, user=alice)
    refused("not_seated", services.table_stand, table_id=bot_table.pk, user=bob)


def test_every_change_bumps_the_version(room, alice, bob):
    table = services.table_create(room_id=room.pk, user=alice)
    seen = [Table.objects.get(pk=table.pk).version]
    services.table_sit(table_id=table.pk, user=bob)
    seen.append(Table.objects.get(pk=table.pk).version)
    services.table_stand(table_id=table.pk, user=bob)
    seen.append(Table.objects.get(pk=table.pk).version)
    services.table_fill_bots(table_id=table.pk, user=alice)
    seen.append(Table.objects.get(pk=table.pk).version)
    assert seen == sorted(set(seen))


def test_starting_a_match_tells_the_table_and_the_lobby_once(
    room, alice, monkeypatch, django_capture_on_commit_callbacks
):
    from games.services import broadcast

    table = services.table_create(room_id=room.pk, user=alice)
    services.table_fill_bots(table_id=table.pk, user=alice)
    sent = []
    monkeypatch.setattr(broadcast, "_send", lambda group, message: sent.append((group, message["type"])))
    with django_capture_on_commit_callbacks(execute=True):
        services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert sent == [
        (broadcast.table_updates_group(table.pk), "table.update"),
        (broadcast.LOBBY_GROUP, "lobby.update"),
    ]
