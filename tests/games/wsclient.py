"""Websocket helpers for consumer tests: real ASGI stack, session cookies, frames read by version.

A frame carries only the regions that changed for its socket (games/presentation/rendering.py), so a
`Reader` also keeps what its page shows (`Page`, one per frame in `screens`), and waits for a version
on the server's word when nothing the socket shows changed at that version (no frame came).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
from html.parser import HTMLParser

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from shmj_site.asgi import application
from tests.framepage import Page

VERSION = re.compile(r'id="frame-stamp"[^>]*data-version="(\d+)"')
FROM = re.compile(r'id="frame-stamp"[^>]*data-from="(\d*)"')
READER_HEADER = b"x-test-reader"
_readers = itertools.count()


@database_sync_to_async
def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def connect(path: str, user=None, language: str | None = None) -> WebsocketCommunicator:
    """A connected socket, signed in as `user` if given, from a page in `language` (the language
    cookie) if given."""
    reader_id = str(next(_readers)).encode()
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (READER_HEADER, reader_id)]
    cookies = []
    if user is not None:
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={await session_cookie(user)}")
    if language is not None:
        cookies.append(f"{settings.LANGUAGE_COOKIE_NAME}={language}")
    if cookies:
        headers.append((b"cookie", "; ".join(cookies).encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    communicator.reader_id = reader_id  # finds its consumer in the hub (`Reader.until`)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def frame_version(frame: str) -> int | None:
    match = VERSION.search(frame)
    return int(match.group(1)) if match else None


def frame_from(frame: str) -> int | None:
    """The version a frame assumed its socket showed (None: a full frame)."""
    match = FROM.search(frame)
    return int(match.group(1)) if match and match.group(1) else None


class Reader:
    """Keeps every frame one socket receives, and the page it shows after each (`screens`: (version,
    Page) pairs); waits on versions, never on time."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.frames: list[str] = []
        self.page = Page()
        self.screens: list[tuple[int | None, Page]] = []
        self.reached = -1  # a version the server says the socket shows, though no frame brought it

    @property
    def version(self) -> int:
        versions = [v for v in map(frame_version, self.frames) if v is not None]
        return max([*versions, self.reached], default=-1)

    @property
    def shown(self) -> str:
        """What the socket's page shows now: every region as the frames so far left it."""
        return self.page.html()

    def keep(self, frame: str) -> str:
        self.frames.append(frame)
        self.page = self.page.after(frame)
        if frame_version(frame) is not None:
            self.screens.append((frame_version(frame), self.page))
        return frame

    async def next(self, timeout: float = 5) -> str:
        return self.keep(await self.communicator.receive_from(timeout=timeout))

    def _socket(self):
        from channels.layers import get_channel_layer

        from games.live.hub import update_hub

        hub = update_hub(get_channel_layer())
        for sockets in hub.sockets.values():
            for socket in sockets:
                if (READER_HEADER, self.communicator.reader_id) in socket.scope.get("headers", ()):
                    return hub, socket
        return hub, None

    async def until(self, version: int, timeout: float = 5) -> None:
        """Read frames until the socket shows `version`: from a frame, or the server's word that it
        shows it without one (nothing it shows changed)."""
        while self.version < version:
            hub, socket = self._socket()
            if socket is not None and socket.version >= version:
                while not self.communicator.output_queue.empty():  # frames sent before it
                    await self.next()
                self.reached = max(self.reached, socket.version)
                return
            frame = asyncio.ensure_future(self.communicator.receive_from(timeout=timeout))
            pushed = asyncio.ensure_future(_notified(hub, socket, version))
            done, _ = await asyncio.wait(
                {frame, pushed}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            pushed.cancel()
            if frame in done:
                self.keep(frame.result())
            else:
                frame.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await frame
                if not done:
                    raise TimeoutError(f"version {version} not reached (at {self.version})")


async def _notified(hub, socket, version: int) -> None:
    """Until the hub says `socket` shows `version` (without a socket: until its next push)."""
    async with hub.pushed:
        if socket is None:
            await hub.pushed.wait()
        else:
            await hub.pushed.wait_for(lambda: socket.version >= version)


class TileCollector(HTMLParser):
    """Every `data-tile` in a frame with the nearest enclosing `data-zone` and `data-seat`."""

    VOID = {"input", "br", "img", "meta", "link", "hr"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[dict] = []
        self.tiles: list[tuple[str | None, int | None, str]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-tile" in attrs:
            zone = next((a["data-zone"] for a in reversed(self.stack) if "data-zone" in a), None)
            seat = next((a["data-seat"] for a in reversed(self.stack) if "data-seat" in a), None)
            self.tiles.append((zone, None if seat is None else int(seat), attrs["data-tile"]))
        if tag not in self.VOID:
            self.stack.append(attrs)

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()


def tiles_in(frame: str) -> list[tuple[str | None, int | None, str]]:
    parser = TileCollector()
    parser.feed(frame)
    return parser.tiles
