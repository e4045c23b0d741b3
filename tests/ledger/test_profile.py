"""The profile page shows the player's ledger balance."""

from __future__ import annotations

import pytest
from django.test import Client

from ledger.services import balance_of, issue_penalty

pytestmark = pytest.mark.django_db


def balance_shown(user) -> str:
    client = Client()
    client.force_login(user)
    response = client.get("/accounts/profile/")
    assert response.status_code == 200
    return response.context["balance"], response.content.decode()


def test_profile_shows_the_balance_of_hands_and_penalties(ended_hand, players):
    ann = players[0]
    issue_penalty(hand=ended_hand, seat=0, reason="left")
    expected = balance_of(ann)
    assert expected == int(ended_hand.result["payments"][0]) - 6
    shown, page = balance_shown(ann)
    assert shown == expected
    assert f'data-balance="{expected}"' in page


def test_profile_of_a_new_player_shows_zero(make_user):
    shown, page = balance_shown(make_user("nobody"))
    assert 'data-balance="0.00"' in page
