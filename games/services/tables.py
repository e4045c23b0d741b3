"""Seating verbs: create a table, sit, stand, fill with bots.

Each runs in one transaction with the Table row locked, bumps `Table.version` and broadcasts after
commit.
"""

from __future__ import annotations

from django.db import transaction

from games.engine.bots import levels as bot_levels
from games.errors import ServiceError
from games.models import PoolEntry, Room, Seat, Table
from ledger.models import Penalty
from ledger.services import is_banned

from . import table_notes
from .broadcast import on_commit_table_changed
from .changes import bump, lock_seat_taker, locked_table, own_seat, require_user, seats_of, user_seat
from .presence import hand_in_progress, penalise
from .readiness import remove_from_waiting_table
from .room_settings import bot_level
from .settlement import vacate


def leave_pools_to_sit(user) -> None:
    """The person takes a seat by hand (the caller holds their user row): they wait in no quick-start
    pool any more (games/services/pairing.py). No push of its own: taking a seat pushes the lobby."""
    PoolEntry.objects.filter(user_id=user.pk).delete()


def table_create(*, room_id: int, user, settings: dict | None = None) -> Table:
    """A new waiting table in the room with its creator in seat 0 (the owner).

    `settings`: Table fields already checked against the room (`table_settings.table_open`)."""
    require_user(user)
    with transaction.atomic():
        room = Room.objects.filter(pk=room_id).first()
        if room is None:
            raise ServiceError("no_such_room")
        if not room.is_open:
            raise ServiceError("room_closed")
        if is_banned(user):
            raise ServiceError("banned")
        lock_seat_taker(user)
        leave_pools_to_sit(user)
        table = Table.objects.create(room=room, owner=user, version=1, **(settings or {}))
        agreed = table.stake is not None  # the creator chose the stake
        Seat.objects.bulk_create(
            [
                Seat(table=table, index=i, user=user if i == 0 else None, stake_accepted=agreed and i == 0)
                for i in range(4)
            ]
        )
        on_commit_table_changed(table.pk, table.version, lobby=True)
    return table


def table_sit(*, table_id: int, user, seat: int | None = None) -> Seat:
    """Take a seat (the given one, or the first empty one) at a waiting table."""
    require_user(user)
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.WAITING:
            raise ServiceError("table_not_waiting")
        if user_seat(table, user) is not None:
            raise ServiceError("already_seated")
        if is_banned(user):
            raise ServiceError("banned")
        lock_seat_taker(user)
        leave_pools_to_sit(user)
        seats = seats_of(table)
        if seat is None:
            target = next((s for s in seats if s.is_empty), None)
            if target is None:
                raise ServiceError("table_full")
        else:
            if not isinstance(seat, int) or not 0 <= seat <= 3:
                raise ServiceError("no_such_seat")
            target = seats[seat]
            if not target.is_empty:
                raise ServiceError("seat_taken")
        target.user = user
        target.save(update_fields=["user"])
        fields = []
        if table.owner_id is None:
            table.owner = user
            fields.append("owner")
        bump(table, *fields, lobby=True)
    return target


def table_stand(*, table_id: int, user):
    """Leave the table. During a hand the leaver is penalised, a bot takes the seat and 荒番 resets;
    at a waiting table an owner's leaving clears the stake for the next owner to set. Returns the
    penalty charged (a ledger `Penalty`), or None."""
    require_user(user)
    with transaction.atomic():
        table = locked_table(table_id)
        seat = own_seat(table, user)
        penalty = None
        playing = table.status == Table.Status.PLAYING
        table_notes.note_departure(table, seat, table_notes.LEFT, bot=playing)
        if playing:
            hand = hand_in_progress(table)
            if hand is not None:  # 逃跑: penalised at once (rules §10)
                penalty = penalise(table, seat, hand, Penalty.Kind.LEAVE)
            fields = vacate(table, seat)
        else:
            fields = remove_from_waiting_table(table, seat)
        bump(table, *fields, lobby=True)
    return penalty


def table_fill_bots(*, table_id: int, user, level: str | None = None, seat: int | None = None) -> int:
    """Put a bot of `level` (the room's by default) in every empty seat of a waiting table, or only
    in empty seat `seat` when given; returns how many were added."""
    require_user(user)
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.WAITING:
            raise ServiceError("table_not_waiting")
        own_seat(table, user)
        level = level or bot_level(table)
        if level not in bot_levels():
            raise ServiceError("bad_bot_level")
        empty = [s for s in seats_of(table) if s.is_empty and (seat is None or s.index == seat)]
        if seat is not None and not empty:
            raise ServiceError("no_such_seat")
        for target in empty:
            target.is_bot = True
            target.bot_level = level
            target.save(update_fields=["is_bot", "bot_level"])
        if empty:
            bump(table, lobby=True)
    return len(empty)


def table_remove_bot(*, table_id: int, user, seat: int) -> None:
    """Empty a bot's seat at a waiting table."""
    require_user(user)
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.WAITING:
            raise ServiceError("table_not_waiting")
        own_seat(table, user)
        target = next((s for s in seats_of(table) if s.index == seat and s.is_bot), None)
        if target is None:
            raise ServiceError("no_such_seat")
        target.is_bot = False
        target.bot_level = ""
        target.save(update_fields=["is_bot", "bot_level"])
        bump(table, lobby=True)
