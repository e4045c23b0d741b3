"""Quick start at the edges (issue 30): the lobby socket sends seated people to their table and keeps
their place in the pool while it is open; the join and leave views; the clock's pairing step."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games import clock, services
from games.models import Pool, PoolEntry, Room, Seat, Table

from .wsclient import connect

GO = re.compile(r'id="lobby-go"[^>]*data-go="/table/(\d+)/"')


def make_people(count: int, prefix: str = "q") -> list:
    make = get_user_model().objects.create_user
    return [make(username=f"{prefix}{i}", password=None) for i in range(count)]


def make_pool() -> Pool:
    room = Room.objects.create(name="quick room", bot_delay=0, claim_pause=0, bot_level="easy")
    return Pool.objects.create(room=room, preset="standard", stake=1)


async def receive_until(socket, pattern: re.Pattern, *, timeout: float = 5.0) -> re.Match:
    """The first frame matching `pattern` (lobby renders may come before it)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        frame = await socket.receive_from(timeout=max(0.1, deadline - loop.time()))
        found = pattern.search(frame)
        if found:
            return found


@pytest.mark.django_db(transaction=True)
async def test_the_four_seated_are_sent_to_their_table_and_nobody_else_is():
    pool, people = await database_sync_to_async(lambda: (make_pool(), make_people(5)))()
    sockets = [await connect("/ws/lobby/", person) for person in people]
    try:
        for socket in sockets:
            await receive_until(socket, re.compile(r'id="lobby-rooms"'))
        for person in people[:4]:
            await database_sync_to_async(services.pool_join)(pool_id=pool.pk, user=person)
        assert await database_sync_to_async(services.pair_pools)() == 1
        table_ids = {int((await receive_until(s, GO)).group(1)) for s in sockets[:4]}
        seated = await database_sync_to_async(
            lambda: set(Seat.objects.filter(table_id__in=table_ids).values_list("user_id", flat=True))
        )()
        assert len(table_ids) == 1 and seated == {p.pk for p in people[:4]}
        # The fifth (in no pool) is sent nowhere: the same group message reached it, and every frame
        # it has is a lobby render.
        while not await sockets[4].receive_nothing(timeout=0.5):
            assert not GO.search(await sockets[4].receive_from())
    finally:
        for socket in sockets:
            await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_lobby_socket_keeps_the_place_and_its_close_lets_it_lapse_soon(settings):
    settings.POOL_STALE, settings.POOL_CLOSE_GRACE = 30, 3
    pool, (alice,) = await database_sync_to_async(lambda: (make_pool(), make_people(1)))()
    entry = await database_sync_to_async(services.pool_join)(pool_id=pool.pk, user=alice)
    socket = await connect("/ws/lobby/", alice)
    await receive_until(socket, re.compile(r'data-testid="pool-waiting"'))
    vouched = await database_sync_to_async(lambda: PoolEntry.objects.get(pk=entry.pk).expires)()
    assert vouched >= entry.expires
    closed_at = timezone.now()
    await socket.disconnect()
    lapses = await database_sync_to_async(lambda: PoolEntry.objects.get(pk=entry.pk).expires)()
    assert lapses <= timezone.now() + timedelta(seconds=3)
    assert (
        await database_sync_to_async(services.sweep_pool_entries)(now=closed_at + timedelta(seconds=5)) == 1
    )


@pytest.mark.django_db(transaction=True)
async def test_the_clock_step_pairs_and_vouches_for_the_lobby_sockets_here(settings):
    settings.PRESENCE_HEARTBEAT = 0  # vouch on every step
    pool, people = await database_sync_to_async(lambda: (make_pool(), make_people(4)))()
    socket = await connect("/ws/lobby/", people[0])
    try:
        await receive_until(socket, re.compile(r'id="lobby-rooms"'))
        for person in people:
            await database_sync_to_async(services.pool_join)(pool_id=pool.pk, user=person)
        assert await clock.pairing_step() == 1
        assert int((await receive_until(socket, GO)).group(1)) > 0
    finally:
        await socket.disconnect()


# --- the views -----------------------------------------------------------------------------------


@pytest.fixture
def pool(db):
    return make_pool()


def test_quick_start_joins_and_shows_the_waiting_pool_with_a_leave_button(pool, client_for):
    (alice,) = make_people(1)
    client = client_for(alice)
    response = client.post(
        reverse("games:pool_join", args=[pool.pk]), {"bots": "1", "fill_after": "7"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'id="lobby-rooms"' in html
    assert 'data-testid="leave-pool"' in html
    assert re.search(rf'data-testid="pool-waiting" data-pool="{pool.pk}">1<', html)
    entry = PoolEntry.objects.get(user=alice)
    assert entry.pool_id == pool.pk and entry.fill_after == 7
    left = client.post(reverse("games:pool_leave"), HTTP_HX_REQUEST="true")
    assert 'data-testid="leave-pool"' not in left.content.decode() and not PoolEntry.objects.exists()


def test_without_the_box_ticked_nobody_asks_for_bots(pool, client_for):
    (alice,) = make_people(1)
    response = client_for(alice).post(reverse("games:pool_join", args=[pool.pk]), {"fill_after": "7"})
    assert response.status_code == 302 and PoolEntry.objects.get(user=alice).fill_after is None


def test_a_refused_join_says_why_and_changes_nothing(pool, client_for):
    (alice,) = make_people(1)
    response = client_for(alice).post(
        reverse("games:pool_join", args=[pool.pk]), {"bots": "1", "fill_after": "1e9"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and 'data-testid="pool-error"' in response.content.decode()
    assert not PoolEntry.objects.exists()
    missing = client_for(alice).post(reverse("games:pool_join", args=[pool.pk + 50]))
    assert missing.status_code == 302 and not PoolEntry.objects.exists()


def test_guests_and_gets_do_not_join(pool, client_for):
    response = client_for().post(reverse("games:pool_join", args=[pool.pk]))
    assert response.status_code == 302 and "login" in response["Location"]
    (alice,) = make_people(1)
    assert client_for(alice).get(reverse("games:pool_join", args=[pool.pk])).status_code == 405
    assert not PoolEntry.objects.exists()


def test_the_lobby_shows_the_pools_and_back_to_the_table_for_someone_seated(pool, client_for):
    alice, bob = make_people(2)
    page = client_for(alice).get(reverse("games:lobby")).content.decode()
    assert (
        f'data-testid="quick-start" data-pool="{pool.pk}"' in page
        and 'data-testid="back-to-table"' not in page
    )
    table = services.table_create(room_id=pool.room_id, user=alice)
    page = client_for(alice).get(reverse("games:lobby")).content.decode()
    assert f'href="/table/{table.pk}/" data-testid="back-to-table"' in page
    assert 'data-testid="quick-start"' not in page  # not while seated at a live table
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert 'data-testid="back-to-table"' not in client_for(alice).get(reverse("games:lobby")).content.decode()
