"""The uniform claim pause (issue 13): at a table with people every discard is followed by the same
screen for the seats that cannot claim it, and the next draw comes no sooner than the room's
`claim_pause` after the discard, whether or not any seat could claim.

The engine holds the window (`GameState.hold_discards`, `held`, `release`); this module says which
tables hold and when a held window is released. A release is not an action (no `Action` row): the log
replays to the same hand either way, the pause only decides when the next draw comes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.models import Table

from .changes import seats_of
from .room_settings import table_timers


def holds_discards(table: Table) -> bool:
    """Tables where a person sits: a bots-only table has nobody to keep claims from."""
    return any(seat.user_id for seat in seats_of(table))


def release_at(table: Table) -> datetime:
    """The discard's moment plus the pause. The window's timer (`turn_deadline`) was set to the claim
    timeout when the discard opened it and is kept while seats answer, so it dates the discard."""
    _, claim = table_timers(table)
    pause = timedelta(seconds=float(table.room.claim_pause))
    if table.turn_deadline is None:
        return table.changed + pause
    return table.turn_deadline - timedelta(seconds=claim) + pause


def release_due(table: Table, now: datetime) -> bool:
    return release_at(table) <= now
