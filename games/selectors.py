"""Reads for pages and the lobby: queries only, no state change, a fixed number of queries per page.

The services write; the pages, the lobby and the live table's renders read through here.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from games import store
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


def table_with_seats(table_id: int) -> tuple[Table | None, list[Seat] | None]:
    """For a live render: the table with its room, seats, users and profiles, in one query."""
    return store.table_with_seats(table_id)


# The store's readers that pages use as they are: a replay's log, the staff pages' log, a render's
# seats and the saved form of a state (only the services and these selectors import the store).
hand_log = store.hand_log
table_log = store.table_log
seats = store.seats
state_json = store.state_json
