"""Reads for pages and the lobby: queries only, no state change, a fixed number of queries per page.

The services write; the pages, the lobby and the live table's renders read through here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Prefetch

from games import compiled
from games.models import Room, Seat, Table


@dataclass
class LobbyTable:
    table: Table
    seats: list[Seat]  # in seat order, with users and profiles
    mine: bool  # the viewer sits here


@dataclass
class LobbyRoom:
    room: Room
    tables: list[LobbyTable]


def lobby_rooms(user) -> list[LobbyRoom]:
    """The open rooms by name, each with its tables that someone can join or watch: not finished,
    someone still seated, and private ones only for the people sitting at them (a private table is
    joined by its invite link). Three queries whatever the number of rooms and tables."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user__profile").order_by("index"))
    tables = Prefetch(
        "tables",
        queryset=Table.objects.exclude(status=Table.Status.FINISHED)
        .defer("state")  # the game itself: not shown in the lobby
        .order_by("id")
        .prefetch_related(seats),
        to_attr="lobby_tables",
    )
    signed_in = user is not None and user.is_authenticated
    rooms = []
    for room in Room.objects.filter(is_open=True).order_by("name").prefetch_related(tables):
        listed = []
        for table in room.lobby_tables:
            seated = list(table.seats.all())
            if not any(s.user_id for s in seated):
                continue  # everyone left: nothing to join or watch
            mine = signed_in and any(s.user_id == user.pk for s in seated)
            if table.private and not mine:
                continue
            listed.append(LobbyTable(table, seated, mine))
        rooms.append(LobbyRoom(room, listed))
    return rooms


def table_created(table_id: int):
    """When the table was made (None: no such table): with its id, it names one table for good, even
    where a test database hands the same id out again."""
    return Table.objects.filter(pk=table_id).values_list("created", flat=True).first()


def is_seated(table_id: int, user_id: int) -> bool:
    return Seat.objects.filter(table_id=table_id, user_id=user_id).exists()


def _render_seat_rows(table_id: int):
    return (
        Seat.objects.select_related("table__room", "user__profile")
        .filter(table_id=table_id)
        .order_by("index")
    )


class _SeatsQuery:
    """The seats of one table with their table, room, users and profiles: one query compiled once per
    thread (`games.compiled.prepared`; compiling it was a third of a render's ORM time under load),
    then turned into model instances the way Django's own iterator does. Every row carries the same
    table and room: they are built from the first row only and shared by all seats (as
    `_load_table` always did with the per-row copies)."""

    _local = threading.local()

    def __init__(self) -> None:
        self.query = query = compiled.prepared(("render_seats",), _render_seat_rows, [0])
        self.table_populators = [p for p in query.populators if p.model_cls is Table]
        self.other_populators = [p for p in query.populators if p.model_cls is not Table]
        if len(self.table_populators) != 1:
            raise RuntimeError("the seats query should select one table per row")
        # Rows after the first skip the table's and room's columns (the game state's JSON among
        # them): unused.
        klass_info = query.compiler.klass_info
        table_info = next(info for info in klass_info["related_klass_infos"] if info["model"] is Table)
        table_columns = set(_selected_columns(table_info))
        self.seat_converters = {i: c for i, c in query.converters.items() if i not in table_columns}

    @classmethod
    def run(cls, table_id: int) -> list[Seat]:
        seats_query = getattr(cls._local, "query", None)
        if seats_query is None:
            seats_query = cls._local.query = cls()
        query = seats_query.query
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute(query.sql, query.params_for([table_id]))
            rows = cursor.fetchall()
        if rows:
            convert = query.compiler.apply_converters
            rows = [*convert(rows[:1], query.converters), *convert(rows[1:], seats_query.seat_converters)]
        seats = []
        table = None
        for row in rows:
            seat = Seat.from_db(DEFAULT_DB_ALIAS, query.init_list, row[query.own])
            if table is None:
                seats_query.table_populators[0].populate(row, seat)
                table = seat.table
            else:
                seat.table = table
            for populator in seats_query.other_populators:
                populator.populate(row, seat)
            seats.append(seat)
        return seats


def _selected_columns(klass_info: dict):
    """The select positions of a `klass_info`'s model and of the models selected through it."""
    yield from klass_info["select_fields"]
    for related in klass_info.get("related_klass_infos", ()):
        yield from _selected_columns(related)


def _load_table(table_id: int) -> tuple[Table | None, list[Seat] | None]:
    """The table, its room, seats, users and profiles in one query (a table always has its seats)."""
    seats = _SeatsQuery.run(table_id)
    if not seats:
        return Table.objects.select_related("room").filter(pk=table_id).first(), None
    return seats[0].table, seats


def table_with_seats(table_id: int) -> tuple[Table | None, list[Seat] | None]:
    """For a live render: the table with its room, seats, users and profiles, in one query."""
    return _load_table(table_id)
