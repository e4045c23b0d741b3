"""The ready check (rules §10): once one person presses Start, every other person at the table has
the room's `ready_timeout` seconds to press it too, or is removed from the seat.

The check's deadline is the Table's `deadline` row, enforced by the same clock as turn timeouts
(`clock_tick` → `expire_ready_checks`), so any number of processes may run it and it fires once.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.models import Seat, Table

from .changes import bump, lock_table, seats_of
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
    ready = [seat for seat in seats_of(table) if seat.ready]
    if ready:
        Seat.objects.filter(pk__in=[seat.pk for seat in ready]).update(ready=False)
    for seat in ready:
        seat.ready = False
    table.deadline = None


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


def expire_ready_checks(*, now: datetime | None = None, limit: int = 100) -> int:
    """Remove the people who did not press Start in time; returns how many checks expired."""
    now = now or timezone.now()
    due = list(
        Table.objects.filter(status=Table.Status.WAITING, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(_expire(table_id, now) for table_id in due)


def _expire(table_id: int, now: datetime) -> int:
    with transaction.atomic():
        table = lock_table(table_id, skip_locked=True, status=Table.Status.WAITING, deadline__lte=now)
        if table is None:
            return 0
        fields = {"deadline"}
        for seat in [s for s in seats_of(table) if s.user_id is not None and not s.ready]:
            fields.update(remove_from_waiting_table(table, seat))
        clear_check(table)
        bump(table, *sorted(fields), lobby=True)
        return 1
