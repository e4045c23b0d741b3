"""Reads for pages and the lobby: queries only, no state change, a fixed number of queries per page.

The services write; the pages, the lobby and the live table's renders read through here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from games import store
from games.models import TOURNAMENT_ROOM, Hand, Pool, PoolEntry, Room, Seat, Table


@dataclass
class LobbyTable:
    table: Table
    seats: list[Seat]  # in seat order, with users and profiles
    mine: bool  # the viewer sits here


@dataclass
class LobbyPool:
    pool: Pool
    waiting: int  # people waiting now
    playing: int  # its tables playing now
    mine: bool  # the viewer waits here


@dataclass
class LobbyRoom:
    room: Room
    tables: list[LobbyTable]
    pools: list[LobbyPool]


@dataclass
class LobbySnapshot:
    """What every lobby shows, read once for any number of viewers (`lobby_snapshot`)."""

    rooms: list[Room]  # open, by name; each with `lobby_tables` (not finished), their seats and users
    pools: dict[int, list[tuple[Pool, int, int]]]  # room id -> (pool, people waiting, tables playing)
    online: int
    taken: float  # time.monotonic() when the reading began


def lobby_snapshot(now: datetime | None = None) -> LobbySnapshot:
    """The lobby for everyone: five queries whatever the number of rooms, pools and tables. A
    viewer's lobby is `lobby_rooms(user, snapshot)` (the sockets of one process share a snapshot)."""
    taken = time.monotonic()
    now = now or timezone.now()
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user__profile").order_by("index"))
    tables = Prefetch(
        "tables",
        queryset=Table.objects.exclude(status=Table.Status.FINISHED)
        .defer("state")  # the game itself: not shown in the lobby
        .order_by("id")
        .prefetch_related(seats),
        to_attr="lobby_tables",
    )
    rooms = list(
        Room.objects.filter(is_open=True)
        .exclude(name=TOURNAMENT_ROOM)
        .order_by("name")
        .prefetch_related(tables)
    )
    return LobbySnapshot(rooms, pool_counts(now), people_online(now), taken)


def lobby_rooms(user, snapshot: LobbySnapshot | None = None) -> list[LobbyRoom]:
    """The open rooms by name, each with its tables that someone can join or watch: not finished,
    someone still seated, and private ones only for the people sitting at them (a private table is
    joined by its invite link), and the quick-start pools of each room. From `snapshot` (read now
    when not given) and one query of the viewer's own."""
    snapshot = snapshot or lobby_snapshot()
    signed_in = user is not None and user.is_authenticated
    waiting = waiting_in(user)
    rooms = []
    for room in snapshot.rooms:
        listed = []
        for table in room.lobby_tables:
            seated = list(table.seats.all())
            if not any(s.user_id for s in seated):
                continue  # everyone left: nothing to join or watch
            mine = signed_in and any(s.user_id == user.pk for s in seated)
            if table.private and not mine:
                continue
            listed.append(LobbyTable(table, seated, mine))
        pools = [
            LobbyPool(pool, n, playing, pool.pk == waiting)
            for pool, n, playing in snapshot.pools.get(room.pk, [])
        ]
        rooms.append(LobbyRoom(room, listed, pools))
    return rooms


def pool_counts(now: datetime | None = None) -> dict[int, list[tuple[Pool, int, int]]]:
    """The open pools of each room (by room id, in order), with how many people wait in each and how
    many of its tables are playing: one query."""
    now = now or timezone.now()

    def counted(queryset) -> Subquery:
        return Subquery(queryset.order_by().values("pool_id").annotate(n=Count("pk")).values("n")[:1])

    waiting = PoolEntry.objects.filter(pool_id=OuterRef("pk"), expires__gt=now)
    playing = Table.objects.filter(pool_id=OuterRef("pk"), status=Table.Status.PLAYING)
    rows = (
        Pool.objects.filter(is_active=True)
        .select_related("room")
        .annotate(n_waiting=Coalesce(counted(waiting), 0), n_playing=Coalesce(counted(playing), 0))
        .order_by("room_id", "order", "pk")
    )
    pools: dict[int, list[tuple[Pool, int, int]]] = {}
    for pool in rows:
        pools.setdefault(pool.room_id, []).append((pool, pool.n_waiting, pool.n_playing))
    return pools


def live_table_in(snapshot: LobbySnapshot, user) -> int | None:
    """The newest table (not finished) in the snapshot where the person has a seat, or None."""
    if user is None or not user.is_authenticated:
        return None
    ids = [
        t.pk
        for room in snapshot.rooms
        for t in room.lobby_tables
        if any(s.user_id == user.pk for s in t.seats.all())
    ]
    return max(ids, default=None)


def waiting_in(user, now: datetime | None = None) -> int | None:
    """The id of the pool the person waits in, or None."""
    if user is None or not user.is_authenticated:
        return None
    now = now or timezone.now()
    return (
        PoolEntry.objects.filter(user_id=user.pk, expires__gt=now).values_list("pool_id", flat=True).first()
    )


def people_online(now: datetime | None = None) -> int:
    """People at a table with their socket connected, or waiting in a pool (counted once): one query."""
    now = now or timezone.now()
    seated = (
        Seat.objects.filter(connected=True, user__isnull=False)
        .exclude(table__status=Table.Status.FINISHED)
        .order_by()
        .values("user_id")
    )
    waiting = PoolEntry.objects.filter(expires__gt=now).order_by().values("user_id")
    return seated.union(waiting).count()


def table_with_seats(table_id: int) -> tuple[Table | None, list[Seat] | None]:
    """For a live render: the table with its room, seats, users and profiles, in one query."""
    return store.table_with_seats(table_id)


def table_is_playing(table_id: int) -> bool:
    return Table.objects.filter(pk=table_id, status=Table.Status.PLAYING).exists()


def tables_still_playing(table_ids: list[int]) -> int:
    """How many of these tables have not finished (a tournament round ends when none has)."""
    return Table.objects.filter(pk__in=table_ids).exclude(status=Table.Status.FINISHED).count()


def hands_before(table_id: int, hand_id: int) -> int:
    """How many hands were dealt at the table before this one (its place in a planned sequence)."""
    return Hand.objects.filter(match__table_id=table_id, pk__lt=hand_id).count()


# The store's readers that pages use as they are: a replay's log, the staff pages' log, a render's
# seats and the saved form of a state (only the services and these selectors import the store).
hand_log = store.hand_log
table_log = store.table_log
seats = store.seats
state_json = store.state_json
# The store's one cache of table versions (issue 25), which the renders read: `snapshot(table)` for a
# table row, `render_snapshot(table_id, version, created)` with the rows a render needs.
snapshot = store.snapshot
render_snapshot = store.render_snapshot
