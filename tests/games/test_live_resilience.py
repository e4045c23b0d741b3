"""The process's socket hub outlives any one socket or message (issue 24 item 1): a socket whose send
raises costs that socket only, a socket already closing is passed over quietly, and a listener that
ends is started again."""

from __future__ import annotations

import logging

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model

from games import services
from games.live import close_user_sockets
from games.live.hub import _UpdateHub, update_hub
from games.models import Room

from .helpers import start_match
from .test_live_users import closed_with
from .wsclient import Reader, connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quick_restarts(monkeypatch):
    monkeypatch.setattr(_UpdateHub, "restart_pause", 0, raising=False)


@database_sync_to_async
def two_tables():
    """Two started tables, alice alone at the first and bob at the second (bots elsewhere)."""
    room = Room.objects.create(name="resilience", bot_delay=0, claim_pause=0, bot_level="easy")
    table_ids, users = [], []
    for name in ("alice", "bob"):
        user = get_user_model().objects.create_user(username=name, password="pw-123456")
        table = services.table_create(room_id=room.pk, user=user)
        services.table_fill_bots(table_id=table.pk, user=user)
        start_match(table.pk)
        table_ids.append(table.pk)
        users.append(user)
    return table_ids, users


def socket_of(table_id: int):
    """The consumer behind the only socket open at the table (this test's event loop's hub)."""
    (socket,) = update_hub(get_channel_layer()).sockets[table_id]
    return socket


def break_sends(socket, error: Exception) -> None:
    """Every frame sent to the socket raises `error` (a close still goes through)."""
    original = socket.base_send

    async def send(message):
        if message["type"] == "websocket.send":
            raise error
        await original(message)

    socket.base_send = send


async def an_update_reaches(reader: Reader, table_id: int, user) -> None:
    """A change at the table (the player asks for 托管) is pushed to the reader's socket."""
    before = reader.version
    await database_sync_to_async(services.table_request_autoplay)(table_id=table_id, user=user)
    while reader.version <= before:
        await reader.next()


async def open_readers(table_ids, users) -> list[Reader]:
    readers = [Reader(await connect(f"/ws/table/{t}/", u)) for t, u in zip(table_ids, users, strict=True)]
    for reader in readers:
        await reader.next()
    return readers


async def test_a_socket_whose_send_raises_does_not_stop_updates_to_another_table(caplog):
    (table_a, table_b), (alice, bob) = await two_tables()
    a, b = await open_readers((table_a, table_b), (alice, bob))
    broken = socket_of(table_a)
    break_sends(broken, RuntimeError("the transport broke"))
    await database_sync_to_async(close_user_sockets)(alice.pk)  # its signed_out frame raises
    await an_update_reaches(b, table_b, bob)
    assert broken not in update_hub(get_channel_layer()).sockets.get(table_a, ())  # dropped
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]
    assert [
        f"table {table_a}" in r.getMessage() and f"user {alice.pk}" in r.getMessage() for r in failures
    ] == [True]
    await a.communicator.disconnect()
    await b.communicator.disconnect()


async def test_a_socket_already_closing_is_skipped_without_a_traceback(caplog):
    """The browser closed the socket while its log-out was posted: autobahn refuses the send."""
    (table_a, table_b), (alice, bob) = await two_tables()
    a, b = await open_readers((table_a, table_b), (alice, bob))
    break_sends(socket_of(table_a), Disconnected("Attempt to send on a closed protocol"))
    await database_sync_to_async(close_user_sockets)(alice.pk)
    await database_sync_to_async(close_user_sockets)(alice.pk)  # a second log-out at once
    await an_update_reaches(b, table_b, bob)
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    await a.communicator.disconnect()
    await b.communicator.disconnect()


async def test_one_failing_socket_does_not_keep_the_table_s_other_sockets_from_a_push():
    (table_a, _), (alice, _) = await two_tables()
    readers = [Reader(await connect(f"/ws/table/{table_a}/", alice)) for _ in range(3)]
    for reader in readers:
        await reader.next()
    sockets = list(update_hub(get_channel_layer()).sockets[table_a])
    for socket in sockets[:2]:
        break_sends(socket, RuntimeError("the transport broke"))
    before = readers[0].version
    await database_sync_to_async(services.table_request_autoplay)(table_id=table_a, user=alice)
    outcomes = sorted([await pushed_or_closed(reader, before) for reader in readers])
    assert outcomes == ["closed 1011", "closed 1011", "pushed"]
    for reader in readers:
        await reader.communicator.disconnect()


async def pushed_or_closed(reader: Reader, before: int) -> str:
    while True:
        output = await reader.communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return f"closed {output['code']}"
        reader.frames.append(output["text"])
        if reader.version > before:
            return "pushed"


async def test_a_listener_that_ends_is_started_again(monkeypatch):
    (table_a, table_b), (alice, bob) = await two_tables()
    hub = update_hub(get_channel_layer())
    real_listen, runs = hub._listen, []

    async def listen_that_ends_once():
        runs.append(1)
        if len(runs) == 1:
            raise RuntimeError("the listener broke")
        await real_listen()

    monkeypatch.setattr(hub, "_listen", listen_that_ends_once)
    a, b = await open_readers((table_a, table_b), (alice, bob))
    await an_update_reaches(b, table_b, bob)
    await database_sync_to_async(close_user_sockets)(alice.pk)
    assert await closed_with(a) == 4401
    assert len(runs) == 2
    await b.communicator.disconnect()


async def test_a_cancelled_listener_is_started_again_when_a_socket_joins():
    (table_a, table_b), (alice, bob) = await two_tables()
    (b,) = await open_readers((table_b,), (bob,))
    hub = update_hub(get_channel_layer())
    hub._listener.cancel()
    (a,) = await open_readers((table_a,), (alice,))
    await an_update_reaches(b, table_b, bob)
    await an_update_reaches(a, table_a, alice)
    await a.communicator.disconnect()
    await b.communicator.disconnect()
