"""The table stake k (底分), rules §10: the owner sets it, every other person accepts it or leaves.

The first person to sit at an empty table owns it. Once set, the stake stays until the owner leaves;
then it is cleared and the next owner (the person in the lowest seat) sets it again. Choice: an owner
leaving during a match passes the table on but the match keeps its stake (everyone agreed to it);
the next owner sets a new one when the table waits again.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy

from games.errors import ServiceError
from games.models import Seat, Table

from .changes import bump, locked_table, own_seat, require_user
from .tables import table_stand


def room_stakes(room) -> list[int]:
    """The stakes the room offers, as positive ints in order (a bad admin value offers none)."""
    stakes = room.stakes if isinstance(room.stakes, list) else []
    return sorted({s for s in stakes if isinstance(s, int) and not isinstance(s, bool) and s > 0})


def _waiting_seat(table_id: int, user) -> tuple[Table, Seat]:
    require_user(user)
    table = locked_table(table_id)
    if table.status != Table.Status.WAITING:
        raise ServiceError("table_not_waiting")
    seat = own_seat(table, user)
    return table, seat


def parse_stake(stake) -> int:
    """An int, or its decimal digits as text (a form field); anything else is refused."""
    if isinstance(stake, int) and not isinstance(stake, bool):
        return stake
    if isinstance(stake, str) and stake.strip().isdigit():
        return int(stake.strip())
    raise ServiceError("bad_stake")


def table_set_stake(*, table_id: int, user, stake) -> Table:
    """The owner chooses k from the room's list; the owner's own seat has accepted it."""
    with transaction.atomic():
        table, seat = _waiting_seat(table_id, user)
        if table.owner_id != user.pk:
            raise ServiceError("not_owner")
        value = parse_stake(stake)
        if value not in room_stakes(table.room):
            raise ServiceError("bad_stake")
        if table.stake is not None:
            raise ServiceError("stake_already_set")
        table.stake = value
        seat.stake_accepted = True
        seat.save(update_fields=["stake_accepted"])
        bump(table, "stake", lobby=True)
    return table


def table_accept_stake(*, table_id: int, user) -> Seat:
    """A seated person agrees to play at the stake the owner set."""
    with transaction.atomic():
        table, seat = _waiting_seat(table_id, user)
        if table.stake is None:
            raise ServiceError("stake_not_set")
        if not seat.stake_accepted:
            seat.stake_accepted = True
            seat.save(update_fields=["stake_accepted"])
            bump(table, lobby=True)
    return seat


def table_refuse_stake(*, table_id: int, user) -> None:
    """Declining the stake means leaving the table (rules §10)."""
    with transaction.atomic():
        table, _ = _waiting_seat(table_id, user)
        if table.stake is None:
            raise ServiceError("stake_not_set")
        if table.owner_id == user.pk:
            raise ServiceError("not_owner", gettext_lazy("底分是桌主定的；要离开请站起"))
        table_stand(table_id=table_id, user=user)


def require_agreed(table: Table, seat: Seat) -> None:
    """Before pressing Start: a stake is set and this person has accepted it.

    An owner who starts without choosing plays the room's lowest stake (that press is the choice).
    """
    if table.stake is None:
        offered = room_stakes(table.room)
        if table.owner_id != seat.user_id or not offered:
            raise ServiceError("stake_not_set")
        table.stake = offered[0]
        table.save(update_fields=["stake"])
        seat.stake_accepted = True
        seat.save(update_fields=["stake_accepted"])
    if not seat.stake_accepted:
        raise ServiceError("stake_not_accepted")
