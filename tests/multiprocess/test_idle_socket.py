"""An idle table socket stays open: the Redis channel layer's blocking read must not time out.

redis-py 8 made `socket_timeout` default to 5 s, shorter than channels_redis's blocking BZPOPMIN, so
every consumer that heard nothing for 5 s crashed and its socket closed. Idleness is the condition
under test here, so this test does wait on the clock: past that 5 s default, then it checks that the
socket is still open and still receives updates.
"""

from __future__ import annotations

import asyncio

from tests.multiprocess.client import TableClient
from tests.multiprocess.helpers import assert_clean_logs, table_row

REDIS_PY_DEFAULT_SOCKET_TIMEOUT = 5.0


async def test_idle_socket_stays_open_and_still_hears_updates(cluster, servers):
    seeded = cluster.seed("tables", count=1, humans=1)
    table = seeded["tables"][0]
    client = TableClient("idle", servers[1].ws_url, table["table_id"], table["sessions"][0])
    await client.connect()
    try:
        await client.wait_for_version(table_row(cluster, table["table_id"])["version"])
        await asyncio.sleep(REDIS_PY_DEFAULT_SOCKET_TIMEOUT + 1.5)
        assert not client.closed_by_server, "the server closed an idle socket"
        before = client.version
        cluster.seed("start", table_ids=[table["table_id"]], players=[table["user_ids"]])
        await client.wait_for(lambda c: c.version > before, timeout=30, what="the update after the idle time")
    finally:
        await client.close()
    assert_clean_logs(servers)
