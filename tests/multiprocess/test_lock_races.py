"""A Leave racing the end or the start of a hand, through two processes, in a forced order.

A third connection holds the table's row lock. The first action (a self-drawn win, or the next
hand's deal) is sent through one daphne process and queues for the lock; then the Leave is posted
to the other process and queues behind it. When the lock is released they run in that order, and
the Leave must see what the first action committed: after a win it leaves between hands (no
penalty), after the next deal it leaves during a hand (the penalty, rules §10).

PostgreSQL's `SELECT ... FOR UPDATE` that waited re-reads the locked row only: rows it joined keep
their state from before the wait, so a lock that joined the hand gave the Leave a stale hand.
"""

from __future__ import annotations

import asyncio
from decimal import Decimal

import psycopg

from tests.multiprocess.client import TableClient
from tests.multiprocess.cluster import Cluster, DaphneServer
from tests.multiprocess.helpers import assert_clean_logs, post_form

# Nothing moves by itself while the test holds the lock: four people, long timers.
ROOM = {"bot_delay": 0.02, "claim_pause": 0, "discard_timeout": 600, "claim_timeout": 600}


def _waiting_for_locks(cluster: Cluster) -> int:
    ((count,),) = cluster.database.query(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    return count


async def _until(predicate, what: str, timeout: float = 30) -> None:
    """Poll the database (not a fixed sleep) until `predicate()` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def _race(cluster: Cluster, servers: list[DaphneServer], setup: dict, message: dict) -> tuple[int, int]:
    """The winner's socket on daphne-0 sends `message` while a third connection holds the table's
    row lock; once it waits for the lock, the next seat posts Leave to daphne-1 and queues behind
    it; then the lock is released. Returns the leaving seat and the Leave's HTTP status."""
    table_id, winner = setup["table_id"], setup["winner"]
    leaver = (winner + 1) % 4
    client = TableClient("winner@daphne-0", servers[0].ws_url, table_id, setup["sessions"][winner])
    await client.connect()
    try:
        await client.wait_for_version(setup["version"])
        with psycopg.connect(cluster.database.url, autocommit=False) as holder:
            holder.execute("SELECT id FROM games_table WHERE id = %s FOR UPDATE", (table_id,))
            await client.send({**message, "version": str(setup["version"])})
            await _until(lambda: _waiting_for_locks(cluster) >= 1, "the first action to wait for the lock")
            leaving = asyncio.create_task(
                asyncio.to_thread(
                    post_form, servers[1], f"/table/{table_id}/stand/", setup["sessions"][leaver]
                )
            )
            await _until(lambda: _waiting_for_locks(cluster) >= 2, "the Leave to queue behind it")
            holder.commit()
        return leaver, await leaving
    finally:
        await client.close()


def _penalties(cluster: Cluster, hand_id: int, user_id: int) -> list[tuple[str, Decimal]]:
    return cluster.database.query(
        "SELECT kind, amount FROM ledger_penalty WHERE hand_id = %s AND user_id = %s", (hand_id, user_id)
    )


def _current_hand(cluster: Cluster, table_id: int) -> tuple[int, bool]:
    ((hand_id, ended),) = cluster.database.query(
        "SELECT h.id, h.result IS NOT NULL FROM games_table t JOIN games_hand h ON h.id = t.hand_id WHERE t.id = %s",
        (table_id,),
    )
    return hand_id, ended


def _journal_sums(cluster: Cluster) -> list[Decimal]:
    return [
        total
        for (total,) in cluster.database.query(
            "SELECT sum(amount) FROM ledger_ledgerentry GROUP BY journal_id HAVING sum(amount) <> 0"
        )
    ]


async def test_a_leave_queued_behind_a_self_drawn_win_leaves_between_hands(cluster, servers):
    setup = cluster.seed("self_draw", room=ROOM)
    table_id = setup["table_id"]
    leaver, status = await _race(cluster, servers, setup, {"action": setup["win"]})

    assert status == 302, "the Leave was refused"
    hand_id, ended = _current_hand(cluster, table_id)
    assert hand_id == setup["hand_id"] and ended, "the win did not end the hand"
    assert _penalties(cluster, hand_id, setup["user_ids"][leaver]) == []
    ((user_id,),) = cluster.database.query(
        "SELECT user_id FROM games_seat WHERE table_id = %s AND index = %s", (table_id, leaver)
    )
    assert user_id is None, "the leaver still sits"
    assert _journal_sums(cluster) == []
    assert_clean_logs(servers)


async def test_a_leave_queued_behind_the_next_deal_pays_the_penalty(cluster, servers):
    setup = cluster.seed("self_draw", room=ROOM, declare=True, others_ready=True)
    table_id = setup["table_id"]
    leaver, status = await _race(cluster, servers, setup, {"command": "next_hand"})

    assert status == 302, "the Leave was refused"
    hand_id, ended = _current_hand(cluster, table_id)
    assert hand_id != setup["hand_id"] and not ended, "the next hand was not dealt"
    assert [kind for kind, _ in _penalties(cluster, hand_id, setup["user_ids"][leaver])] == ["leave"]
    assert _penalties(cluster, setup["hand_id"], setup["user_ids"][leaver]) == []
    assert _journal_sums(cluster) == []
    assert_clean_logs(servers)
