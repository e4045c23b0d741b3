"""Fixtures for the web-layer tests: a fast room, users, and a table with one human and three bots."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client

from games import services
from games.models import Room


@pytest.fixture(autouse=True)
def _no_clock(settings):
    settings.GAME_CLOCK_ENABLED = False
    # These tests drive sockets at machine speed (bots with no think delay), far past any person's
    # pace: the per-socket rate limit is tested on its own (test_consumers.py).
    settings.TABLE_SOCKET_BURST, settings.TABLE_SOCKET_RATE = 10**6, 10.0**6
    # Every test client connects from one address; the socket limits are tested on their own
    # (test_live_limits.py).
    settings.SOCKETS_PER_ADDRESS, settings.SPECTATORS_PER_TABLE = 0, 0
    settings.SPECTATORS_PER_ADDRESS_PER_TABLE = 0


@pytest.fixture
def room(db):
    return Room.objects.create(
        name="Test room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy"
    )


@pytest.fixture
def bot_table(room, alice):
    """A started table: alice in seat 0, bots elsewhere."""
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_fill_bots(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table


@pytest.fixture
def client_for():
    """A test client (signed in as `user`, if given) that answers a server error with a 500 page,
    as a browser would see it, instead of raising."""

    def make(user=None):
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        return client

    return make
