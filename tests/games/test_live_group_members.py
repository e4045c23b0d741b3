"""An update taken by the hub here goes to the table group's other members as last read, read again
once that read is GROUP_MEMBERS_TTL seconds old (games/services/broadcast.py); a process that joins a
table's updates catches its sockets up after twice that (games/live/hub.py, `catch_up`)."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import compat, services
from games.live.hub import _UpdateHub
from games.services import broadcast
from games.services.broadcast import table_updates_group

from .test_live_resilience import open_readers, two_tables

pytestmark = pytest.mark.django_db(transaction=True)

UPDATE = {"type": "table.update", "table_id": 1, "version": 1}


def count_member_reads(monkeypatch) -> list[str]:
    reads: list[str] = []
    original = compat.group_members

    async def counted(layer, group):
        reads.append(group)
        return await original(layer, group)

    monkeypatch.setattr(compat, "group_members", counted)
    return reads


async def test_the_members_are_read_again_only_once_the_last_read_is_old(settings, monkeypatch):
    settings.GROUP_MEMBERS_TTL = 60
    layer = get_channel_layer()
    group = table_updates_group(1)
    here, elsewhere, late = [await layer.new_channel() for _ in range(3)]
    for channel in (here, elsewhere):
        await layer.group_add(group, channel)
    reads = count_member_reads(monkeypatch)

    for version in (1, 2):
        await broadcast._send_to_others(layer, group, {**UPDATE, "version": version}, here)
        assert (await layer.receive(elsewhere))["version"] == version
    assert reads == [group]  # the second send trusted the first read

    # A member that joins meanwhile is reached once the read is old (until then its hub catches up).
    await layer.group_add(group, late)
    read_at, members = broadcast._members[layer][group]
    broadcast._members[layer][group] = (read_at - 61, members)
    await broadcast._send_to_others(layer, group, {**UPDATE, "version": 3}, here)
    assert reads == [group, group]
    assert (await layer.receive(late))["version"] == 3
    assert (await layer.receive(elsewhere))["version"] == 3
    assert layer.channels.get(here) is None or layer.channels[here].empty()  # never to the one left out


async def test_with_no_trust_every_update_reads_the_members(settings, monkeypatch):
    settings.GROUP_MEMBERS_TTL = 0
    layer = get_channel_layer()
    group = table_updates_group(2)
    here = await layer.new_channel()
    await layer.group_add(group, here)
    reads = count_member_reads(monkeypatch)
    for version in (1, 2, 3):
        await broadcast._send_to_others(layer, group, {**UPDATE, "version": version}, here)
    assert reads == [group] * 3


async def test_a_hub_that_joins_a_table_catches_its_sockets_up_with_an_update_it_missed(
    settings, monkeypatch
):
    """A change whose update never reaches this process (another process trusted a read of the
    group's members made before this one joined) reaches the sockets here all the same."""
    settings.GROUP_MEMBERS_TTL = 0.5
    delays, release = [], asyncio.Event()
    catch_up = _UpdateHub.catch_up

    async def when_released(self, table_id, delay):  # the catch-up's wait, ended by the test
        delays.append(delay)
        await release.wait()
        await catch_up(self, table_id, 0)

    monkeypatch.setattr(_UpdateHub, "catch_up", when_released)
    (table_id, _), (alice, _) = await two_tables()
    (reader,) = await open_readers((table_id,), (alice,))
    before = reader.version
    monkeypatch.setattr(broadcast, "_send", lambda group, message: None)  # the update is lost
    await database_sync_to_async(services.table_request_autoplay)(table_id=table_id, user=alice)
    assert delays == [1.0]  # twice the trust in a read of the members, from the table's first socket
    release.set()
    while reader.version <= before:
        await asyncio.wait_for(reader.next(), 10)
    assert 'data-testid="cancel-autoplay"' in reader.shown
    await reader.communicator.disconnect()


async def test_without_the_catch_up_the_missed_update_does_not_come(settings, monkeypatch):
    """The counterpart of the test above: what brings the socket up is the catch-up, not something
    else (with no trust in the members' read there is no catch-up)."""
    settings.GROUP_MEMBERS_TTL = 0
    (table_id, _), (alice, _) = await two_tables()
    (reader,) = await open_readers((table_id,), (alice,))
    monkeypatch.setattr(broadcast, "_send", lambda group, message: None)
    await database_sync_to_async(services.table_request_autoplay)(table_id=table_id, user=alice)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(reader.next(), 0.5)
    await reader.communicator.disconnect()
