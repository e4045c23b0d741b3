"""Log-outs and account deletions never freeze a process's live tables (issue 24 item 1).

Sixteen tables play (bots only) on two processes, each watched from one of them. Sixteen signed-in
people watch two tables each, one socket on each process. Eight delete their accounts; eight log
out twice at once, through both processes; four more close their sockets as they post their log-out.
Each of these used to send `user.close` to a socket already closing, which ended the process's
listener for good: no table update was pushed there any more, and no socket was closed on a later
log-out.
"""

from __future__ import annotations

import asyncio

from tests.multiprocess.client import TableClient
from tests.multiprocess.helpers import assert_clean_logs, post_form

TABLES = 16
REVOKED = 16  # the first half delete their accounts, the second half log out twice
CLOSERS = 4  # and these close their sockets while they post their log-out
# Slow bots: a hand lasts far longer than the test, so every table is mid-hand throughout.
ROOM = {"bot_delay": 0.3, "claim_pause": 0}
CLOSE_SIGNED_OUT = 4401


async def test_deletions_and_double_log_outs_leave_every_table_updating(cluster, servers):
    seeded = cluster.seed("tables", count=TABLES, humans=1, room=ROOM)
    table_ids = [t["table_id"] for t in seeded["tables"]]
    people = cluster.seed("signed_in_users", count=REVOKED + CLOSERS)
    watchers = [TableClient(f"watcher-{i}", servers[i % 2].ws_url, t) for i, t in enumerate(table_ids)]
    revocable = [
        TableClient(f"person{p}@{s.name}", s.ws_url, table_ids[(2 * p + k) % TABLES], person["session"])
        for p, person in enumerate(people["users"][:REVOKED])
        for k, s in enumerate(servers)
    ]
    closers = people["users"][REVOKED:]
    closing = [
        TableClient(f"closer{p}@{s.name}", s.ws_url, table_ids[(2 * p + k) % TABLES], person["session"])
        for p, person in enumerate(closers)
        for k, s in enumerate(servers)
    ]
    await asyncio.gather(*(c.connect() for c in watchers + revocable + closing))
    try:
        cluster.seed(
            "start",
            table_ids=table_ids,
            players=[t["user_ids"] for t in seeded["tables"]],
            all_bots=True,
        )
        await asyncio.gather(
            *(w.wait_for(lambda c: c.version > 0, timeout=60, what="a frame") for w in watchers)
        )

        def revoke(p: int, person: dict) -> list:
            if p < REVOKED // 2:
                data = {"password": people["password"], "confirm": "on"}
                return [(servers[p % 2], "/accounts/delete/", person["session"], data)]
            return [(server, "/accounts/logout/", person["session"], None) for server in servers]

        requests = [r for p, person in enumerate(people["users"][:REVOKED]) for r in revoke(p, person)]
        requests += [(servers[p % 2], "/accounts/logout/", c["session"], None) for p, c in enumerate(closers)]
        posted = asyncio.gather(*(asyncio.to_thread(post_form, *r) for r in requests))
        statuses, _ = await asyncio.gather(posted, asyncio.gather(*(c.close() for c in closing)))
        assert set(statuses) == {302}, statuses

        # Every revoked socket is closed, by the server, as signed out.
        await asyncio.gather(
            *(c.wait_for(lambda c: c.closed_by_server, timeout=30, what="the close") for c in revocable)
        )
        assert {c.close_code for c in revocable} == {CLOSE_SIGNED_OUT}

        # Every table keeps updating on both processes: two more versions reach each watcher.
        marks = [w.version for w in watchers]
        await asyncio.gather(
            *(
                w.wait_for(
                    lambda c, m=m: c.version >= m + 2, timeout=60, what="updates after the revocations"
                )
                for w, m in zip(watchers, marks, strict=True)
            )
        )
        deleted = [p["user_id"] for p in people["users"][: REVOKED // 2]]
        rows = cluster.database.query(
            "SELECT count(*) FROM auth_user WHERE id = ANY(%s) AND NOT is_active", (deleted,)
        )
        assert rows == [(REVOKED // 2,)]
        print(
            f"{REVOKED // 2} deletions and {REVOKED // 2} double log-outs: "
            f"{sum(c.close_code == CLOSE_SIGNED_OUT for c in revocable)}/{len(revocable)} revoked sockets "
            f"closed as signed out, {len(watchers)}/{TABLES} tables still updating"
        )
    finally:
        await asyncio.gather(*(c.close() for c in watchers + revocable + closing))
    assert_clean_logs(servers)
