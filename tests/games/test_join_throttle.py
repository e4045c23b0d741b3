"""Invite codes cannot be guessed at machine speed (issue 24 item 3): `/join/<code>/` is throttled per
address and per account (settings.JOIN_ATTEMPTS_LIMIT a minute), with a page that says why."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.services.table_settings import TableChoices, table_open

pytestmark = pytest.mark.usefixtures("english")


def join(client: Client, code: str, address: str = "203.0.113.5"):
    return client.get(reverse("games:table_invite", args=[code]), REMOTE_ADDR=address)


@pytest.fixture
def code(room, alice):
    return table_open(room_id=room.pk, user=alice, choices=TableChoices(private=True)).invite_code


def test_an_address_that_guesses_too_often_is_told_to_wait(settings, code):
    settings.JOIN_ATTEMPTS_LIMIT = 10
    client = Client()
    for guess in range(10):
        assert join(client, f"WRONG{guess:09d}").status_code == 404
    refused = join(client, code)  # even the right code, once the address is over its limit
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many invite codes tried in a short time: please try again in 1 minutes." in page
    assert join(Client(), code, address="203.0.113.6").status_code == 200  # another address


def test_an_account_that_guesses_too_often_is_told_to_wait_from_any_address(settings, code, bob):
    settings.JOIN_ATTEMPTS_LIMIT = 3
    client = Client()
    client.force_login(bob)
    for guess in range(3):
        assert join(client, f"WRONG{guess:09d}", address=f"203.0.113.{10 + guess}").status_code == 404
    assert join(client, code, address="203.0.113.99").status_code == 429
    assert join(Client(), code, address="203.0.113.99").status_code == 200  # the address itself is fine
