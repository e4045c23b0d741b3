"""With both processes running the game clock, every bot move and every timeout happens exactly once.

Both clocks race for the same due tables (`select_for_update(skip_locked=True)`); the audit trigger
records which process wrote each Action row, so the test can show both really did work.
"""

from __future__ import annotations

import asyncio

from tests.multiprocess.client import TableClient
from tests.multiprocess.cluster import wait_until
from tests.multiprocess.helpers import assert_clean_logs, assert_ledger_once, hands_ended

TABLES = 6


async def test_every_bot_move_and_timeout_happens_once_with_two_clocks(cluster, servers):
    # Tables 0..2: four bots. Tables 3..5: one idle person (never acts: every turn of theirs times
    # out at once) and three bots.
    bots_only = cluster.seed(
        "tables", count=TABLES // 2, humans=1, room={"bot_delay": 0.02, "claim_pause": 0}
    )
    with_idle = cluster.seed(
        "tables",
        count=TABLES // 2,
        humans=1,
        # The idle person is connected when the hand ends: a long ready timeout keeps the clock
        # from dealing the next hand (the check is of the first hand of each table).
        room={
            "bot_delay": 0.02,
            "claim_pause": 0,
            "discard_timeout": 0,
            "claim_timeout": 0,
            "ready_timeout": 600,
        },
    )
    tables = bots_only["tables"] + with_idle["tables"]
    table_ids = [t["table_id"] for t in tables]

    # A socket on each process starts its clock; the idle people watch their own tables, split
    # across the two processes.
    watchers = [
        TableClient(f"idle-{i}", servers[i % 2].ws_url, t["table_id"], t["sessions"][0])
        for i, t in enumerate(with_idle["tables"])
    ]
    await asyncio.gather(*(w.connect() for w in watchers))
    try:
        cluster.seed(
            "start",
            table_ids=[t["table_id"] for t in bots_only["tables"]],
            players=[t["user_ids"] for t in bots_only["tables"]],
            all_bots=True,
        )
        cluster.seed(
            "start",
            table_ids=[t["table_id"] for t in with_idle["tables"]],
            players=[t["user_ids"] for t in with_idle["tables"]],
        )
        await asyncio.to_thread(
            wait_until,
            lambda: hands_ended(cluster, table_ids),
            timeout=240,
            what="every table's first hand to end",
        )
        final_versions = dict(
            cluster.database.query("SELECT id, version FROM games_table WHERE id = ANY(%s)", (table_ids,))
        )
        for watcher in watchers:
            await watcher.wait_for_version(final_versions[watcher.table_id], timeout=30)
    finally:
        await asyncio.gather(*(w.close() for w in watchers))

    report = cluster.seed("replay_check", table_ids=table_ids)
    assert len(report) == TABLES
    for hand_id, entry in report.items():
        assert entry["actions"] > 0, hand_id
        assert entry["contiguous"], f"hand {hand_id}: the action log has gaps or repeats"
        assert entry["replay_matches"], f"hand {hand_id}: the log does not replay to the stored result"
        assert entry["log_matches_state"], f"hand {hand_id}: the log differs from the table's state"

    # Every action was played by the clock (nobody acted), each version used once per table.
    rows = cluster.database.query(
        """SELECT t.id, a.version, a.by_clock, a.seat FROM games_action a
           JOIN games_hand h ON h.id = a.hand_id JOIN games_match m ON m.id = h.match_id
           JOIN games_table t ON t.id = m.table_id WHERE t.id = ANY(%s) ORDER BY t.id, a.seq""",
        (table_ids,),
    )
    assert all(by_clock for _, _, by_clock, _ in rows)
    for table_id in table_ids:
        versions = [v for t, v, _, _ in rows if t == table_id]
        assert versions == sorted(set(versions)), f"table {table_id}: versions repeat or go back"
    idle_tables = {t["table_id"] for t in with_idle["tables"]}
    timeouts = [r for r in rows if r[0] in idle_tables and r[3] == 0]
    assert timeouts, "the idle seats never timed out"

    # Both clocks did part of the work.
    writers = dict(
        cluster.database.query(
            """SELECT au.app, count(*) FROM mp_audit au JOIN games_action a ON a.id = au.action_id
               JOIN games_hand h ON h.id = a.hand_id JOIN games_match m ON m.id = h.match_id
               WHERE m.table_id = ANY(%s) GROUP BY au.app""",
            (table_ids,),
        )
    )
    assert set(writers) == {s.name for s in servers}, writers
    assert_ledger_once(cluster, table_ids)
    assert_clean_logs(servers)


async def test_two_clocks_deal_the_next_hand_once_when_a_person_never_presses(cluster, servers):
    """Three people press 下一局, the winner never does: once the ready timeout has passed, one of the
    two clocks deals the next hand, once (a second deal would break the hand's unique number, and
    the failing process would log it)."""
    room = {
        "bot_delay": 0.02,
        "claim_pause": 0,
        "discard_timeout": 600,
        "claim_timeout": 600,
        "ready_timeout": 1,
    }
    setup = cluster.seed("self_draw", room=room, declare=True, others_ready=True)
    table_id = setup["table_id"]

    def hands() -> list[tuple[int, bool]]:
        return cluster.database.query(
            """SELECT h.number, h.result IS NOT NULL FROM games_hand h JOIN games_match m ON m.id = h.match_id
               WHERE m.table_id = %s ORDER BY h.number""",
            (table_id,),
        )

    await asyncio.to_thread(wait_until, lambda: len(hands()) >= 2, timeout=60, what="the next deal")
    assert hands() == [(1, True), (2, False)]
    ready = cluster.database.query("SELECT ready FROM games_seat WHERE table_id = %s", (table_id,))
    assert ready == [(False,)] * 4, "the presses were not cleared by the deal"
    assert_clean_logs(servers)
