"""Bot-played hands stored at a table, for tests and benches: far faster than driving the clock.

Each hand is dealt from a reproducible seed and played by the room's bot through the game services
(`table_play_bots_hand`), so its rows — the Hand, its Action log, the table's scores and next dealer,
the ledger's settlement, history's records and ratings — are exactly the ones a played hand leaves.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from games.models import Hand, Match, Room, Table
from games.services import table_play_bots_hand, table_seat_for_simulation


def seated_table(room: Room, users: list) -> tuple[Table, Match]:
    """A playing table whose seat i holds `users[i]` (None: a bot of the room's level), and its match."""
    return table_seat_for_simulation(room=room, users=users)


def play_stored_hand(table: Table, seed: str, ended: datetime | None = None) -> Hand:
    """Play the table's next hand with bots in every seat, stored as the services store it."""
    hand = table_play_bots_hand(table_id=table.pk, seed=seed, ended=ended)
    table.refresh_from_db()
    return hand


def play_stored_hands(table: Table, match: Match, count: int, seed: str = "history") -> list[Hand]:
    """`count` hands in a row at one table, seeds derived from `seed`; each ends when it is written."""
    first = (match.hands.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    return [
        play_stored_hand(table, hashlib.sha256(f"{seed}:{table.pk}:{first + i}".encode()).hexdigest())
        for i in range(count)
    ]
