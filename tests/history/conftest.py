"""Fixtures for the history tests: a fast room, a few users, and tables of stored bot-played hands."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from games.models import Room
from history.simulation import play_stored_hands, seated_table


@pytest.fixture(autouse=True)
def _no_clock(settings):
    settings.GAME_CLOCK_ENABLED = False


@pytest.fixture
def room(db):
    return Room.objects.create(name="History room", bot_delay=Decimal("0"), bot_level="easy")


@pytest.fixture
def make_user(db):
    def make(name: str):
        return get_user_model().objects.create_user(username=name, password="pw-123456")

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def played(room, alice, bob):
    """alice (seat 0) and bob (seat 2) with two bots, 12 stored hands."""
    table, match = seated_table(room, [alice, None, bob, None])
    hands = play_stored_hands(table, match, 12, seed="played")
    return table, match, hands
