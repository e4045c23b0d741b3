"""A scripted player: one real websocket connection to `/ws/table/<id>/` on one daphne process.

It logs in with a Django session cookie (made in the database by `seed.py`), sends the Origin header
the server's `AllowedHostsOriginValidator` expects, and records every frame it receives with the
table version the frame carries. A frame carries only the regions that changed for the socket, so
the client also keeps the page they make (`last_frame`: what the browser would show).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from dataclasses import dataclass, field

import websockets

from tests.framepage import Page
from tests.multiprocess import frames

VERSION_RE = re.compile(r'id="frame-stamp"[^>]*data-version="(\d+)"')


def frame_version(frame: str) -> int | None:
    """The table version a server frame carries (None for frames without one, e.g. an error)."""
    match = VERSION_RE.search(frame)
    return int(match.group(1)) if match else None


class ConnectionLost(AssertionError):
    """The server closed the socket (or died) while the client was waiting."""


@dataclass
class Frame:
    received: float  # time.monotonic() on arrival
    text: str
    version: int | None


@dataclass
class TableClient:
    name: str
    base_ws_url: str
    table_id: int
    session_key: str | None = None
    frames: list[Frame] = field(default_factory=list)
    _ws: websockets.ClientConnection | None = None
    _reader: asyncio.Task | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    closed_by_server: bool = False
    sent: list[tuple[int, str]] = field(default_factory=list)  # (version seen, action) for every action sent
    connections: list[int] = field(default_factory=list)  # index in `frames` where each connection began
    page: Page = field(default_factory=Page)  # what the frames of the current connection show

    @property
    def url(self) -> str:
        return f"{self.base_ws_url}/ws/table/{self.table_id}/"

    @property
    def origin(self) -> str:
        return self.base_ws_url.replace("ws://", "http://", 1)

    async def connect(self, base_ws_url: str | None = None) -> None:
        """Open (or re-open, possibly on another process) the socket and start reading frames."""
        if base_ws_url is not None:
            self.base_ws_url = base_ws_url
        headers = {"Cookie": f"sessionid={self.session_key}"} if self.session_key else {}
        self._ws = await websockets.connect(
            self.url, origin=self.origin, additional_headers=headers, open_timeout=10, max_size=2**22
        )
        self.closed_by_server = False
        self.connections.append(len(self.frames))
        self.page = Page()
        self._reader = asyncio.create_task(self._read(self._ws), name=f"reader-{self.name}")

    async def _read(self, ws) -> None:
        try:
            async for message in ws:
                text = message if isinstance(message, str) else message.decode()
                self.frames.append(Frame(time.monotonic(), text, frame_version(text)))
                self.page = self.page.after(text)
                self._changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed_by_server = True
            self._changed.set()

    async def send(self, message: dict) -> None:
        assert self._ws is not None
        await self._ws.send(json.dumps(message))

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await self._reader

    @property
    def close_code(self) -> int | None:
        """The code the socket was closed with (None while it is open)."""
        return self._ws.close_code if self._ws is not None else None

    @property
    def versions(self) -> list[int]:
        return [f.version for f in self.frames if f.version is not None]

    @property
    def version(self) -> int:
        versions = self.versions
        return versions[-1] if versions else -1

    @property
    def connection_version(self) -> int:
        """The newest version the current connection has received (-1 before its snapshot): what
        its page shows, unlike `version`, which also counts the frames of earlier connections."""
        start = self.connections[-1] if self.connections else 0
        versions = [f.version for f in self.frames[start:] if f.version is not None]
        return versions[-1] if versions else -1

    @property
    def last_frame(self) -> str:
        """What the page shows after the frames so far ("" before the first)."""
        return self.page.html() if self.versions else ""

    async def wait_for(self, predicate, *, timeout: float, what: str):
        """Wait (on frames, not on a fixed sleep) until `predicate(self)` is truthy."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = predicate(self)
            if value:
                return value
            if self.closed_by_server and not predicate(self):
                raise ConnectionLost(f"{self.name}: socket closed while waiting for {what}")
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise AssertionError(f"{self.name}: timed out after {timeout}s waiting for {what}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=remaining)

    async def wait_for_version(self, version: int, *, timeout: float = 30) -> None:
        await self.wait_for(lambda c: c.version >= version, timeout=timeout, what=f"version {version}")

    @property
    def hand_ended(self) -> bool:
        return bool(frames.public_state(self.last_frame)["payments"])

    async def autoplay(self, *, timeout: float, act: bool = True, failover=None) -> None:
        """Follow the table until the hand ends; with `act`, answer every frame that offers this
        seat something (`frames.choose_action`), carrying the frame's version. A refused (stale)
        action is retried on the next frame. If the server goes away and `failover` is given, it
        is called for the websocket base URL to reconnect to, and play goes on from the snapshot."""
        answered = -1
        while True:
            try:
                # The current connection's frames only: after a reconnect the page is empty until the
                # snapshot comes, whatever versions the old connection reached.
                await self.wait_for(
                    lambda c, seen=answered: c.hand_ended or c.connection_version > seen,
                    timeout=timeout,
                    what="a frame to answer",
                )
                if self.hand_ended:
                    return
                answered = self.connection_version
                action = frames.choose_action(frames.legal_actions(self.last_frame)) if act else None
                if action is not None:
                    self.sent.append((answered, action))
                    await self.send({"action": action, "version": str(answered)})
            except (ConnectionLost, websockets.ConnectionClosed):
                if failover is None:
                    raise
                await self.close()
                await self.connect(failover())
                answered = -1  # answer the snapshot, even if it shows the version already seen
