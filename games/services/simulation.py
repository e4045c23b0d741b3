"""A table set up for bot-played hands without the lobby's steps (tests, benches, history's
`simulation`): the rows `table_play_bots_hand` then plays at, written here so that nothing outside
the services writes a Table, Seat or Match row."""

from __future__ import annotations

from django.db import transaction

from games.models import Match, Room, Seat, Table


def table_seat_for_simulation(*, room: Room, users: list) -> tuple[Table, Match]:
    """A playing table whose seat i holds `users[i]` (None: a bot of the room's level), and its match."""
    with transaction.atomic():
        table = Table.objects.create(room=room, status=Table.Status.PLAYING, version=1, dealer=0)
        Seat.objects.bulk_create(
            [
                Seat(table=table, index=i, user=u, is_bot=u is None, bot_level="" if u else room.bot_level)
                for i, u in enumerate(users)
            ]
        )
        match = Match.objects.create(table=table, players=[u.pk if u else None for u in users])
    return table, match
