"""`kill -9` of one daphne process mid-hand: its clients reconnect to the other process, get a snapshot
and the hand goes on; no action and no ledger entry is lost or duplicated."""

from __future__ import annotations

import asyncio

from tests.multiprocess import frames
from tests.multiprocess.client import TableClient
from tests.multiprocess.helpers import (
    assert_applied_were_sent_once,
    assert_clean_logs,
    assert_ledger_once,
    human_actions,
    table_row,
)

# The hand ends with both people connected: a long ready timeout keeps the clock from dealing the next.
ROOM = {"bot_delay": 0.05, "claim_pause": 0, "discard_timeout": 60, "claim_timeout": 60, "ready_timeout": 600}
KILL_AFTER = 25  # versions into the hand


async def test_kill_9_mid_hand_clients_fail_over_and_the_hand_completes(cluster, servers):
    survivor, victim = servers
    seeded = cluster.seed("tables", count=1, humans=2, spectators=2, room=ROOM)
    table = seeded["tables"][0]
    table_id = table["table_id"]
    on_survivor = [
        TableClient("seat0", survivor.ws_url, table_id, table["sessions"][0]),
        TableClient("spectator-a", survivor.ws_url, table_id, seeded["spectators"][0]),
    ]
    on_victim = [
        TableClient("seat1", victim.ws_url, table_id, table["sessions"][1]),
        TableClient("spectator-b", victim.ws_url, table_id, seeded["spectators"][1]),
    ]
    clients = on_survivor + on_victim
    await asyncio.gather(*(c.connect() for c in clients))
    killed = {}

    async def kill_mid_hand() -> None:
        watcher = on_survivor[1]
        await watcher.wait_for(lambda c: c.version >= start_version + KILL_AFTER, timeout=60, what="mid-hand")
        killed["victim_frames"] = [len(c.frames) for c in on_victim]
        await asyncio.to_thread(victim.kill)
        killed["version"] = table_row(cluster, table_id)["version"]

    try:
        start_version = table_row(cluster, table_id)["version"]
        for client in clients:
            await client.wait_for_version(start_version)
        cluster.seed("start", table_ids=[table_id], players=[table["user_ids"]])

        def to_survivor() -> str:  # what the proxy does: send reconnects to the live process
            return survivor.ws_url

        await asyncio.gather(
            kill_mid_hand(),
            on_survivor[0].autoplay(timeout=60),
            on_survivor[1].autoplay(timeout=60, act=False),
            on_victim[0].autoplay(timeout=60, failover=to_survivor),
            on_victim[1].autoplay(timeout=60, act=False, failover=to_survivor),
        )
        final = table_row(cluster, table_id)
        for client in clients:
            await client.wait_for_version(final["version"])
    finally:
        await asyncio.gather(*(c.close() for c in clients))

    assert not victim.alive()
    assert final["version"] > killed["version"], "the hand did not go on after the kill"
    for client in on_victim:
        assert len(client.connections) == 2, f"{client.name} did not reconnect"
        resumed = client.connections[1]
        assert resumed >= killed["victim_frames"][on_victim.index(client)]
        snapshot = client.frames[resumed]
        seen_before = max(f.version for f in client.frames[:resumed] if f.version is not None)
        assert snapshot.version is not None and snapshot.version >= seen_before
        assert {"board", "controls", "settlement"} <= frames.parse(snapshot.text).sections
    for client in clients:
        for start, end in zip(client.connections, [*client.connections[1:], len(client.frames)], strict=True):
            versions = [f.version for f in client.frames[start:end] if f.version is not None]
            assert versions == sorted(set(versions)), f"{client.name} saw versions out of order"
        assert client.version == final["version"]
    states = [frames.public_state(c.last_frame) for c in clients]
    assert all(state == states[0] for state in states[1:]), "clients ended on different public states"

    # No action lost or duplicated: the log replays to the stored result, every person's action in
    # it was sent once by that person, and after the kill only the survivor wrote.
    report = cluster.seed("replay_check", table_ids=[table_id])
    (entry,) = report.values()
    assert entry["contiguous"] and entry["replay_matches"] and entry["log_matches_state"]
    applied = human_actions(cluster, table_id)
    for seat, player in ((0, on_survivor[0]), (1, on_victim[0])):
        mine = [a for a in applied if a["seat"] == seat]
        assert mine
        assert_applied_were_sent_once(mine, player.sent, player.name)
    after_kill = cluster.database.query(
        """SELECT DISTINCT au.app FROM mp_audit au JOIN games_action a ON a.id = au.action_id
           JOIN games_hand h ON h.id = a.hand_id JOIN games_match m ON m.id = h.match_id
           WHERE m.table_id = %s AND a.version > %s""",
        (table_id, killed["version"]),
    )
    assert after_kill == [(survivor.name,)]

    # The ledger: the hand's payments are booked once in the table's scores, summing to zero.
    (payments,) = cluster.database.query(
        """SELECT h.result -> 'payments' FROM games_hand h JOIN games_match m ON m.id = h.match_id
           WHERE m.table_id = %s""",
        (table_id,),
    )
    assert final["scores"] == payments[0]
    assert sum(payments[0]) == 0
    assert states[0]["payments"] == dict(enumerate(payments[0]))
    assert_ledger_once(cluster, [table_id])
    assert_clean_logs([survivor])
