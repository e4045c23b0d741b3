"""Telling the tournament page's sockets (tournaments/sockets.py) that its standings or rounds
changed, after the commit. The message carries only the tournament's id: each socket renders the
public live part itself."""

from __future__ import annotations

from games.services.broadcast import on_commit_send


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def on_commit_standings_changed(tournament_id: int) -> None:
    """Inside a transaction: after it commits, tell the tournament page's sockets to render anew."""
    on_commit_send(
        tournament_group(tournament_id), {"type": "tournament.changed", "tournament_id": tournament_id}
    )
