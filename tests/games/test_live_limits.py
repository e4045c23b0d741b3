"""Spectators' sockets are limited per address, per address at one table and per table, while the
table's members are never refused (issue 17 item 5, issue 24 item 4); the spectators of a table share
one rendered frame per version."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model

from games import services
from games.models import Room
from shmj_site.asgi import application

from .test_consumers import send, setup_table, until_human
from .test_live_private import browser, make_private
from .wsclient import Reader, connect, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_counts(monkeypatch):
    """Counts of this test's sockets only (a socket another test left to the server still counts)."""
    from games.live import limits

    monkeypatch.setattr(limits, "sockets_by_address", limits.Slots())
    monkeypatch.setattr(limits, "spectators_by_address_at_table", limits.Slots())
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
    other_table, _ = await setup_table_as("carol")
    path, other = f"/ws/table/{table_id}/", f"/ws/table/{other_table}/"
    here = "198.51.100.7"
    open_ones = [await opened(here, path), await opened(here, path), await opened(here, other)]
    assert await refused(here, path)
    assert await refused(here, other)  # the limit is the address's, across tables
    assert not await refused("198.51.100.8", path)  # another address has its own
    open_ones.append(await opened(here, path, alice))  # a seated player is never refused
    await open_ones.pop(0).disconnect()
    open_ones.append(await opened(here, path))  # a place came free
    for communicator in open_ones:
        await communicator.disconnect()


async def test_one_address_takes_a_few_of_a_tables_spectator_places_not_all(settings):
    """Seven addresses once took all 200 places of a table: each now gets a few of them."""
    settings.SPECTATORS_PER_ADDRESS_PER_TABLE = 2
    settings.SPECTATORS_PER_TABLE = 5
    table_id, (alice,) = await setup_table(humans=1)
    other_table, _ = await setup_table_as("dave")
    path = f"/ws/table/{table_id}/"
    here = "198.51.100.10"
    open_ones = [await opened(here, path), await opened(here, path)]
    assert await refused(here, path)
    open_ones.append(await opened(here, f"/ws/table/{other_table}/"))  # another table: places of its own
    open_ones += [await opened("198.51.100.11", path), await opened("198.51.100.12", path)]
    open_ones.append(await opened(here, path, alice))  # seated: never refused, takes no place
    open_ones.append(await opened("198.51.100.13", path))  # the table's fifth place
    assert await refused("198.51.100.14", path)
    for communicator in open_ones:
        await communicator.disconnect()
    assert not limits_held()


async def test_a_private_tables_invited_member_is_never_refused(settings):
    settings.SOCKETS_PER_ADDRESS = 1
    settings.SPECTATORS_PER_ADDRESS_PER_TABLE = 1
    settings.SPECTATORS_PER_TABLE = 1
    table_id, _ = await setup_table(humans=1)
    code, friend = await make_private(table_id)
    path = f"/ws/table/{table_id}/"
    here = "198.51.100.20"
    blocker = await opened(here, f"/ws/table/{(await setup_table_as('erin'))[0]}/")
    cookie = await browser(friend, invite=code)
    communicator = WebsocketCommunicator(
        application,
        path,
        headers=[
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
        ],
    )
    communicator.scope["client"] = (here, 40000)
    connected, _ = await communicator.connect()
    assert connected  # the address's one place is taken, but an invited friend is a member
    await communicator.disconnect()
    await blocker.disconnect()


def limits_held() -> bool:
    from games.live import limits

    return any(
        s.held
        for s in (
            limits.sockets_by_address,
            limits.spectators_by_address_at_table,
            limits.spectators_by_table,
        )
    )


@database_sync_to_async
def setup_table_as(name: str):
    """Another started table, whose only person is `name`."""
    room = Room.objects.create(name=f"{name}'s room", bot_delay=0, claim_pause=0, bot_level="easy")
    user = get_user_model().objects.create_user(username=name, password="pw-123456")
    table = services.table_create(room_id=room.pk, user=user)
    services.table_fill_bots(table_id=table.pk, user=user)
    return table.pk, user


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
