"""Who is ready: before a match and between its hands.

The ready check (rules §10): once one person presses Start, every other person at the table has
the room's `ready_timeout` seconds to press it too, or is removed from the seat. The check's deadline
is the Table's `deadline` row, enforced by the same clock as turn timeouts (`clock_tick` →
`expire_ready_checks`), so any number of processes may run it and it fires once.

Between hands (the settlement panel): each person presses 下一局 Next hand, and the press that makes
every seat ready deals the next hand; a seat the clock plays (a bot, 托管) is always ready. Nobody
holds the table up for long: when a hand ends the Table's `deadline` is set `ready_timeout` after it,
and the clock then deals whoever has not pressed (`play._tick_between_hands`), as long as someone is
there to see it (`policy.someone_present`): a table whose people are all gone stops between hands instead
of letting the bots play their seats hand after hand.

Both use `Seat.ready`. They never overlap (the check is at a waiting table, the other between the
hands of a match), and every flag is cleared when a match starts and when a hand is dealt.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.errors import ServiceError
from games.models import Hand, Seat, Table

from . import table_notes
from .changes import bump, each_table, locked_table, seats_of
from .policy import counts_ready, next_hand_due
from .room_settings import ready_timeout
from .settlement import first_person, reset_seat_flags


def press_start(table: Table, seat: Seat, now: datetime) -> bool:
    """Mark the seat ready; True when every person seated is ready (the match may start).

    The first press opens the check: the table's deadline is set (the caller saves the table).
    """
    if not seat.ready:
        seat.ready = True
        seat.save(update_fields=["ready"])
    people = [s for s in seats_of(table) if s.user_id is not None]
    if all(s.ready for s in people):
        return True
    if table.deadline is None:
        table.deadline = now + ready_timeout(table)
    return False


def clear_check(table: Table) -> None:
    """End the check (match started, or timed out): nobody is ready any more; no deadline."""
    clear_ready(table)
    table.deadline = None


def clear_ready(table: Table) -> None:
    """Nobody is ready any more (a match starts, a check ends, a hand is dealt): one UPDATE, or none
    when no seat was."""
    ready = [seat for seat in seats_of(table) if seat.ready]
    if ready:
        Seat.objects.filter(pk__in=[seat.pk for seat in ready]).update(ready=False)
    for seat in ready:
        seat.ready = False


# --- between hands -------------------------------------------------------------------------------


def press_next_hand(table: Table, seat: Seat, hand: Hand, now: datetime) -> bool:
    """The seat's person presses 下一局; True when every seat is now ready (the caller deals, and the
    deal clears every flag, so this last press is not written).

    Otherwise the seat is marked ready, and the table's deadline is set if the clock had let the
    table rest with nobody present (the caller saves the table): the presser is present now.
    """
    if counts_ready(seat):
        raise ServiceError("already_ready")
    if all(counts_ready(other) for other in seats_of(table) if other is not seat):
        return True
    seat.ready = True
    seat.save(update_fields=["ready"])
    if table.deadline is None:
        table.deadline = max(next_hand_due(table, hand), now)
    return False


def remove_from_waiting_table(table: Table, seat: Seat) -> list[str]:
    """Empty a person's seat at a waiting table; an owner's leaving clears the stake and passes on the
    table. Returns the Table fields changed."""
    user_id = seat.user_id
    seat.user = None
    reset_seat_flags(seat)
    seat.save()
    if table.owner_id != user_id:
        return []
    heir = first_person(table)
    table.owner = heir.user if heir else None
    table.stake = None
    table.seats.update(stake_accepted=False)
    for other in seats_of(table):
        other.stake_accepted = False
    return ["owner", "stake"]


def expire_ready_checks(
    *, now: datetime | None = None, limit: int = 100, due: list[int] | None = None
) -> int:
    """Remove the people who did not press Start in time; returns how many checks expired. `due`:
    the waiting tables whose deadline has come, when the caller has read them (the clock's tick)."""
    now = now or timezone.now()
    if due is None:
        due = list(
            Table.objects.filter(status=Table.Status.WAITING, deadline__lte=now)
            .order_by("deadline")
            .values_list("pk", flat=True)[:limit]
        )
    return each_table(due, lambda table_id: _expire(table_id, now), what="expiring the ready check")


def _expire(table_id: int, now: datetime) -> int:
    with transaction.atomic():
        table = locked_table(
            table_id, required=False, skip_locked=True, status=Table.Status.WAITING, deadline__lte=now
        )
        if table is None:
            return 0
        fields = {"deadline"}
        for seat in [s for s in seats_of(table) if s.user_id is not None and not s.ready]:
            table_notes.note_departure(table, seat, table_notes.TIMED_OUT, bot=False)
            fields.update(remove_from_waiting_table(table, seat))
        clear_check(table)
        bump(table, *sorted(fields), lobby=True)
        return 1
