"""What a table follows of its room's settings: the one place the services read them for a table.

`table_rules` computes a table's `Rules` (the room's house options, then the table's preset and
options on top), `table_timers` its turn timers (the table's choice, else the room's); the rest are
the room's settings every table of it follows.
"""

from __future__ import annotations

from datetime import timedelta

from games.engine.rules import Rules
from games.models import Room, Table


def room_rules(room: Room, preset: str | None = None, options: dict | None = None) -> Rules:
    """The room's house options, then a table's preset and options on top (raises ValueError)."""
    return Rules.of_preset(preset or room.preset, room.rules_options, options)


def table_rules(table: Table) -> Rules:
    """The rules this table deals with: every deal, replay and rules display goes through here."""
    return room_rules(table.room, table.preset, table.options)


def table_timers(table: Table) -> tuple[int, int]:
    """(seconds to discard, seconds to answer a claim) at this table."""
    room = table.room
    discard = table.discard_timeout if table.discard_timeout is not None else room.discard_timeout
    claim = table.claim_timeout if table.claim_timeout is not None else room.claim_timeout
    return discard, claim


def grace_period(table: Table) -> timedelta:
    """How long a disconnected person may stay away during a hand before the penalty."""
    return timedelta(seconds=table.room.grace_period)


def ready_timeout(table: Table) -> timedelta:
    """How long the others have to press Start once one person has, and how long after a hand ends
    the clock deals the next one to whoever has not pressed 下一局."""
    return timedelta(seconds=table.room.ready_timeout)


def bot_delay(table: Table) -> timedelta:
    """How long a bot (or a seat in 托管) thinks before it moves."""
    return timedelta(seconds=float(table.room.bot_delay))


def bot_level(table: Table) -> str:
    """The level of the room's bots (also those that take over a leaving person's seat)."""
    return table.room.bot_level
