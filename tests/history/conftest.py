"""Fixtures for the history tests: a fast room, a few users, and tables of stored bot-played hands."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.models import Room
from history.simulation import play_stored_hands, seated_table


@pytest.fixture(autouse=True)
def _no_clock(settings):
    settings.GAME_CLOCK_ENABLED = False


@pytest.fixture
def room(db):
    return Room.objects.create(
        name="History room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy"
    )


@pytest.fixture
def played(room, alice, bob):
    """alice (seat 0) and bob (seat 2) with two bots, 12 stored hands."""
    table, match = seated_table(room, [alice, None, bob, None])
    hands = play_stored_hands(table, match, 12, seed="played")
    return table, match, hands
