"""A player whose process dies and who does not come back: the live process's clock sweeps the seat
(nobody vouches for it any more), and after the room's grace period the usual penalty and 托管
follow — once (rules §10)."""

from __future__ import annotations

import asyncio

from tests.multiprocess.client import TableClient
from tests.multiprocess.cluster import wait_until
from tests.multiprocess.helpers import assert_clean_logs

# Long turn timers, so nothing but the presence sweep and the grace period moves the human seats.
ROOM = {"bot_delay": 0.05, "claim_pause": 0, "discard_timeout": 600, "claim_timeout": 600, "grace_period": 1}


def seat_row(cluster, table_id: int, index: int) -> dict:
    (row,) = cluster.database.query(
        "SELECT connected, seen, away_since, autoplay, autoplay_reason FROM games_seat "
        "WHERE table_id = %s AND index = %s",
        (table_id, index),
    )
    return dict(zip(("connected", "seen", "away_since", "autoplay", "reason"), row, strict=True))


def penalties(cluster, table_id: int) -> list[tuple]:
    return cluster.database.query(
        """SELECT p.seat, p.kind FROM ledger_penalty p JOIN games_hand h ON h.id = p.hand_id
           JOIN games_match m ON m.id = h.match_id WHERE m.table_id = %s""",
        (table_id,),
    )


async def test_a_player_lost_with_a_dead_process_is_swept_then_charged_once(cluster, servers):
    survivor, victim = servers
    seeded = cluster.seed("tables", count=1, humans=2, room=ROOM)
    table = seeded["tables"][0]
    table_id = table["table_id"]
    stays = TableClient("seat0", survivor.ws_url, table_id, table["sessions"][0])
    lost = TableClient("seat1", victim.ws_url, table_id, table["sessions"][1])
    try:
        await asyncio.gather(stays.connect(), lost.connect())
        cluster.seed("start", table_ids=[table_id], players=[table["user_ids"]])
        # Both processes vouch for their own socket's seat.
        first = await asyncio.to_thread(
            wait_until, lambda: seat_row(cluster, table_id, 1)["seen"], timeout=10, what="a vouch"
        )
        await asyncio.to_thread(
            wait_until,
            lambda: seat_row(cluster, table_id, 1)["seen"] > first,
            timeout=10,
            what="a second vouch",
        )
        assert seat_row(cluster, table_id, 1)["connected"]
        await asyncio.to_thread(victim.kill)
        # The survivor sweeps the seat nobody vouches for, and after the grace period charges it.
        await asyncio.to_thread(
            wait_until,
            lambda: seat_row(cluster, table_id, 1)["autoplay"],
            timeout=30,
            what="the lost seat in 托管",
        )
        row = seat_row(cluster, table_id, 1)
        assert not row["connected"] and row["reason"] == "away"
        assert penalties(cluster, table_id) == [(1, "disconnect")]
        # The player still connected to the live process is untouched.
        kept = seat_row(cluster, table_id, 0)
        assert kept["connected"] and not kept["autoplay"] and kept["away_since"] is None
    finally:
        await asyncio.gather(stays.close(), lost.close())
    assert_clean_logs([survivor])
