"""Account deletion (issue 24 items 1 and 2): its name can be neither squatted nor imitated, it closes
the account's sockets once, and it never leaves a seat held by a deleted user."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts import services
from accounts.models import DELETED_NAME, Profile, deleted_username
from accounts.names import is_reserved, normalise_display_name
from games import services as games
from games.errors import ServiceError
from games.models import Room, Seat
from games.services import broadcast

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

PASSWORD = "tile-pass-77"
FIXTURE_PASSWORD = "pw-123456"  # make_user's (tests/conftest.py)
User = get_user_model()


def signed_in(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def sign_up(username: str, display_name: str = "") -> Client:
    client = Client(raise_request_exception=False)
    data = {"username": username, "display_name": display_name, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", data)


@pytest.fixture
def sent(monkeypatch) -> list[dict]:
    """Every message the services hand to the channel layer."""
    messages: list[dict] = []
    monkeypatch.setattr(broadcast, "_send", lambda group, message: messages.append(message))
    return messages


def test_deleting_an_account_tells_the_sockets_once(alice, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in(alice).post("/accounts/delete/", {"password": FIXTURE_PASSWORD, "confirm": "on"})
    assert response.status_code == 302
    assert [m for m in sent if m["type"] == "user.close"] == [{"type": "user.close", "user_id": alice.pk}]


def test_logging_out_still_tells_the_sockets_once(alice, sent):
    assert signed_in(alice).post("/accounts/logout/").status_code in (200, 302)
    assert [m for m in sent if m["type"] == "user.close"] == [{"type": "user.close", "user_id": alice.pk}]


def test_a_second_deletion_of_the_same_account_is_refused_and_tells_no_one(
    alice, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.delete_account(user=alice, password=FIXTURE_PASSWORD)
        with pytest.raises(services.AccountError):
            services.delete_account(user=alice, password=FIXTURE_PASSWORD)  # `alice` as the request held it
    assert len([m for m in sent if m["type"] == "user.close"]) == 1


def test_the_deleted_username_cannot_be_registered_beforehand(alice):
    squatter = sign_up(f"deleted-{alice.pk}")  # the old form: still a valid username, now harmless
    assert squatter.status_code == 302
    refused = sign_up(deleted_username(alice.pk))
    assert refused.status_code == 200 and refused.context["form"].errors["username"]
    response = signed_in(alice).post("/accounts/delete/", {"password": FIXTURE_PASSWORD, "confirm": "on"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert not alice.is_active and alice.username == deleted_username(alice.pk)


@pytest.mark.parametrize(
    "name",
    [
        "已注销\u200b",
        "\u200b已注销",
        "已\u200d注\u2060销",
        " 已 注 销 ",
        "已注销\ufeff",
        "\u202e已注销",
        "已注销\u3164",
        "ＤＥＬＥＴＥＤ",
        "Deleted",
        "deleted user",
        "Deleted-User",
        "已删除",
        "注销",
    ],
)
def test_a_display_name_that_passes_for_a_deleted_account_is_refused(alice, name):
    response = signed_in(alice).post("/accounts/profile/", {"display_name": name, "email": ""})
    assert response.status_code == 200
    assert response.context["form"].errors["display_name"] == ["This name is kept for deleted accounts."]
    assert not Profile.objects.filter(user=alice).exclude(display_name="").exists()
    refused = sign_up("mei", name)
    assert refused.context["form"].errors["display_name"] == ["This name is kept for deleted accounts."]


@pytest.mark.parametrize("username", ["deleted", "Deleted", "已注销"])
def test_a_username_that_passes_for_a_deleted_account_is_refused(username):
    refused = sign_up(username)
    assert refused.status_code == 200
    assert refused.context["form"].errors["username"] == ["This name is kept for deleted accounts."]
    assert not User.objects.filter(username=username).exists()


def test_display_names_are_stored_normalised(alice):
    response = signed_in(alice).post(
        "/accounts/profile/", {"display_name": "\u200bＭｅｉ\u00a0\u00a0Ｌｉｎｇ\u200e\t", "email": ""}
    )
    assert response.status_code == 302
    assert Profile.objects.get(user=alice).display_name == "Mei Ling"
    services.update_profile(user=alice, display_name="小\u200b美", email="")
    assert Profile.objects.get(user=alice).display_name == "小美"


def test_ordinary_names_are_not_reserved():
    for name in ("小美", "Deleter", "已注销的朋友", "deleted2", "Mei Ling"):
        assert not is_reserved(name), name
    assert normalise_display_name(DELETED_NAME) == DELETED_NAME and is_reserved(DELETED_NAME)


def test_a_deleted_user_cannot_take_a_seat(alice, bob):
    room = Room.objects.create(name="Seats", bot_delay=0, claim_pause=0, bot_level="easy")
    table = games.table_create(room_id=room.pk, user=bob)
    services.delete_account(user=alice, password=FIXTURE_PASSWORD)
    for sit in (
        lambda: games.table_sit(table_id=table.pk, user=alice),
        lambda: games.table_create(room_id=room.pk, user=alice),
    ):
        with pytest.raises(ServiceError) as refused:
            sit()  # `alice` as a request that began before the deletion holds her
        assert refused.value.code == "login_required"
    assert not Seat.objects.filter(user=alice).exists()
