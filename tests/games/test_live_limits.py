"""Sockets per address and spectators per table are limited, and the spectators of a table share
one rendered frame per version (issue 17 item 5)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from shmj_site.asgi import application

from .test_consumers import send, setup_table, until_human
from .wsclient import Reader, connect, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_counts(monkeypatch):
    """Counts of this test's sockets only (a socket another test left to the server still counts)."""
    from games.live import limits

    monkeypatch.setattr(limits, "sockets_by_address", limits.Slots())
    monkeypatch.setattr(limits, "spectators_by_table", limits.Slots())


async def open_from(address: str, path: str, user=None) -> tuple[WebsocketCommunicator, bool, int]:
    """A socket from a client address of its own (other tests' sockets count at theirs)."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        cookie = await session_cookie(user)
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    communicator.scope["client"] = (address, 40000)
    connected, code = await communicator.connect()
    return communicator, connected, code


async def refused(address: str, path: str) -> bool:
    communicator, connected, code = await open_from(address, path)
    if connected:
        await communicator.disconnect()
    return not connected and code == 4429


async def opened(address: str, path: str, user=None) -> WebsocketCommunicator:
    communicator, connected, _ = await open_from(address, path, user)
    assert connected
    return communicator


async def test_sockets_per_address_are_limited_and_given_back_on_close(settings):
    settings.SOCKETS_PER_ADDRESS = 3
    table_id, (alice,) = await setup_table(humans=1)
    path = f"/ws/table/{table_id}/"
    here = "198.51.100.7"
    open_ones = [await opened(here, path, alice), await opened(here, path), await opened(here, path)]
    assert await refused(here, path)
    assert not await refused("198.51.100.8", path)  # another address has its own
    await open_ones.pop().disconnect()
    open_ones.append(await opened(here, path))  # a place came free
    for communicator in open_ones:
        await communicator.disconnect()


async def test_spectators_per_table_are_limited_but_players_always_get_in(settings):
    settings.SPECTATORS_PER_TABLE = 2
    table_id, (alice,) = await setup_table(humans=1)
    path = f"/ws/table/{table_id}/"
    watchers = [await connect(path), await connect(path)]
    assert await refused("198.51.100.9", path)
    player = await connect(path, alice)  # seated: not a spectator
    for communicator in [*watchers, player]:
        await communicator.disconnect()


async def test_the_spectators_frame_is_rendered_once_per_version(monkeypatch):
    from games.presentation import rendering

    table_id, (alice,) = await setup_table(humans=1)
    path = f"/ws/table/{table_id}/"
    player = Reader(await connect(path, alice))
    watchers = [Reader(await connect(path)) for _ in range(5)]
    calls = []
    original = rendering.table_context

    def counted(table, user, seats=None):
        calls.append(user is not None and user.is_authenticated)
        return original(table, user, seats)

    try:
        version, state = await until_human(table_id, 0, [player, *watchers])
        monkeypatch.setattr(rendering, "table_context", counted)
        await send(player, {"action": str(state.legal_actions(0)[0]), "version": version})
        for reader in [player, *watchers]:
            await reader.until(version + 1)
        assert sorted(calls) == [False, True]  # the player's frame, and one for the five watchers
        frames = {w.shown for w in watchers}
        assert len(frames) == 1 and 'data-zone="hand"' not in frames.pop()
    finally:
        for reader in [player, *watchers]:
            await reader.communicator.disconnect()
