"""Fixtures for the ledger tests: a fast room, players, and a hand played to its end."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games import services
from games.models import Hand, Room
from tests.games.helpers import play_until_ended, start_match


@pytest.fixture(autouse=True)
def _no_clock(settings):
    settings.GAME_CLOCK_ENABLED = False


@pytest.fixture
def room(db):
    return Room.objects.create(
        name="Ledger room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy", stakes=[1, 3]
    )


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat")]


@pytest.fixture
def started_table(room, players):
    """Ann (owner, stake 3), ben and cat in seats 0-2, a bot in seat 3; the match has started."""
    ann, ben, cat = players
    table = services.table_create(room_id=room.pk, user=ann)
    for user in (ben, cat):
        services.table_sit(table_id=table.pk, user=user)
    services.table_fill_bots(table_id=table.pk, user=ann)
    services.table_set_stake(table_id=table.pk, user=ann, stake=3)
    start_match(table.pk)
    table.refresh_from_db()
    return table


@pytest.fixture
def ended_hand(started_table, players):
    """The first hand of `started_table`, played to its end."""
    play_until_ended(started_table, dict(enumerate(players)))
    return Hand.objects.get(match__table=started_table, number=1)
