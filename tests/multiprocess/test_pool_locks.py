"""The writes over many people's quick-start entries never wait on a row another transaction holds
(games/services/pairing.py `_lock_free`): a heartbeat's vouch and a sweep pass over a held entry and
go on, so they cannot close a circle of waits with pairing, a join or another process's sweep, and
the clock that runs them is never held up. A held entry is vouched for or swept once it is free."""

from __future__ import annotations

import psycopg

from tests.multiprocess.cluster import Cluster

ENTRIES = (
    "from games.models import Pool, PoolEntry; from games import services; "
    "from django.contrib.auth import get_user_model; "
    "users = list(get_user_model().objects.filter(pk__in={ids})); "
    "[services.pool_join(pool_id={pool}, user=u) for u in users]; "
    "print(*sorted(PoolEntry.objects.filter(user_id__in={ids}).values_list('pk', flat=True)))"
)


def _entries(cluster: Cluster, entry_ids: list[int]) -> list[tuple]:
    return cluster.database.query(
        "SELECT id, expires FROM games_poolentry WHERE id = ANY(%s) ORDER BY id", (entry_ids,)
    )


def _service(cluster: Cluster, call: str) -> int:
    """Run a pairing service in a process of its own; it must return while the test holds a row (a
    service that waited for it would still be waiting when the timeout ends the test)."""
    out = cluster.manage("shell", "-c", f"from games import services; print({call})", timeout=60)
    return int(out.strip().splitlines()[-1])


def test_a_vouch_and_a_sweep_pass_over_an_entry_another_transaction_holds(cluster: Cluster, servers):
    seeded = cluster.seed("pool_people", people=2, pools=1)
    (pool,) = seeded["pools"]
    user_ids = [p["user_id"] for p in seeded["people"]]
    out = cluster.manage("shell", "-c", ENTRIES.format(ids=user_ids, pool=pool))
    held, free = map(int, out.strip().splitlines()[-1].split())
    before = dict(_entries(cluster, [held, free]))

    with psycopg.connect(cluster.database.url, autocommit=False) as holder:
        holder.execute("SELECT id FROM games_poolentry WHERE id = %s FOR UPDATE", (held,))
        assert _service(cluster, f"services.pool_vouch({user_ids})") == 1
        after = dict(_entries(cluster, [held, free]))
        assert after[held] == before[held] and after[free] > before[free]

    cluster.database.query(
        "UPDATE games_poolentry SET expires = now() - interval '1 minute' WHERE id = ANY(%s)", ([held, free],)
    )
    with psycopg.connect(cluster.database.url, autocommit=False) as holder:
        holder.execute("SELECT id FROM games_poolentry WHERE id = %s FOR UPDATE", (held,))
        _service(cluster, "services.sweep_pool_entries()")  # the clocks may have swept `free` first
        assert [row[0] for row in _entries(cluster, [held, free])] == [held]
    _service(cluster, "services.sweep_pool_entries()")
    assert _entries(cluster, [held, free]) == []


def test_a_sweep_locks_the_entries_only_not_their_room(cluster: Cluster, servers):
    """A held room row (staff saving the room, a table opened in it) does not keep its lapsed
    entries from being swept: the sweep's filter joins the pool and the room, and locks neither."""
    seeded = cluster.seed("pool_people", people=2, pools=1)
    (pool,) = seeded["pools"]
    user_ids = [p["user_id"] for p in seeded["people"]]
    out = cluster.manage("shell", "-c", ENTRIES.format(ids=user_ids, pool=pool))
    entry_ids = list(map(int, out.strip().splitlines()[-1].split()))
    cluster.database.query(
        "UPDATE games_poolentry SET expires = now() - interval '1 minute' WHERE id = ANY(%s)", (entry_ids,)
    )
    with psycopg.connect(cluster.database.url, autocommit=False) as holder:
        holder.execute("SELECT id FROM games_room WHERE id = %s FOR UPDATE", (seeded["room_id"],))
        _service(cluster, "services.sweep_pool_entries()")  # the clocks' sweeps may have been first
        assert _entries(cluster, entry_ids) == []
