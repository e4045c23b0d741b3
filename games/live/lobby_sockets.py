"""This process's open lobby sockets, and how lobby messages reach them.

One listener per process (per event loop) is the process's member of the lobby group: a change of
the lobby is one channel-layer message per process, not one per open lobby (hundreds of people
waiting in the pools would otherwise be hundreds of messages per join), and it is handed to every
lobby socket here. The same listener hands quick start's "these people were seated" to the sockets
of those people.

By person, the open sockets are also what this process's clock vouches for in the pools
(`clock.pairing_step` → `pairing.pool_vouch`): a person waits in a pool only while a lobby of theirs
is open somewhere. And the sockets share one lobby snapshot per change (`snapshot_after`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from typing import Any

from games import selectors
from games.live.supervision import supervised
from games.services.broadcast import LOBBY_GROUP

log = logging.getLogger(__name__)


class _LobbyHub:
    """The process's lobby listener (one per event loop) and its open lobby sockets."""

    restart_pause = 1.0

    def __init__(self, layer) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.sockets: weakref.WeakSet = weakref.WeakSet()
        self._starting = asyncio.Lock()
        self._listener: asyncio.Task | None = None

    async def join(self, socket: Any) -> None:
        async with self._starting:
            if self.channel is None:
                self.channel = await self.layer.new_channel()
                await self.layer.group_add(LOBBY_GROUP, self.channel)
            if self._listener is None or self._listener.done():
                listen = supervised(self._listen, name="lobby listener", pause=self.restart_pause)
                self._listener = asyncio.get_running_loop().create_task(listen, name="lobby-listener")
        self.sockets.add(socket)

    def leave(self, socket: Any) -> bool:
        """Forget the socket; True when its person has no other lobby socket open here."""
        self.sockets.discard(socket)
        user_id = _user_id(socket)
        return user_id is not None and all(_user_id(other) != user_id for other in list(self.sockets))

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except Exception:  # the channel layer went away for a moment: the next change catches up
                log.exception("lobby: receiving failed")
                await asyncio.sleep(self.restart_pause)
                continue
            for socket in list(self.sockets):
                try:
                    if message.get("type") == "lobby.update":
                        await socket.lobby_update(message)
                    elif message.get("type") == "lobby.seated":
                        await socket.lobby_seated(message)
                except Exception:
                    log.exception("lobby: handing %r to a socket failed", message.get("type"))


_hubs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def lobby_hub(layer) -> _LobbyHub:
    """The running event loop's lobby hub (a test run has one loop per test)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.layer is not layer:
        hub = _hubs[loop] = _LobbyHub(layer)
    return hub


def lobby_user_ids() -> set[int]:
    """The signed-in people with a lobby socket open in this process."""
    return {
        user_id
        for hub in list(_hubs.values())
        for socket in list(hub.sockets)
        if (user_id := _user_id(socket)) is not None
    }


def _user_id(socket: Any) -> int | None:
    user = getattr(socket, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


_snapshot_lock = threading.Lock()
_snapshot: selectors.LobbySnapshot | None = None


def snapshot_after(moment: float) -> selectors.LobbySnapshot:
    """A lobby snapshot whose reading began after `moment` (time.monotonic()): the latest one when it
    is recent enough, else a new one. A change reaches every lobby socket of the process at about
    the same moment: the first to render reads the snapshot and the others render from it, so the
    process reads the lobby once per change instead of once per socket. (Called on worker threads.)"""
    global _snapshot
    with _snapshot_lock:
        if _snapshot is None or _snapshot.taken < moment:
            _snapshot = selectors.lobby_snapshot()
        return _snapshot
