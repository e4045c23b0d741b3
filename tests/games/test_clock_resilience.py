"""The clock and the lobby pushes outlive one failing table, send or render (issue 24 item 1)."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from channels.layers import get_channel_layer
from django.utils import timezone

from games import clock, services
from games.models import Table
from games.services import play
from games.services.broadcast import table_updates_group

from .wsclient import connect


@pytest.fixture
def two_bot_tables(room, alice, bob):
    """Two tables played by bots only, both due, the first one first."""
    ids = []
    for owner in (alice, bob):
        table = services.table_create(room_id=room.pk, user=owner)
        services.table_fill_bots(table_id=table.pk, user=owner)
        services.table_start(table_id=table.pk, user=owner)
        services.table_stand(table_id=table.pk, user=owner)
        ids.append(table.pk)
    now = timezone.now()
    for offset, table_id in enumerate(ids):
        Table.objects.filter(pk=table_id).update(deadline=now - timedelta(seconds=10 - offset))
    return ids


def versions_around_a_tick(table_ids: list[int]) -> tuple[list[int], list[int]]:
    """The tables' versions before and after one clock tick."""

    def versions() -> list[int]:
        return [Table.objects.get(pk=table_id).version for table_id in table_ids]

    before = versions()
    services.clock_tick()
    return before, versions()


@pytest.mark.django_db(transaction=True)
def test_a_table_whose_update_cannot_be_sent_does_not_stop_the_clock_for_the_others(
    two_bot_tables, monkeypatch
):
    layer = get_channel_layer()
    real_group_send = layer.group_send
    broken = table_updates_group(two_bot_tables[0])

    async def group_send(group, message):
        if group == broken:
            raise ConnectionError("the channel layer refused")
        await real_group_send(group, message)

    monkeypatch.setattr(layer, "group_send", group_send)
    before, after = versions_around_a_tick(two_bot_tables)
    assert after[0] > before[0] and after[1] > before[1]  # the move stands even though unannounced


@pytest.mark.django_db(transaction=True)
def test_a_table_whose_tick_raises_does_not_stop_the_clock_for_the_others(two_bot_tables, monkeypatch):
    real_tick = play._tick_table

    def tick(table_id, now):
        if table_id == two_bot_tables[0]:
            raise RuntimeError("a broken table")
        return real_tick(table_id, now)

    monkeypatch.setattr(play, "_tick_table", tick)
    before, after = versions_around_a_tick(two_bot_tables)
    assert after == [before[0], after[1]] and after[1] > before[1]


async def test_a_clock_loop_that_ends_is_started_again(settings, monkeypatch):
    settings.GAME_CLOCK_ENABLED = True
    settings.GAME_CLOCK_INTERVAL = 0
    runs = []
    restarted = asyncio.Event()

    async def run_forever():
        runs.append(1)
        if len(runs) == 1:
            raise RuntimeError("the loop broke")
        restarted.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(clock, "run_forever", run_forever)
    monkeypatch.setattr(clock, "_task", None)
    assert clock.ensure_started()
    task = clock._task
    try:
        await asyncio.wait_for(restarted.wait(), timeout=5)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert len(runs) == 2


@pytest.mark.django_db(transaction=True)
async def test_a_lobby_push_that_fails_to_render_does_not_end_the_lobby_socket(monkeypatch):
    from games.live import consumers

    real_render = consumers.rendering.render_lobby_fragment
    calls = []
    failed = threading.Event()

    def render(*args):
        calls.append(1)
        if len(calls) == 2:
            failed.set()
            raise RuntimeError("a broken render")
        return real_render(*args)

    monkeypatch.setattr(consumers.rendering, "render_lobby_fragment", render)
    lobby = await connect("/ws/lobby/")
    assert 'id="lobby' in await lobby.receive_from(timeout=5)
    layer = get_channel_layer()
    await layer.group_send("lobby", {"type": "lobby.update"})  # fails to render
    # Updates arriving together are folded into one render: the next comes after the failure.
    assert await asyncio.to_thread(failed.wait, 5)
    await layer.group_send("lobby", {"type": "lobby.update"})
    assert 'id="lobby' in await lobby.receive_from(timeout=5)
    await lobby.disconnect()
