"""Telling the sockets that something changed — only after the transaction commits.

Messages carry no game content, only which table changed and its new version: each process with
sockets at the table then renders every socket's own viewer's fragments (DESIGN.md §3), so nothing
hidden can ride along and a lost message costs nothing but a later snapshot.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games.engine.state import GameState

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    """The table's sockets (for messages between them, e.g. a presence check)."""
    return f"table-{table_id}"


def table_updates_group(table_id: int) -> str:
    """The processes with sockets at the table: one member per process (games/consumers.py's hub)."""
    return f"table-{table_id}-updates"


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def on_commit_table_changed(
    table_id: int,
    version: int,
    *,
    lobby: bool = False,
    state: GameState | None = None,
    hand_number: int | None = None,
) -> None:
    """Queue the table's update (and optionally the lobby's) for after the current commit.

    `state`, `hand_number`: the engine state the service saved at `version` and its hand's number
    (handed over: the caller must not change the state afterwards). After the commit they seed this
    process's render cache, so the sockets here render that version without reading the state back.
    """

    def send() -> None:
        if state is not None:
            # Imported here: the web layer's per-process cache (rendering imports the services).
            from games import rendering

            rendering.seed_version(table_id, version, state, hand_number)
        _send(
            table_updates_group(table_id), {"type": "table.update", "table_id": table_id, "version": version}
        )
        if lobby:
            _send(LOBBY_GROUP, {"type": "lobby.update"})

    transaction.on_commit(send)


def on_commit_lobby_changed() -> None:
    transaction.on_commit(lambda: _send(LOBBY_GROUP, {"type": "lobby.update"}))
