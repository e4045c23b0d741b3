"""Assertions and waits shared by the multi-process tests (database truth, server logs)."""

from __future__ import annotations

import secrets
import urllib.error
import urllib.parse
import urllib.request
from decimal import Decimal

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


def table_row(cluster: Cluster, table_id: int) -> dict:
    ((version, scores, status),) = cluster.database.query(
        "SELECT version, scores, status FROM games_table WHERE id = %s", (table_id,)
    )
    return {"version": version, "scores": scores, "status": status}


def human_actions(cluster: Cluster, table_id: int) -> list[dict]:
    """Every action a person played at the table (not the clock), with the process that wrote it."""
    rows = cluster.database.query(
        """SELECT a.seat, a.version, a.action, au.app FROM games_action a
           JOIN games_hand h ON h.id = a.hand_id JOIN games_match m ON m.id = h.match_id
           LEFT JOIN mp_audit au ON au.action_id = a.id
           WHERE m.table_id = %s AND NOT a.by_clock ORDER BY a.version""",
        (table_id,),
    )
    return [{"seat": s, "version": v, "action": a, "app": app} for s, v, a, app in rows]


def assert_ledger_once(cluster: Cluster, table_ids: list[int]) -> None:
    """Every ended hand at these tables has exactly one settlement journal, whose per-seat entries
    are the hand's payments (so nothing was lost or posted twice) and sum to zero."""
    hands = cluster.database.query(
        """SELECT h.id, h.result -> 'payments' FROM games_hand h JOIN games_match m ON m.id = h.match_id
           WHERE m.table_id = ANY(%s) AND h.result IS NOT NULL""",
        (table_ids,),
    )
    assert hands, "no ended hand to check"
    for hand_id, payments in hands:
        journals = cluster.database.query(
            "SELECT id FROM ledger_journal WHERE kind = 'hand' AND hand_id = %s", (hand_id,)
        )
        assert len(journals) == 1, f"hand {hand_id} has {len(journals)} settlement journals"
        entries = cluster.database.query(
            "SELECT seat, amount FROM ledger_ledgerentry WHERE journal_id = %s", (journals[0][0],)
        )
        assert sum(amount for _, amount in entries) == 0, f"hand {hand_id}: entries do not balance"
        assert sorted((seat, amount) for seat, amount in entries) == [
            (seat, Decimal(int(p))) for seat, p in enumerate(payments)
        ], f"hand {hand_id}: entries differ from the payments {payments}"


def assert_applied_were_sent_once(applied: list[dict], sent: list[tuple[int, str]], who: str) -> None:
    """Every action in the log for this person matches its own message (same action, sent on a view
    older than the version it was applied at), and no message was applied twice. (A claim sent on
    an older view may land a few versions later: answers inside one claim window all count.)"""
    unused = sorted(sent)
    for row in sorted(applied, key=lambda a: a["version"]):
        match = next((m for m in unused if m[1] == row["action"] and m[0] < row["version"]), None)
        assert match is not None, f"{who}: {row} in the log matches no message sent (or one sent twice)"
        unused.remove(match)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def form_request(
    server: DaphneServer, path: str, session_key: str, data: dict | None = None, *, htmx: bool = False
) -> urllib.request.Request:
    """A form POST as the session's user, with a CSRF token as a browser holds it (`htmx`: sent by
    htmx, which asks for a fragment)."""
    token = secrets.token_hex(16)
    headers = {
        "Cookie": f"sessionid={session_key}; csrftoken={token}",
        "X-CSRFToken": token,
        "Content-Type": "application/x-www-form-urlencoded",
    }
    if htmx:
        headers["HX-Request"] = "true"
    return urllib.request.Request(
        server.http_url + path,
        data=urllib.parse.urlencode(data or {}).encode(),
        method="POST",
        headers=headers,
    )


def post_form(server: DaphneServer, path: str, session_key: str, data: dict | None = None) -> int:
    """POST a form as the session's user; the HTTP status (a redirect is not followed)."""
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(form_request(server, path, session_key, data), timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
