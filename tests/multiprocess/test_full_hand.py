"""Four real websocket clients at one table, split across two daphne processes, play a full hand with
two bots: every client follows the table in version order and ends on the same final state."""

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
ROOM = {"bot_delay": 0.02, "claim_pause": 0, "discard_timeout": 60, "claim_timeout": 60, "ready_timeout": 600}


async def test_four_clients_on_two_processes_play_a_full_hand(cluster, servers):
    seeded = cluster.seed("tables", count=1, humans=2, spectators=2, room=ROOM)
    table = seeded["tables"][0]
    table_id = table["table_id"]
    # Seat 0 and a spectator on process 0; seat 1 and the other spectator on process 1.
    players = [
        TableClient("seat0@daphne-0", servers[0].ws_url, table_id, table["sessions"][0]),
        TableClient("seat1@daphne-1", servers[1].ws_url, table_id, table["sessions"][1]),
    ]
    spectators = [
        TableClient("spectator@daphne-1", servers[1].ws_url, table_id, seeded["spectators"][0]),
        TableClient("spectator@daphne-0", servers[0].ws_url, table_id, seeded["spectators"][1]),
    ]
    clients = players + spectators
    await asyncio.gather(*(c.connect() for c in clients))
    try:
        waiting_version = table_row(cluster, table_id)["version"]
        for client in clients:
            await client.wait_for_version(waiting_version)
        cluster.seed("start", table_ids=[table_id], players=[table["user_ids"]])
        await asyncio.gather(*(p.autoplay(timeout=60) for p in players))
        final = table_row(cluster, table_id)
        for client in clients:
            await client.wait_for(lambda c: c.hand_ended, timeout=30, what="the settlement")
            await client.wait_for_version(final["version"])
    finally:
        await asyncio.gather(*(c.close() for c in clients))

    # In version order, ending on the table's final version.
    for client in clients:
        versions = client.versions
        assert versions == sorted(set(versions)), f"{client.name} saw versions out of order: {versions}"
        assert versions[0] <= waiting_version
        assert versions[-1] == final["version"], client.name
        assert len(versions) > 10, f"{client.name} saw only {len(versions)} updates"

    # The same final public state everywhere, and it is the stored result.
    states = [frames.public_state(c.last_frame) for c in clients]
    assert all(state == states[0] for state in states[1:]), "clients ended on different public states"
    hand = cluster.database.query(
        "SELECT h.result FROM games_hand h JOIN games_match m ON m.id = h.match_id WHERE m.table_id = %s",
        (table_id,),
    )
    assert len(hand) == 1
    payments = hand[0][0]["payments"]
    assert states[0]["payments"] == dict(enumerate(payments))
    assert final["scores"] == payments
    assert sum(payments) == 0
    rivers = sum(len(tiles) for (_, zone), tiles in states[0]["tiles"].items() if zone == "river")
    assert rivers > 0

    # Both people played through their own process, and each sent action was applied at most once.
    applied = human_actions(cluster, table_id)
    for seat, player, server in ((0, players[0], servers[0]), (1, players[1], servers[1])):
        mine = [a for a in applied if a["seat"] == seat]
        assert mine, f"seat {seat} never acted"
        assert {a["app"] for a in mine} == {server.name}
        assert_applied_were_sent_once(mine, player.sent, player.name)

    report = cluster.seed("replay_check", table_ids=[table_id])
    (entry,) = report.values()
    assert entry["contiguous"] and entry["replay_matches"] and entry["log_matches_state"]
    assert_ledger_once(cluster, [table_id])
    assert_clean_logs(servers)
