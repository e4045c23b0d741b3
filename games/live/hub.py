"""This process's fan-out of table updates to its sockets (one hub per event loop)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async

from games.presentation import rendering
from games.services.broadcast import USERS_GROUP, table_updates_group

if TYPE_CHECKING:
    from games.live.consumers import TableConsumer

log = logging.getLogger(__name__)


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
        self._users_renewal = float("-inf")
        # Notified after every push: what a socket shows may have moved on without a frame (tests wait
        # on it, tests/games/wsclient.py).
        self.pushed = asyncio.Condition()

    async def join(self, socket: TableConsumer) -> None:
        async with self._starting:
            if self.channel is None:
                # The default prefix: channels_redis reads all of a process's channels from one list.
                self.channel = await self.layer.new_channel()
                self._spawn(self._listen(), "table-updates")
            if asyncio.get_running_loop().time() >= self._users_renewal:
                # One membership per process, renewed hourly (not one Redis call per socket).
                await self.layer.group_add(USERS_GROUP, self.channel)
                self._users_renewal = asyncio.get_running_loop().time() + 3600
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
            if message.get("type") == "user.close":
                await self.close_user(message.get("user_id"))
            elif message.get("type") == "table.update":
                table_id, version = message.get("table_id"), message.get("version", 0)
                self._spawn(self.push(table_id, version), f"table-update-{table_id}")

    async def close_user(self, user_id) -> None:
        """Close this process's table sockets of one person (logout, password change, ban)."""
        mine = [
            socket
            for sockets in list(self.sockets.values())
            for socket in list(sockets)
            if socket.user is not None and socket.user.is_authenticated and socket.user.pk == user_id
        ]
        for socket in mine:
            await socket.user_close({})

    async def push(self, table_id: int, announced: int) -> None:
        """Bring the table's sockets here that have not got version `announced` (or a newer one), and
        are not about to, to what they show at that version: each gets the regions that changed for
        it, or nothing at all when nothing it shows did (a claim answered by another seat)."""
        table_sockets = self.sockets.get(table_id)
        if not table_sockets:
            return
        sockets = [s for s in table_sockets if s.version < announced and s.pushing < announced]
        if not sockets:
            return
        for socket in sockets:
            socket.pushing = announced
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
                sockets[0].table_created,
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
            socket.version, socket.screen = screen.version, screen
            if html:
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
