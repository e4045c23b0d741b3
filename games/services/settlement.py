"""What happens when a hand ends, beyond the engine: the ledger, banned players, closing tables.

`after_hand` runs inside the transaction that ends the hand (called from `play._finish_hand_if_over`),
so the hand's ledger entries commit or roll back together with its result.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.utils import timezone

from games.models import Hand, Seat, Table
from ledger.models import Penalty
from ledger.services import post_hand_settlement

from . import table_notes
from .changes import seats_of
from .room_settings import bot_level

# Told of every hand that ends, inside the transaction that ends it: the history app registers its
# `record_finished_hand` here (history/apps.py), so the game services never import history.
_hand_listeners: list[Callable[..., object]] = []


def on_hand_finished(listener: Callable[..., object]) -> None:
    """Call `listener(table=..., hand=...)` for every hand that ends, inside its transaction."""
    if listener not in _hand_listeners:
        _hand_listeners.append(listener)


def hand_finished(table: Table, hand: Hand) -> None:
    for listener in _hand_listeners:
        listener(table=table, hand=hand)


def seat_users(table: Table) -> list:
    """Who answers for each seat's money now: its person (also in 托管), or None for a bot."""
    seats = sorted(table.seats.select_related("user"), key=lambda s: s.index)
    return [seat.user if seat.user_id else None for seat in seats]


# The counts a table carries between hands that a player leaving resets (and the Table fields
# holding them): 荒番 (§7) and the match's 跟风 count (§9).
CARRIED_COUNTS = ("huangfan", "gengfeng")


def player_left(table: Table) -> list[str]:
    """A player left (逃跑, or 掉线 past the grace period, §10): the 荒番 count (§7) and the 跟风
    count (§9) start again at 0. The hand being played keeps what it was dealt with; the next hand
    starts at 0 (`after_hand` undoes what its end would have added). Returns the fields changed."""
    for name in CARRIED_COUNTS:
        setattr(table, name, 0)
    return list(CARRIED_COUNTS)


def vacate(table: Table, seat: Seat) -> list[str]:
    """Take the person off a seat of a playing table: a bot takes over (the clock looks at the table at
    once), 荒番 and 跟风 reset, the owner passes on.

    Returns the Table fields changed (the caller saves them).
    """
    user_id = seat.user_id
    seat.user = None
    seat.is_bot = True
    seat.bot_level = bot_level(table)
    reset_seat_flags(seat)
    seat.save()
    fields = player_left(table)
    table.deadline = timezone.now()  # the bot may be the seat the clock is waiting for
    fields.append("deadline")
    if table.owner_id == user_id:
        heir = first_person(table)
        table.owner = heir.user if heir else None
        fields.append("owner")
    return fields


def first_person(table: Table) -> Seat | None:
    """The seat of the person in the lowest seat (who inherits the table from a leaving owner)."""
    return next((seat for seat in seats_of(table) if seat.user_id is not None), None)


def reset_seat_flags(seat: Seat) -> None:
    seat.connected = False
    seat.stake_accepted = False
    seat.ready = False
    seat.autoplay = False
    seat.autoplay_reason = ""
    seat.timeouts = 0
    seat.away_since = None
    seat.leave_after_hand = False


def close_table(table: Table, now: datetime) -> None:
    """Finish the table now (the caller saves it): its match ends and nothing is scheduled."""
    table.status = Table.Status.FINISHED
    table.deadline = None
    table.turn_deadline = None
    table.closing = False
    table.matches.filter(ended__isnull=True).update(ended=now)


def after_hand(table: Table, hand: Hand, now: datetime) -> None:
    """Post the hand to the ledger, stand up seats marked to leave, and close a closing table."""
    post_hand_settlement(hand=hand, seat_users=seat_users(table))
    changed: set[str] = set()
    if Penalty.objects.filter(hand=hand, kind__in=(Penalty.Kind.LEAVE, Penalty.Kind.DISCONNECT)).exists():
        # Someone left during this hand: 荒番 and 跟风 were reset then, and the hand's own result
        # does not refill them (rules §7, §9: reset to 0 when any of the four leaves).
        changed.update(player_left(table))
    for seat in [s for s in seats_of(table) if s.leave_after_hand and s.user_id is not None]:
        table_notes.note_departure(table, seat, table_notes.BANNED, bot=True)  # only a ban sets it
        changed.update(vacate(table, seat))
    if table.closing or not table.room.is_open:
        close_table(table, now)
        changed.update({"status", "deadline", "turn_deadline", "closing"})
    if changed:
        table.save(update_fields=sorted(changed))
