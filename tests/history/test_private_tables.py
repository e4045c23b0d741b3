"""A private table stays private everywhere it is named (issue 24 item 3): every URL that names a
private table, one of its matches, hands, replays or exports answers a non-member exactly as it answers
for an id that does not exist (same status, same body once the URL itself is set aside), so ids cannot
be probed. Its members (seated players, the players of its matches, browsers that opened its invite
link, staff) still see it."""

from __future__ import annotations

import math
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from games.services.table_settings import INVITE_ALPHABET, INVITE_LENGTH, new_invite_code

MISSING = 987654321

# (name, method, what the id names): every URL of games/urls.py and history/urls.py that takes a
# table, match or hand id.
URLS = [
    ("games:table", "get", "table"),
    ("games:table_sit", "post", "table"),
    ("games:table_stand", "post", "table"),
    ("games:table_fill", "post", "table"),
    ("games:table_remove_bot", "post", "table"),
    ("games:table_start", "post", "table"),
    ("games:table_next_hand", "post", "table"),
    ("history:table", "get", "table"),
    ("history:match", "get", "match"),
    ("history:replay", "get", "hand"),
    ("history:export", "get", "hand"),
]
# The review URLs take a hand and a seat: tests/history/test_review.py checks them the same way.


@pytest.fixture
def private(played):
    """The played table (alice and bob with two bots, 12 hands), made private, and its ids."""
    table, match, hands = played
    Table.objects.filter(pk=table.pk).update(private=True, invite_code=new_invite_code())
    table.refresh_from_db()
    return table, {"table": table.pk, "match": match.pk, "hand": hands[-1].pk}


def _answer(client: Client, name: str, method: str, object_id: int) -> tuple[int, str, str]:
    """(status, body, Location) with this URL and the per-response CSRF token written as placeholders."""
    url = reverse(name, args=[object_id])
    response = getattr(client, method)(url, {"seat": "1"} if method == "post" else {})
    body = response.content.decode()
    for form in (url, url.replace("/", "%2F")):
        body = body.replace(form, "<URL>")
    body = re.sub(r"[A-Za-z0-9]{64}", "<CSRF>", body)
    location = response.get("Location", "").replace(url, "<URL>").replace(url.replace("/", "%2F"), "<URL>")
    return response.status_code, body, location


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize(("name", "method", "names"), URLS, ids=[u[0] for u in URLS])
@pytest.mark.parametrize("who", ["anonymous", "signed-in stranger"])
def test_a_private_table_answers_a_non_member_as_a_missing_id(private, make_user, name, method, names, who):
    _, ids = private
    client = _client(None if who == "anonymous" else make_user("stranger"))
    private_answer = _answer(client, name, method, ids[names])
    missing_answer = _answer(client, name, method, MISSING)
    assert private_answer == missing_answer
    if who == "signed-in stranger":
        assert private_answer[0] == 404


GET_URLS = [u for u in URLS if u[1] == "get"]


@pytest.mark.parametrize(("name", "method", "names"), GET_URLS, ids=[u[0] for u in GET_URLS])
@pytest.mark.parametrize("who", ["seated player", "player of a match", "invited", "staff"])
def test_members_still_see_a_private_tables_pages(private, alice, bob, make_user, name, method, names, who):
    table, ids = private
    if who == "seated player":
        user = alice
    elif who == "player of a match":
        table.seats.filter(user=bob).update(user=None, is_bot=True, bot_level="easy")
        user = bob
    elif who == "staff":
        user = make_user("staff")
        user.is_staff = True
        user.save()
    else:
        user = make_user("friend")
    client = _client(user)
    if who == "invited":
        assert client.get(reverse("games:table_invite", args=[table.invite_code])).status_code == 200
    response = client.get(reverse(name, args=[ids[names]]))
    assert response.status_code in (200, 302)
    if response.status_code == 302:
        assert client.get(response["Location"]).status_code == 200


def test_a_public_tables_history_stays_public(played):
    table, match, hands = played
    for name, object_id in [("history:match", match.pk), ("history:replay", hands[0].pk)]:
        assert Client().get(reverse(name, args=[object_id])).status_code == 200


def test_others_lists_of_matches_do_not_link_a_private_match(private, alice, bob, make_user):
    """A player's public pages (matches, statistics) do not name the private table's match to
    strangers; the player sees it."""
    _, ids = private
    match_url = reverse("history:match", args=[ids["match"]])
    for name in ("history:player_matches", "history:stats"):
        url = reverse(name, args=[f"u{alice.pk}"])
        page = _client(make_user(f"s-{name}")).get(url).content.decode()
        assert match_url not in page
        assert "/history/hands/" not in page  # nor the biggest win's replay
        assert match_url in _client(alice).get(url).content.decode()


def test_invite_codes_carry_at_least_64_random_bits(room, alice):
    from games.services.table_settings import TableChoices, table_open

    assert INVITE_LENGTH * math.log2(len(set(INVITE_ALPHABET))) >= 64
    table = table_open(room_id=room.pk, user=alice, choices=TableChoices(private=True))
    table.refresh_from_db()
    assert len(table.invite_code) == INVITE_LENGTH and set(table.invite_code) <= set(INVITE_ALPHABET)
