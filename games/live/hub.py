"""This process's fan-out of table updates to its sockets (one hub per event loop)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.conf import settings

from games.live import users
from games.live.supervision import supervised
from games.presentation import rendering
from games.services import broadcast
from games.services.broadcast import USERS_GROUP, table_updates_group

log = logging.getLogger(__name__)


class Viewer(Protocol):
    """What the hub needs of a table socket (`games.live.consumers.Viewer` is one): the hub
    does not import the consumers, which import it."""

    table_id: int
    table_created: Any
    user: Any
    session_key: str | None
    closing: bool
    csrf_token: str | None
    language: str
    version: int
    pushing: int

    async def user_close(self, message: dict) -> None: ...

    async def close(self, code: int | None = None) -> None: ...

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None: ...


class _UpdateHub:
    """This process's listener for table updates (one per event loop).

    An update reaches a process once, on the hub's channel in the table's updates group, rather than
    once per socket (four or more channel-layer messages per action, each received and dispatched
    on its own). The hub renders the announced version for all of the table's sockets here in one
    worker-thread hop from one read (`rendering.render_for_viewers`) and pushes each its own frame.
    An update made in this process for sockets here does not go through the channel layer at all:
    the broadcast hands it to `take` on this event loop and sends it to the group's other members
    only (with sockets routed by table, that is every update a person makes).

    The listener is the process's only way to hear of other processes' updates, log-outs and bans,
    so nothing one message or one socket does may end it: each message is handled under its own
    guard (a socket that fails is dropped, `delivery.GuardedSends`), and a supervisor restarts the
    listener if it ends all the same; a socket joining also restarts it if it was cancelled.
    """

    # Seconds between a listener's end and its restart (tests shorten it).
    restart_pause = 1.0

    def __init__(self, layer) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.sockets: dict[int, set[Viewer]] = {}
        self._starting = asyncio.Lock()
        self._tasks: set[asyncio.Task] = set()
        self._listener: asyncio.Task | None = None
        self._sweeper: asyncio.Task | None = None
        self._users_renewal = float("-inf")
        # Notified after every push: what a socket shows may have moved on without a frame (tests wait
        # on it, tests/games/wsclient.py).
        self.pushed = asyncio.Condition()

    async def join(self, socket: Viewer) -> None:
        async with self._starting:
            if self.channel is None:
                # The default prefix: channels_redis reads all of a process's channels from one list.
                self.channel = await self.layer.new_channel()
                broadcast.receive_here(self)
            if self._listener is None or self._listener.done():
                listen = supervised(self._listen, name="table updates listener", pause=self.restart_pause)
                self._listener = asyncio.get_running_loop().create_task(listen, name="table-updates")
            if settings.SOCKET_SESSION_SWEEP and (self._sweeper is None or self._sweeper.done()):
                sweep = supervised(self._sweep_sessions, name="session sweep", pause=self.restart_pause)
                self._sweeper = asyncio.get_running_loop().create_task(sweep, name="session-sweep")
            if asyncio.get_running_loop().time() >= self._users_renewal:
                # One membership per process, renewed hourly (not one Redis call per socket).
                await self.layer.group_add(USERS_GROUP, self.channel)
                self._users_renewal = asyncio.get_running_loop().time() + 3600
        first = socket.table_id not in self.sockets
        self.sockets.setdefault(socket.table_id, set()).add(socket)
        # Also for a table already listened to: it renews the membership's expiry.
        await self.layer.group_add(table_updates_group(socket.table_id), self.channel)
        if first and settings.GROUP_MEMBERS_TTL > 0:
            delay = 2 * float(settings.GROUP_MEMBERS_TTL)
            self._spawn(self.catch_up(socket.table_id, delay), f"table-catch-up-{socket.table_id}")

    async def leave(self, socket: Viewer) -> None:
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
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed", task.get_name(), exc_info=task.exception())

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except Exception:  # the channel layer went away for a moment: sockets catch up later
                log.exception("table updates: receiving failed")
                await asyncio.sleep(self.restart_pause)
                continue
            try:
                await self._handle(message)
            except Exception:
                log.exception("table updates: handling %r failed", message)

    async def _handle(self, message: dict) -> None:
        if message.get("type") == "user.close":
            await self.close_user(message.get("user_id"))
        elif message.get("type") == "table.update":
            self._handle_update(message)

    def _handle_update(self, message: dict) -> None:
        table_id, version = message.get("table_id"), message.get("version", 0)
        self._spawn(self.push(table_id, version), f"table-update-{table_id}")

    def take(self, layer, message: dict) -> str | None:
        """A table update sent from this process (`broadcast.receive_here`): pushed to the table's
        sockets here at once; the hub's channel is returned, so the group send leaves it out."""
        if layer is not self.layer or self.channel is None or message.get("table_id") not in self.sockets:
            return None
        self._handle_update(message)
        return self.channel

    async def close_user(self, user_id) -> None:
        """Close this process's table sockets of one person (logout, password change, ban).
        A socket already closing (a second log-out, a browser closing its sockets) is skipped; one
        that fails is logged and dropped, and the others are closed all the same."""
        await self._close_signed_out(
            [s for s in self._signed_in_sockets() if s.user.pk == user_id], f"user {user_id}"
        )

    async def sweep_sessions(self) -> None:
        """Close the sockets here whose session no longer signs their person in: a log-out, password
        change, deletion or ban whose close message was lost (the channel layer delivers at most
        once) closes them within `SOCKET_SESSION_SWEEP` seconds all the same."""
        sockets = self._signed_in_sockets()
        if not sockets:
            return
        ended = await database_sync_to_async(users.signed_out, thread_sensitive=False)(
            {(s.session_key, s.user.pk) for s in sockets}
        )
        await self._close_signed_out([s for s in sockets if (s.session_key, s.user.pk) in ended], "a sweep")

    async def _sweep_sessions(self) -> None:
        while True:
            await asyncio.sleep(settings.SOCKET_SESSION_SWEEP)
            await self.sweep_sessions()

    def _signed_in_sockets(self) -> list[Viewer]:
        return [
            socket
            for sockets in list(self.sockets.values())
            for socket in list(sockets)
            if not socket.closing and socket.user is not None and socket.user.is_authenticated
        ]

    async def _close_signed_out(self, sockets: list[Viewer], why: str) -> None:
        for socket in sockets:
            try:
                await socket.user_close({})
            except Exception:
                log.exception("table %s, %s: closing the socket failed", socket.table_id, why)
                await socket.drop()

    async def catch_up(self, table_id: int, delay: float) -> None:
        """This process has just joined the table's updates: another process that read the group's
        members before may send it nothing for up to `GROUP_MEMBERS_TTL` seconds (games/services/
        broadcast.py). After `delay` (twice that), the table's sockets here are brought to the table
        as the database has it (most often they have it already: then nothing is sent)."""
        await asyncio.sleep(delay)
        await self.push(table_id, None)

    async def push(self, table_id: int, announced: int | None) -> None:
        """Bring the table's sockets here that have not got version `announced` (or a newer one), and
        are not about to, to what they show at that version: each gets the regions that changed for
        it, or nothing at all when nothing it shows did (a claim answered by another seat).
        `announced` None: every socket of the table, to the version the database has now."""
        table_sockets = self.sockets.get(table_id)
        if not table_sockets:
            return
        if announced is None:
            sockets = [s for s in table_sockets if not s.closing]
        else:
            sockets = [s for s in table_sockets if s.version < announced and s.pushing < announced]
            for socket in sockets:
                socket.pushing = announced
        if not sockets:
            return
        shown = [socket.screen for socket in sockets]
        try:
            # A read-only render may run on any worker thread: thread-sensitive calls all share one
            # thread per process, which made every render wait in a single queue (bench/ws_load.py).
            frames = await database_sync_to_async(rendering.render_for_viewers, thread_sensitive=False)(
                table_id,
                [
                    (s.user, s.csrf_token, s.language, screen)
                    for s, screen in zip(sockets, shown, strict=True)
                ],
                announced,
                sockets[0].table_created if announced is not None else None,
            )
        except Exception:  # as if each socket's render had failed: they reconnect and get a snapshot
            log.exception("table %s: rendering version %s failed", table_id, announced)
            for socket in sockets:
                if socket in table_sockets:
                    await socket.close(code=1011)
            return
        for socket, before, (screen, html) in zip(sockets, shown, frames, strict=True):
            if (
                screen is None
                or screen.version <= socket.version
                or socket not in self.sockets.get(table_id, ())
            ):
                continue
            if socket.screen is not before:  # a snapshot went out meanwhile: the difference from it
                html = rendering.frame(socket.screen, screen)
            socket.version = screen.version
            if html:
                # What it shows is what the last frame brought: the next frame's `data-from` is that
                # frame's version, never one it was not sent (a claim answered by another seat).
                socket.screen = screen
                await socket.send(text_data=html)
        async with self.pushed:
            self.pushed.notify_all()


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
