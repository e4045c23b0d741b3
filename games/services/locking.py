"""Small helpers shared by the services: the Table row lock and who sits where."""

from __future__ import annotations

from games.models import Seat, Table

from .errors import ServiceError


def require_user(user) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required")


def locked_table(table_id: int) -> Table:
    """The Table row, locked until the end of the transaction (a no-op lock on SQLite)."""
    if not isinstance(table_id, int) or isinstance(table_id, bool):
        raise ServiceError("no_such_table")
    table = Table.objects.select_for_update(of=("self",)).select_related("room").filter(pk=table_id).first()
    if table is None:
        raise ServiceError("no_such_table")
    return table


def user_seat(table: Table, user) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return table.seats.filter(user_id=user.pk).first()
