"""Staff verbs behind the admin: ban / unban players, close tables and rooms, delete an account.

A banned player cannot sit; one already seated is stood up at once at a waiting table, or after the
current hand at a playing one. Closing a table or a room takes effect after the current hand. An
account staff delete outright (the admin's delete) leaves its seats at once: nobody can play them
any more, so a bot takes a playing seat mid-hand (`stand_up_deleted`, run before the row goes).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.errors import ServiceError
from games.models import Room, Table
from ledger.models import Ban

from . import table_notes
from .broadcast import on_commit_close_user_sockets
from .changes import bump, locked_table, user_seat
from .presence import hand_in_progress
from .readiness import remove_from_waiting_table
from .settlement import close_table, vacate


def ban_player(*, user, reason: str, by=None) -> Ban:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("reason_required")
    with transaction.atomic():
        ban = Ban.objects.filter(user=user, lifted__isnull=True).first()
        if ban is None:
            ban = Ban.objects.create(user=user, reason=reason[:200], banned_by=by)
        _stand_up_everywhere(user, table_notes.BANNED, now=False)
    return ban


def stand_up_deleted(sender=None, *, instance, **kwargs) -> None:
    """A user row is being deleted (Django's `pre_delete`, connected in games/apps.py): empty its seats
    at every unfinished table first, in the deletion's transaction. Without this the seat would be
    left with neither a person nor a bot (`Seat.user` is SET_NULL), and a playing table would wait on
    the turn timer at every one of its turns."""
    with transaction.atomic():
        _stand_up_everywhere(instance, table_notes.ERASED, now=True)


def _stand_up_everywhere(user, reason: str, *, now: bool) -> None:
    """Stand `user` up at every unfinished table they sit at, and close their table sockets. A
    waiting table's seat is emptied; a playing one goes to a bot: at once between hands or with `now`,
    else after the hand in progress."""
    table_ids = list(
        Table.objects.filter(seats__user=user)
        .exclude(status=Table.Status.FINISHED)
        .values_list("pk", flat=True)
    )
    for table_id in table_ids:
        table = locked_table(table_id)
        seat = user_seat(table, user)
        if seat is None:
            continue
        if table.status == Table.Status.WAITING:
            table_notes.note_departure(table, seat, reason, bot=False)
            fields = remove_from_waiting_table(table, seat)
        elif not now and hand_in_progress(table) is not None:
            seat.leave_after_hand = True
            seat.save(update_fields=["leave_after_hand"])
            fields = []
        else:
            table_notes.note_departure(table, seat, reason, bot=True)
            fields = vacate(table, seat)
        bump(table, *fields, lobby=True)
    on_commit_close_user_sockets(user.pk)


def unban_player(*, user, by=None) -> int:
    """Lift the active ban (returns 1, or 0 when the player was not banned)."""
    with transaction.atomic():
        return Ban.objects.filter(user=user, lifted__isnull=True).update(lifted=timezone.now(), lifted_by=by)


def table_close(*, table_id: int) -> Table:
    """Close a table now if no hand is being played, else once the current hand ends."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status == Table.Status.FINISHED:
            return table
        if hand_in_progress(table) is None:
            close_table(table, timezone.now())
            bump(table, "status", "deadline", "turn_deadline", "closing", lobby=True)
        else:
            table.closing = True
            bump(table, "closing", lobby=True)
    return table


def room_close(*, room_id: int) -> Room:
    """No new tables; each open table closes after its current hand."""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(pk=room_id).first()
        if room is None:
            raise ServiceError("no_such_room")
        if room.is_open:
            room.is_open = False
            room.save(update_fields=["is_open"])
        for table_id in room.tables.exclude(status=Table.Status.FINISHED).values_list("pk", flat=True):
            table_close(table_id=table_id)
    return room
