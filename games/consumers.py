"""The websocket edge: authenticate, parse, call one service, push rendered fragments.

Group messages only say "table T is now at version V"; each consumer then renders its own viewer's
fragments (from `state.view(seat)`, or `view(None)` for a spectator), so a socket never receives
anything its viewer may not see.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games import clock, rendering
from games.services import (
    ServiceError,
    seat_connected,
    seat_disconnected,
    table_accept_stake,
    table_act,
    table_cancel_autoplay,
    table_next_hand,
    table_refuse_stake,
    table_set_stake,
    table_start,
)
from games.services.broadcast import LOBBY_GROUP, table_group, table_updates_group

log = logging.getLogger(__name__)

MAX_MESSAGE = 4096
# Platform commands (issue 4): {"command": name, ...}; each is one service call for the socket's user.
TABLE_COMMANDS = {
    "set_stake": table_set_stake,
    "accept_stake": table_accept_stake,
    "refuse_stake": table_refuse_stake,
    "start": table_start,
    "cancel_autoplay": table_cancel_autoplay,
}


def csrf_cookie(scope) -> str | None:
    return (scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME)


def _now() -> float:
    return time.monotonic()


class _RateLimit:
    """A token bucket per table socket: `TABLE_SOCKET_BURST` messages at once, then
    `TABLE_SOCKET_RATE` a second (a person clicks far less often). A message beyond it is refused
    with an error and never reaches a service, so one client cannot keep a table's row lock and the
    worker threads busy."""

    __slots__ = ("burst", "rate", "tokens", "stamp")

    def __init__(self) -> None:
        self.burst = float(settings.TABLE_SOCKET_BURST)
        self.rate = float(settings.TABLE_SOCKET_RATE)
        self.tokens = self.burst
        self.stamp = _now()

    def take(self) -> bool:
        now = _now()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class _UpdateHub:
    """This process's listener for table updates (one per event loop).

    An update reaches a process once, on the hub's channel in the table's updates group, rather than
    once per socket (four or more channel-layer messages per action, each received and dispatched
    on its own). The hub renders the announced version for all of the table's sockets here in one
    worker-thread hop from one read (`rendering.render_for_viewers`) and pushes each its own frame.
    """

    def __init__(self, layer) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.sockets: dict[int, set[TableConsumer]] = {}
        self._starting = asyncio.Lock()
        self._tasks: set[asyncio.Task] = set()

    async def join(self, socket: TableConsumer) -> None:
        async with self._starting:
            if self.channel is None:
                # The default prefix: channels_redis reads all of a process's channels from one list.
                self.channel = await self.layer.new_channel()
                self._spawn(self._listen(), "table-updates")
        self.sockets.setdefault(socket.table_id, set()).add(socket)
        # Also for a table already listened to: it renews the membership's expiry.
        await self.layer.group_add(table_updates_group(socket.table_id), self.channel)

    async def leave(self, socket: TableConsumer) -> None:
        mine = self.sockets.get(socket.table_id)
        if mine is None or socket not in mine:
            return
        mine.discard(socket)
        if not mine:
            del self.sockets[socket.table_id]
            group = table_updates_group(socket.table_id)
            await self.layer.group_discard(group, self.channel)
            if socket.table_id in self.sockets:  # a socket of the table joined meanwhile
                await self.layer.group_add(group, self.channel)

    def _spawn(self, coroutine, name: str) -> None:
        task = asyncio.get_running_loop().create_task(coroutine, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except Exception:  # the channel layer went away for a moment: sockets catch up later
                log.exception("table updates: receiving failed")
                await asyncio.sleep(1)
                continue
            if message.get("type") == "table.update":
                table_id, version = message.get("table_id"), message.get("version", 0)
                self._spawn(self.push(table_id, version), f"table-update-{table_id}")

    async def push(self, table_id: int, announced: int) -> None:
        """Push version `announced` to the table's sockets here that have not got it (or a newer one)
        and are not about to."""
        table_sockets = self.sockets.get(table_id)
        if not table_sockets:
            return
        sockets = [s for s in table_sockets if s.version < announced and s.pushing < announced]
        if not sockets:
            return
        for socket in sockets:
            socket.pushing = announced
        try:
            # A read-only render may run on any worker thread: thread-sensitive calls all share one
            # thread per process, which made every render wait in a single queue (bench/ws_load.py).
            frames = await database_sync_to_async(rendering.render_for_viewers, thread_sensitive=False)(
                table_id, [(s.user, s.csrf_token) for s in sockets], announced, sockets[0].table_created
            )
        except Exception:  # as if each socket's render had failed: they reconnect and get a snapshot
            log.exception("table %s: rendering version %s failed", table_id, announced)
            for socket in sockets:
                if socket in table_sockets:
                    await socket.close(code=1011)
            return
        for socket, (version, html) in zip(sockets, frames, strict=True):
            if version > socket.version and socket in self.sockets.get(table_id, ()):
                socket.version = version
                await socket.send(text_data=html)


_hubs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def live_seat_pairs() -> set[tuple[int, int]]:
    """(table id, user id) of every signed-in socket open in this process: what its clock vouches
    for (`clock.presence_round`)."""
    return {
        (table_id, socket.user.pk)
        for hub in list(_hubs.values())
        for table_id, sockets in list(hub.sockets.items())
        for socket in list(sockets)
        if socket.user is not None and socket.user.is_authenticated
    }


def update_hub(layer) -> _UpdateHub:
    """The running event loop's hub (a test run has one loop per test)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.layer is not layer:
        hub = _hubs[loop] = _UpdateHub(layer)
    return hub


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.version = -1
        self.pushing = -1  # the newest version a render in flight will push to this socket
        self.rate = _RateLimit()
        # One masked token per socket: it stays valid for the socket's life, and frames stay stable.
        self.csrf_token = rendering.csrf_token_for(csrf_cookie(self.scope))
        self.table_created = await database_sync_to_async(rendering.table_created)(self.table_id)
        if self.table_created is None:
            await self.close(code=4404)
            return
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # Listening before the snapshot below: an update committed after it is pushed, one
        # committed before it is in the snapshot.
        self.hub = update_hub(self.channel_layer)
        await self.hub.join(self)
        clock.ensure_started()
        await database_sync_to_async(seat_connected)(table_id=self.table_id, user=self.user)
        await self.send_snapshot()

    async def disconnect(self, code) -> None:
        if hasattr(self, "group"):
            if hasattr(self, "hub"):
                await self.hub.leave(self)
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await database_sync_to_async(seat_disconnected)(table_id=self.table_id, user=self.user)
            if self.user is not None and self.user.is_authenticated:
                # The same person may still have this table open elsewhere (another tab or device):
                # those sockets answer by marking the seat connected again (see `presence_check`).
                await self.channel_layer.group_send(
                    self.group, {"type": "presence.check", "user_id": self.user.pk}
                )

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if not self.rate.take():
            await self.send(text_data=rendering.render_error(ServiceError("too_fast")))
            return
        try:
            message = self._parse(text_data)
            command = message.get("command")
            if command in TABLE_COMMANDS:
                await database_sync_to_async(TABLE_COMMANDS[command])(
                    table_id=self.table_id, user=self.user, **self._command_args(command, message)
                )
            elif message.get("command") == "next_hand":
                await database_sync_to_async(table_next_hand)(
                    table_id=self.table_id, user=self.user, version=message.get("version")
                )
            elif message.get("command") == "snapshot":
                await self.send_snapshot(force=True)
            else:
                action = message.get("action")
                if action is None:
                    action = {"kind": message.get("kind"), "tile": message.get("tile")}
                # Not thread-sensitive: the service locks its table row, so actions at different
                # tables need not queue behind one thread per process (bench/ws_load.py).
                await database_sync_to_async(table_act, thread_sensitive=False)(
                    table_id=self.table_id, user=self.user, action=action, version=message.get("version")
                )
        except ServiceError as error:
            await self.send(text_data=rendering.render_error(error))
        except Exception:  # a bug must not cost the player their socket; nothing was committed
            log.exception("table %s: unexpected error handling a message", self.table_id)
            await self.send(text_data=rendering.render_error(ServiceError("server_error")))

    @staticmethod
    def _command_args(command: str, message: dict) -> dict:
        return {"stake": message.get("stake")} if command == "set_stake" else {}

    @staticmethod
    def _parse(text_data) -> dict:
        if not isinstance(text_data, str) or len(text_data) > MAX_MESSAGE:
            raise ServiceError("bad_action")
        try:
            message = json.loads(text_data)
        except ValueError as exc:
            raise ServiceError("bad_action") from exc
        if not isinstance(message, dict):
            raise ServiceError("bad_action")
        return message

    async def presence_check(self, event) -> None:
        """Another socket of this socket's person closed: this one is still here, so they are not away."""
        if self.user is not None and self.user.is_authenticated and event.get("user_id") == self.user.pk:
            await database_sync_to_async(seat_connected)(table_id=self.table_id, user=self.user)
            await self.send_snapshot(force=True)

    async def dispatch(self, message) -> None:
        """Channels closes stale database connections before every handler, through a hop to the one
        thread-sensitive worker thread. An action's message touches the database only inside
        `database_sync_to_async`, which closes stale connections itself, so it skips that hop;
        everything else is dispatched as usual."""
        if message.get("type") == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    async def send_snapshot(self, force: bool = False) -> None:
        [(version, html)] = await database_sync_to_async(
            rendering.render_for_viewers, thread_sensitive=False
        )(self.table_id, [(self.user, self.csrf_token)])
        if force or version > self.version:
            self.version = version
            await self.send(text_data=html)


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.user = self.scope.get("user")
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        clock.ensure_started()
        await self.lobby_update({})

    async def disconnect(self, code) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        """The lobby is read-only over the socket; forms post over HTTP with CSRF."""

    async def lobby_update(self, event) -> None:
        html = await database_sync_to_async(rendering.render_lobby_fragment)(
            self.user, csrf_cookie(self.scope)
        )
        await self.send(text_data=html)
