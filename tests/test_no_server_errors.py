"""Every page and form, fed odd input by anonymous, signed-in, seated and staff users, answers with
something other than a server error (the standard: a clear error, never a traceback, never a 500)."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.test import Client

from games import selectors, services
from games.models import Room
from history import reviews
from history.replay import source_from_hand
from history.simulation import play_stored_hands, seated_table

ODD_IDS = ["999999"]
ODD_QUERIES = [
    "",
    "?page=abc",
    "?page=-1",
    "?page=99999",
    "?step=abc",
    "?step=-5",
    "?step=1e9",
    "?room=abc",
    "?room=999999",
    "?room=",
    "?bots=hide",
    "?page=1&room=1&bots=x",
    "?d=abc",
    "?d=-5",
    "?d=1e9",
]
ODD_KEYS = ["nobody", "🀄" * 3, "x" * 300, "1", "-1", "%00"]
ODD_POSTS = [
    {},
    {"seat": "abc"},
    {"seat": "-1"},
    {"seat": "9"},
    {"seat": ""},
    {"level": "bogus"},
    {"level": "hard"},
    {"version": "NaN"},
    {"display_name": "x" * 500},
    {"username": "", "password1": ""},
]


@pytest.fixture
def world(db, alice, bob, make_user, settings):
    settings.HISTORY_REVIEW_INLINE = True  # a review asked for is computed in the request
    room = Room.objects.create(
        name="Fuzz room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy"
    )
    table, match = seated_table(room, [alice, None, bob, None])
    hands = play_stored_hands(table, match, 2, seed="fuzz")
    # seat 0's review is stored, so its page (and every ?d=) is there to be fed odd input
    reviews.ask(hands[-1], 0, source_from_hand(hands[-1], selectors.hand_log(hands[-1])).export)
    waiting = services.table_create(room_id=room.pk, user=alice)
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    return {
        "room": room,
        "table": table,
        "match": match,
        "hand": hands[-1],
        "waiting": waiting,
        "users": {"anonymous": None, "alice": alice, "bob": bob, "staff": staff},
    }


def urls(world) -> list[str]:
    room, table, waiting = world["room"].pk, world["table"].pk, world["waiting"].pk
    match, hand, alice = world["match"].pk, world["hand"].pk, world["users"]["alice"].pk
    paths = [
        "/",
        "/accounts/signup/",
        "/accounts/login/",
        "/accounts/profile/",
        "/accounts/delete/",
        "/accounts/password_change/",
        "/accounts/password_change/done/",
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/MQ/set-password/",
        "/accounts/reset/x/bad-token/",
        "/accounts/reset/done/",
        "/history/matches/",
        "/history/stats/",
        "/history/leaderboard/",
        "/history/replay/import/",
        "/history/replay/imported/",
        f"/history/matches/{match}/",
        f"/history/tables/{table}/",
        f"/history/hands/{hand}/",
        f"/history/hands/{hand}/export.json",
        f"/history/hands/{hand}/review/0/",
        f"/history/hands/{hand}/review/1/",
        f"/history/hands/{hand}/review/0/status/",
        f"/history/hands/{hand}/review/7/",
        f"/history/players/{alice}/",
        f"/history/players/{alice}/matches/",
        "/admin/",
        "/admin/ledger/penalty/",
        "/admin/games/room/",
        "/calc/",
        "/calc/?hand=55555m&meld=chow:123z:1&tile=xx&winner=9",
    ]
    for table_id in (table, waiting, *ODD_IDS):
        paths += [
            f"/table/{table_id}/{verb}"
            for verb in ("", "sit/", "stand/", "fill/", "remove-bot/", "start/", "next/")
        ]
    for room_id in (room, *ODD_IDS):
        paths.append(f"/rooms/{room_id}/tables/new/")
    for id_ in ODD_IDS:
        paths += [
            f"/history/matches/{id_}/",
            f"/history/tables/{id_}/",
            f"/history/hands/{id_}/",
            f"/history/hands/{id_}/export.json",
            f"/history/hands/{id_}/review/0/",
            f"/history/hands/{id_}/review/0/status/",
        ]
    for key in ODD_KEYS:
        paths += [f"/history/players/{key}/", f"/history/players/{key}/matches/"]
    return paths


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["anonymous", "alice", "bob", "staff"])
def test_no_page_or_form_answers_with_a_server_error(world, who):
    client = client_for(world["users"][who])
    failures = []
    for path in urls(world):
        for query in ODD_QUERIES:
            response = client.get(path + query)
            if response.status_code >= 500:
                failures.append(("GET", path + query, response.status_code))
        for data in ODD_POSTS:
            response = client.post(path, data)
            if response.status_code >= 500:
                failures.append(("POST", path, data, response.status_code))
    assert not failures, failures


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"not json",
        b"{}",
        b"[]",
        b'{"version": 99}',
        b"\xff\xfe" * 100,
        b'{"seed": null, "actions": "x"}',
    ],
)
def test_an_odd_import_file_is_a_form_error(world, payload):
    client = client_for(world["users"]["alice"])
    upload = io.BytesIO(payload)
    upload.name = "hand.json"
    response = client.post("/history/replay/import/", {"file": upload})
    assert response.status_code in (200, 400)
    assert client.get("/history/replay/imported/").status_code in (200, 302)
