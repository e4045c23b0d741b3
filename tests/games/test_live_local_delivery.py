"""An update made in this process reaches the sockets here without a round trip through the channel
layer (`broadcast.receive_here`, the hub's `take`); the other members of the table's group (other
processes' hubs) still get it, and the hub's own channel does not get it a second time."""

from __future__ import annotations

import asyncio
import logging

import pytest
from channels.layers import get_channel_layer

from games.live.hub import _UpdateHub, update_hub
from games.services.broadcast import table_updates_group

from .test_live_resilience import an_update_reaches, open_readers, two_tables

pytestmark = pytest.mark.django_db(transaction=True)

MARK = {"type": "user.close", "user_id": -1}  # closes nobody's sockets


def record_listened(monkeypatch) -> tuple[list[dict], asyncio.Event]:
    """What the hub's listener takes from its channel, and an event set once it has taken MARK."""
    listened: list[dict] = []
    marked = asyncio.Event()
    handle = _UpdateHub._handle

    async def record(self, message):
        listened.append(message)
        if message == MARK:
            marked.set()
        await handle(self, message)

    monkeypatch.setattr(_UpdateHub, "_handle", record)
    return listened, marked


async def test_an_update_made_here_skips_the_channel_layer_for_the_sockets_here(monkeypatch):
    table_ids, users = await two_tables()
    reader, _ = await open_readers(table_ids, users)
    table_id, alice = table_ids[0], users[0]
    layer = get_channel_layer()
    hub = update_hub(layer)
    elsewhere = await layer.new_channel()  # another process's hub with sockets at the table
    await layer.group_add(table_updates_group(table_id), elsewhere)
    listened, marked = record_listened(monkeypatch)

    async def refuse(group, message):
        raise AssertionError(f"{message} went through group_send")

    monkeypatch.setattr(layer, "group_send", refuse)

    await an_update_reaches(reader, table_id, alice)

    message = await asyncio.wait_for(layer.receive(elsewhere), 10)
    assert (message["type"], message["table_id"]) == ("table.update", table_id)
    assert message["version"] <= reader.version
    # Whatever the group send put on the hub's own channel came through its listener before the mark.
    await layer.send(hub.channel, MARK)
    await asyncio.wait_for(marked.wait(), 10)
    assert [m for m in listened if m.get("type") == "table.update"] == []


async def test_an_update_the_hub_fails_to_take_goes_through_the_channel_layer(monkeypatch, caplog):
    table_ids, users = await two_tables()
    reader, _ = await open_readers(table_ids, users)
    listened, _ = record_listened(monkeypatch)

    def fail(self, layer, message):
        raise RuntimeError("take failed")

    monkeypatch.setattr(_UpdateHub, "take", fail)
    with caplog.at_level(logging.ERROR):
        await an_update_reaches(reader, table_ids[0], users[0])
    assert any(m.get("type") == "table.update" and m["table_id"] == table_ids[0] for m in listened)
    assert f"table {table_ids[0]}: handing the update over here failed" in caplog.text
