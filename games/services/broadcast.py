"""Telling the sockets that something changed — only after the transaction commits.

Messages carry no game content, only which table changed and its new version: each process with
sockets at the table then renders every socket's own viewer's fragments (ARCHITECTURE.md), so nothing
hidden can ride along and a lost message costs nothing but a later snapshot.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Protocol

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from games import compat

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    """The table's sockets (for messages between them, e.g. a presence check)."""
    return f"table-{table_id}"


def table_updates_group(table_id: int) -> str:
    """The processes with sockets at the table: one member per process (games/consumers.py's hub)."""
    return f"table-{table_id}-updates"


# Every process's socket hub (games/live/hub.py): told which person's sockets to close (logout,
# password change, ban). One membership per process, not one per socket.
USERS_GROUP = "table-users"


def close_user_sockets(user_id: int) -> None:
    """Tell every process to close this user's table sockets, now (`on_commit_close_user_sockets`
    inside a transaction)."""
    _send(USERS_GROUP, {"type": "user.close", "user_id": user_id})


def on_commit_send(group: str, message: dict) -> None:
    """Send `message` to `group` after the current transaction commits (for the apps above games
    with sockets of their own, e.g. the tournament page's)."""
    transaction.on_commit(lambda: _send(group, message))


def on_commit_close_user_sockets(user_id: int) -> None:
    transaction.on_commit(lambda: close_user_sockets(user_id))


_pending: set[asyncio.Task] = set()


def _send(group: str, message: dict) -> None:
    """Hand the message to the channel layer. From a worker thread of a running server the send is
    queued on the server's event loop and the thread goes on: waiting for the Redis round trip held
    the thread (one of a few) after every action. Messages may then leave in another order; they
    carry versions, and a socket never goes back to an older one. Elsewhere (no event loop to hand
    it to: a command, a test without one) it is sent and waited for.

    A failed send is logged, never raised: it runs after the commit, where raising would skip the
    other after-commit work (the clock's other tables, the rest of a request) while the change
    stands. Delivery is at most once anyway; sockets catch up from the database's version."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop()
    if loop is None:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:
            log.exception("group send to %s failed", group)
    else:
        loop.call_soon_threadsafe(_start_send, layer, group, message)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that called this worker thread through sync_to_async, if it still runs."""
    loop = compat.sync_to_async_caller_loop()
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop
    return None  # called on an event loop itself: async_to_sync refuses that anyway


class LocalReceiver(Protocol):
    """What takes a table update on this process's event loop before it goes to the channel layer
    (the socket hub, games/live/hub.py)."""

    def take(self, layer, message: dict) -> str | None:
        """Handle `message` if this process has sockets it concerns, and return the channel of
        `layer` those sockets are reached on in its group (None: nothing here; the message goes to
        the group)."""


# The receiver of each event loop (a test run has one loop per test).
_receivers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def receive_here(receiver: LocalReceiver) -> None:
    """Hand this event loop's table updates to `receiver` first: an update for sockets of this
    process reaches them without a round trip through the channel layer and back (a third of the
    live path's Redis work: bench/ws_load.py), and goes to the group's other members only."""
    _receivers[asyncio.get_running_loop()] = receiver


def _start_send(layer, group: str, message: dict) -> None:
    receiver = _receivers.get(asyncio.get_running_loop())
    taken = None
    if receiver is not None and message.get("type") == "table.update" and compat.can_send_to_others(layer):
        try:
            taken = receiver.take(layer, message)
        except Exception:  # the update then goes through the channel layer, as to any other process
            log.exception("table %s: handing the update over here failed", message.get("table_id"))
    if taken is None:
        send = layer.group_send(group, message)
    else:
        send = _send_to_others(layer, group, message, taken)
    task = asyncio.ensure_future(send)
    _pending.add(task)
    task.add_done_callback(_sent)


# Per channel layer, each table group's members as last read: {group: (read at, channels)}.
_members: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MAX_GROUPS = 10_000


async def _send_to_others(layer, group: str, message: dict, left_out: str) -> None:
    """An update the hub here has taken, to the group's other members: other processes with sockets
    at the table. With sockets routed by table there are none, and reading that from Redis on every
    action was the live path's costliest Redis call (bench/ws_load.py): the members are read again
    only when the last read is `GROUP_MEMBERS_TTL` seconds old. A process that joins the group
    meanwhile misses this process's updates until then; its hub catches its sockets up after twice
    that (games/live/hub.py, `catch_up`)."""
    ttl = float(settings.GROUP_MEMBERS_TTL)
    now = time.monotonic()
    known = _members.setdefault(layer, {})
    found = known.get(group)
    if found is not None and now - found[0] < ttl:
        members = found[1]
    else:
        members = await compat.group_members(layer, group)
        if ttl > 0:
            if len(known) >= _MAX_GROUPS:
                known.clear()
            known[group] = (now, members)
    await compat.send_to_channels(layer, [channel for channel in members if channel != left_out], message)


def forget_members() -> None:
    """Drop every group's members as read (tests start from none)."""
    _members.clear()


def _sent(task: asyncio.Task) -> None:
    _pending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.error("group send failed", exc_info=task.exception())


def on_commit_table_changed(table_id: int, version: int, *, lobby: bool = False) -> None:
    """Queue the table's update (and optionally the lobby's) for after the current commit. The
    version's snapshot (state, table and seats as committed) is already in the store's cache then:
    `store.save` keeps it on commit, before this, so the sockets here render that version without
    reading the table or the state back."""

    def send() -> None:
        _send(
            table_updates_group(table_id), {"type": "table.update", "table_id": table_id, "version": version}
        )
        if lobby:
            _send(LOBBY_GROUP, {"type": "lobby.update"})

    transaction.on_commit(send)


def on_commit_lobby_changed() -> None:
    transaction.on_commit(lambda: _send(LOBBY_GROUP, {"type": "lobby.update"}))


def on_commit_seated(seated: list[tuple[int, int]]) -> None:
    """After the commit, tell the lobby sockets that these (user id, table id) people were seated by
    quick start: each such person's lobby sockets send their browser to the table. (A lost message
    costs a click: the lobby then shows 回到牌桌.)"""
    pairs = [[user_id, table_id] for user_id, table_id in seated]
    transaction.on_commit(lambda: _send(LOBBY_GROUP, {"type": "lobby.seated", "seated": pairs}))
