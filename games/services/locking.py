"""Small helpers shared by the services: the Table row lock, who sits where and the current hand.

A service reads the locked table once: the row with its room and current hand in one query, its four
seats in a second, both under the lock. From then on `table.seats.all()` is that list of seats, so
every helper sees the same objects; a service changes a seat through them (and keeps them in step
when it writes several seats with one UPDATE), never through a separately fetched copy.
"""

from __future__ import annotations

from django.db.models import QuerySet

from games import compiled
from games.models import Hand, Seat, Table

from .errors import ServiceError


def require_user(user) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required")


def lock_table(table_id: int, *, skip_locked: bool = False, **conditions) -> Table | None:
    """The Table row with its room, current hand and seats, locked until the end of the transaction
    (a no-op lock on SQLite); None when no row matches `conditions` (or, with `skip_locked`, when
    another transaction holds it).

    The lock is taken first, on the Table row alone; the row, its room, hand and seats are read by
    a second statement, once the lock is held. On PostgreSQL a `SELECT ... FOR UPDATE` that waited
    for the lock re-reads the locked row but keeps the rows it joined from before the wait: a
    service queued behind the end or the start of a hand would otherwise see the old hand (or none)
    and charge or spare a leaving player wrongly (tests/multiprocess/test_lock_races.py).

    Both statements run every action: their SQL is compiled once per thread (games.compiled)."""
    names = tuple(sorted(conditions))
    locked = compiled.select(
        ("lock_table", skip_locked, names),
        lambda pk, *values: _lock_row(pk, skip_locked, dict(zip(names, values, strict=True))),
        [table_id, *(conditions[name] for name in names)],
    )
    if not locked:
        return None
    return _read_locked(table_id)


def _lock_row(table_id: int, skip_locked: bool, conditions: dict):
    return (
        Table.objects.select_for_update(skip_locked=skip_locked)
        .filter(pk=table_id, **conditions)
        .only("pk")
        .order_by()[:1]
    )


def _seat_rows(table_id: int):
    """The table's seats in index order, each row carrying the table with its room and hand."""
    return (
        Seat.objects.filter(table_id=table_id).select_related("table__room", "table__hand").order_by("index")
    )


_seats_ordered = Seat.objects.order_by("index").query


def _seats_queryset(table_id: int) -> QuerySet:
    """`Seat.objects.filter(table_id=table_id).order_by("index")`, its filter added only if the
    queryset is ever used for another query (as a related manager defers it): building the filter
    cost more than the seats read itself."""
    seats = QuerySet(Seat, query=_seats_ordered.chain())
    seats._deferred_filter = (False, (), {"table_id": table_id})
    return seats


def _read_locked(table_id: int) -> Table:
    """Read the locked table, its room, hand and seats in one statement, and make the seats (in
    index order) its `seats.all()`, each seat's `table` that one Table object.

    What `prefetch_related("seats")` does, in a plain query: Django's prefetch machinery cost about
    as much CPU again as the query itself, and this runs for every action. Every table has its four
    seats from its creation (`table_create`), so the seats' rows always carry the table.
    """
    rows = compiled.select(("table_seats",), _seat_rows, [table_id])
    table = rows[0].table
    for seat in rows:
        seat.table = table
    seats = _seats_queryset(table_id)
    seats._result_cache = rows
    seats._prefetch_done = True
    table._prefetched_objects_cache = {Seat.table.field.remote_field.cache_name: seats}
    return table


def locked_table(table_id: int) -> Table:
    """The Table row, locked until the end of the transaction (see `lock_table`)."""
    if not isinstance(table_id, int) or isinstance(table_id, bool):
        raise ServiceError("no_such_table")
    table = lock_table(table_id)
    if table is None:
        raise ServiceError("no_such_table")
    return table


def user_seat(table: Table, user) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return next((seat for seat in table.seats.all() if seat.user_id == user.pk), None)


def current_hand(table: Table) -> Hand | None:
    """The hand dealt last at this table (being played, or ended and not yet followed); None before
    the first deal. Every service and the renderer find the current hand through this."""
    return table.hand
