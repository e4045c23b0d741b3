"""A player's page is public except the money: the ledger balance and penalties show to the player
and the staff only (issue 17.6), whoever asks and however the page is reached."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from history.models import Player
from ledger.services import issue_penalty

# These tests read the English words of pages and messages (the site default is Chinese).
pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def alice_page(played, alice, make_user):
    _, _, hands = played
    issue_penalty(hand=hands[-1], seat=0, reason="left early")  # alice sits at seat 0
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    return reverse("history:stats", args=[Player.objects.get(user=alice).key]), staff


def page_as(user, url) -> tuple[object, str]:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.context["stats"], response.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "another player"])
def test_others_see_the_statistics_but_not_the_balance_or_penalties(alice_page, bob, who):
    url, _ = alice_page
    stats, page = page_as(None if who == "anonymous" else bob, url)
    assert stats.hands == 12 and f'data-stat="hands">{stats.hands}<' in page
    assert 'data-stat="win_rate"' in page and 'data-testid="recent-matches"' in page
    assert stats.ledger_balance is None
    assert 'data-stat="ledger_balance"' not in page
    assert "penalties" not in page and "Ledger balance" not in page


@pytest.mark.parametrize("who", ["the player", "staff"])
def test_the_player_and_the_staff_see_the_balance_and_penalties(alice_page, alice, who):
    url, staff = alice_page
    stats, page = page_as(alice if who == "the player" else staff, url)
    assert stats.ledger_balance == stats.total + stats.ledger_extra
    assert stats.ledger_extra < 0  # the penalty
    assert f'data-stat="ledger_balance">{stats.ledger_balance}<' in page
    assert f"penalties etc. {stats.ledger_extra}" in page


def test_the_player_page_is_the_profile_avatar_rating_and_recent_matches(played, alice, bob):
    table, match, _ = played
    key = Player.objects.get(user=alice).key
    response = Client().get(reverse("history:stats", args=[key]))
    page = response.content.decode()
    avatar = response.context["avatar"]
    assert avatar.initial == "A" and 0 <= avatar.hue < 12
    assert f'class="avatar hue-{avatar.hue}" data-testid="avatar" aria-hidden="true">A<' in page
    assert 'data-stat="rating"' in page
    assert [r["match"] for r in response.context["recent_matches"]] == [match.pk]
    assert f'<tr data-match="{match.pk}">' in page
    assert reverse("history:stats", args=[f"u{bob.pk}"]) in page  # the other player is linked
