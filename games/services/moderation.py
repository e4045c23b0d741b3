"""Staff verbs behind the admin: ban / unban players, close tables and rooms.

A banned player cannot sit; one already seated is stood up at once at a waiting table, or after the
current hand at a playing one. Closing a table or a room takes effect after the current hand.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.errors import ServiceError
from games.models import Room, Table
from ledger.models import Ban

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
        table_ids = list(
            Table.objects.filter(seats__user=user)
            .exclude(status=Table.Status.FINISHED)
            .values_list("pk", flat=True)
        )
        for table_id in table_ids:
            _stand_up_banned(table_id, user)
        on_commit_close_user_sockets(user.pk)
    return ban


def _stand_up_banned(table_id: int, user) -> None:
    table = locked_table(table_id)
    seat = user_seat(table, user)
    if seat is None:
        return
    if table.status == Table.Status.WAITING:
        fields = remove_from_waiting_table(table, seat)
    elif hand_in_progress(table) is not None:
        seat.leave_after_hand = True
        seat.save(update_fields=["leave_after_hand"])
        fields = []
    else:  # between hands: stand up now
        fields = vacate(table, seat)
    bump(table, *fields, lobby=True)


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
