"""Assertions and waits shared by the multi-process tests (database truth, server logs)."""

from __future__ import annotations

from tests.multiprocess.cluster import Cluster, DaphneServer

LOG_FAILURE_MARKERS = ("Traceback", "game clock tick failed", "IntegrityError", "deadlock detected")


def hands_ended(cluster: Cluster, table_ids: list[int]) -> bool:
    """True when every table's current hand has a stored result."""
    rows = cluster.database.query(
        """SELECT t.id, (SELECT h.result IS NOT NULL FROM games_hand h JOIN games_match m ON m.id = h.match_id
                         WHERE m.table_id = t.id ORDER BY h.id DESC LIMIT 1)
           FROM games_table t WHERE t.id = ANY(%s)""",
        (table_ids,),
    )
    return len(rows) == len(table_ids) and all(ended for _, ended in rows)


def assert_clean_logs(servers: list[DaphneServer]) -> None:
    """No server logged a traceback, a failed clock tick, a constraint violation or a deadlock."""
    for server in servers:
        text = server.log_path.read_text(errors="replace") if server.log_path.exists() else ""
        found = [marker for marker in LOG_FAILURE_MARKERS if marker in text]
        assert not found, f"{server.name} logged {found}:\n{server.log_tail(60)}"
