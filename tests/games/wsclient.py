"""Websocket helpers for consumer tests: real ASGI stack, session cookies, frames read by version."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from shmj_site.asgi import application

VERSION = re.compile(r'id="board"[^>]*data-version="(\d+)"')


@database_sync_to_async
def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def connect(path: str, user=None, language: str | None = None) -> WebsocketCommunicator:
    """A connected socket, signed in as `user` if given, from a page in `language` (the language
    cookie) if given."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    cookies = []
    if user is not None:
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={await session_cookie(user)}")
    if language is not None:
        cookies.append(f"{settings.LANGUAGE_COOKIE_NAME}={language}")
    if cookies:
        headers.append((b"cookie", "; ".join(cookies).encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def frame_version(frame: str) -> int | None:
    match = VERSION.search(frame)
    return int(match.group(1)) if match else None


class Reader:
    """Keeps every frame one socket receives; waits on versions, never on time."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.frames: list[str] = []

    @property
    def version(self) -> int:
        versions = [v for v in map(frame_version, self.frames) if v is not None]
        return max(versions, default=-1)

    async def next(self, timeout: float = 5) -> str:
        frame = await self.communicator.receive_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    async def until(self, version: int) -> None:
        while self.version < version:
            await self.next()


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
