"""The one way a service changes a table: lock it, check it, change it, bump its version, and tell the
sockets after the commit.

    with transaction.atomic():
        table = locked_table(table_id)          # games.store.lock: the row lock, then one read
        ...check, change seats / the engine state (games.store.append / save)...
        bump(table, "stake")                    # the next version, one UPDATE, notify after commit

A change of the hand (`play`) bumps the version with every action it appends and saves through the
store; it then calls `notify` itself. The message carries only `(table_id, version)`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from django.contrib.auth import get_user_model

from games import store
from games.errors import ServiceError
from games.models import Hand, Seat, Table

from .broadcast import on_commit_table_changed

log = logging.getLogger(__name__)


def each_table(table_ids: Iterable[int], step: Callable[[int], int], *, what: str) -> int:
    """The sum of `step(table_id)` over the tables, each on its own: one table's failure is logged
    with its id and the others go on (the clock must not stop every table because one breaks)."""
    done = 0
    for table_id in table_ids:
        try:
            done += step(table_id)
        except Exception:
            log.exception("table %s: %s failed", table_id, what)
    return done


def require_user(user) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required")


def lock_seat_taker(user) -> None:
    """Lock the user's row before they take a seat, and refuse an account deleted meanwhile.

    Account deletion locks the same row before it checks that the user sits nowhere
    (`accounts.services.delete_account`): whichever comes second waits and then sees the other's
    commit, so a deleted user never holds a seat. Taken after the table's lock, as no one locks a
    user's row and then a table."""
    if not get_user_model().objects.select_for_update().filter(pk=user.pk, is_active=True).exists():
        raise ServiceError("login_required")


def locked_table(
    table_id: int, *, required: bool = True, skip_locked: bool = False, **conditions
) -> Table | None:
    """The Table row, locked until the end of the transaction (see `games.store.lock`). When no row
    matches (no such table, `conditions` not met, or with `skip_locked` another transaction holds
    it): `no_such_table`, or None when not `required` (the clock and the sweeps skip it)."""
    valid = isinstance(table_id, int) and not isinstance(table_id, bool)
    table = store.lock(table_id, skip_locked=skip_locked, **conditions) if valid else None
    if table is None and required:
        raise ServiceError("no_such_table")
    return table


def playing_table(table_id: int, *, dealt: bool = True) -> Table:
    """The locked table, which must be playing a match (and, with `dealt`, have a hand dealt: a
    match's tables set up by history's simulations start without one); `table_not_playing`
    otherwise."""
    table = locked_table(table_id)
    if table.status != Table.Status.PLAYING or (dealt and not table.state):
        raise ServiceError("table_not_playing")
    return table


def client_version(version) -> int:
    """The table version a click was made on, as its form sent it; `stale_version` when it is no
    whole number ("1e400" parses to inf)."""
    try:
        return int(version)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ServiceError("stale_version") from exc


def seats_of(table: Table) -> list[Seat]:
    """The locked table's seats in index order (the objects every helper of the call changes)."""
    return store.seats(table)


def user_seat(table: Table, user) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return next((seat for seat in seats_of(table) if seat.user_id == user.pk), None)


def own_seat(table: Table, user) -> Seat:
    """The user's seat at the locked table; `not_seated` when they have none."""
    seat = user_seat(table, user)
    if seat is None:
        raise ServiceError("not_seated")
    return seat


def current_hand(table: Table) -> Hand | None:
    """The hand dealt last at this table (being played, or ended and not yet followed); None before
    the first deal. Every service and the renderer find the current hand through this."""
    return table.hand


def notify(table: Table, *, lobby: bool = False) -> None:
    """After the commit, tell the table's sockets (and the lobby, with `lobby`) that it is now at
    `table.version` (the store keeps the version's snapshot on the same commit, `store.save`)."""
    on_commit_table_changed(table.pk, table.version, lobby=lobby)


def bump(table: Table, *fields: str, lobby: bool = False) -> None:
    """The locked table changed (`fields` of the Table row, or only its seats): one version more,
    saved in one UPDATE, and its sockets told after the commit."""
    store.bump_version(table)
    table.save(update_fields=["version", *fields])
    notify(table, lobby=lobby)
