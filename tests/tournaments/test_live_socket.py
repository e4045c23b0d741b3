"""The tournament page's socket (issue 29): the standings are pushed as hands end, to whoever may see
the page, and the page connects to it instead of polling."""

from __future__ import annotations

import asyncio
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.services import table_play_bots_hand
from shmj_site.asgi import application
from tests.games.wsclient import connect
from tournaments.models import RoundTable
from tournaments.services import tournament_start

ONE_HAND = 'data-testid="standing-hands">1<'


async def receive_until(socket, needle: str, *, timeout: float = 5.0) -> str:
    """The first frame containing `needle`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        frame = await socket.receive_from(timeout=max(0.1, deadline - loop.time()))
        if needle in frame:
            return frame


def _running(make_tournament, alice):
    t = make_tournament(alice)
    tournament_start(tournament_id=t.pk, user=alice, field=8, deal=False)
    return t


def _play_one_hand(t) -> int:
    round_ = t.round_set.get(number=1)
    rt = RoundTable.objects.filter(round=round_).order_by("number").first()
    table_play_bots_hand(table_id=rt.table_id, seed=round_.seeds[0])
    return rt.table_id


@pytest.mark.django_db(transaction=True)
async def test_a_recorded_hand_pushes_the_new_standings_to_the_page_sockets(make_tournament, alice, bob):
    t = await database_sync_to_async(_running)(make_tournament, alice)
    viewers = [await connect(f"/ws/tournament/{t.pk}/", alice), await connect(f"/ws/tournament/{t.pk}/")]
    try:
        for socket in viewers:  # on connect: the standings as they are, no hand played yet
            first = await receive_until(socket, 'id="tournament-live"')
            assert first.count('data-testid="standing-hands">0<') == 8 and ONE_HAND not in first
        await database_sync_to_async(_play_one_hand)(t)
        for socket in viewers:
            frame = await receive_until(socket, 'id="tournament-live"')
            assert frame.count(ONE_HAND) == 4  # the four players of the table that played a hand
            assert 'data-testid="standings"' in frame and "hx-get" not in frame
    finally:
        for socket in viewers:
            await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_an_invite_only_tournament_refuses_a_strangers_socket(make_tournament, alice, bob):
    t = await database_sync_to_async(make_tournament)(alice, public=False)
    stranger = WebsocketCommunicator(
        application,
        f"/ws/tournament/{t.pk}/",
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")],
    )
    connected, _ = await stranger.connect()
    assert not connected
    organiser = await connect(f"/ws/tournament/{t.pk}/", alice)
    await organiser.disconnect()
    missing = WebsocketCommunicator(
        application,
        "/ws/tournament/999999/",
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")],
    )
    assert not (await missing.connect())[0]


def test_the_page_connects_to_its_socket_while_running_and_no_longer_polls(make_tournament, alice):
    from tests.test_i18n import client_in

    t = _running(make_tournament, alice)
    page = client_in("zh-hans").get(f"/tournaments/{t.pk}/").content.decode()
    assert f'ws-connect="/ws/tournament/{t.pk}/"' in page and "hx-trigger" not in page
    assert re.search(r'data-testid="tournament-socket"[^>]*hx-ext="ws"', page)
