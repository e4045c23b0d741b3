"""Passwords (validators, change, reset by mail), the profile service, and account deletion."""

from __future__ import annotations

import re
import sys
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from accounts.models import DELETED_NAME, Profile, deleted_username, display_name
from games import services as games
from games.models import Room
from history.models import HandRecord, Player
from history.simulation import play_stored_hands, seated_table
from ledger.models import LedgerEntry
from ledger.services import balance_of

# These tests read the English words of pages and messages (the site default is Chinese).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

PASSWORD = "tile-pass-77"
FIXTURE_PASSWORD = "pw-123456"  # make_user's (tests/conftest.py)
User = get_user_model()


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("password", ["mahjong", "password123", "12345678", "meiling-99"])
def test_sign_up_refuses_short_common_numeric_and_name_like_passwords(password):
    data = {
        "username": "meiling",
        "email": "meiling-99@example.com",
        "password1": password,
        "password2": password,
    }
    response = Client().post("/accounts/signup/", data)
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not User.objects.filter(username="meiling").exists()


def test_sign_up_makes_one_profile_and_a_page_view_makes_none():
    Client().post(
        "/accounts/signup/",
        {"username": "mei", "display_name": " 小美 ", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert list(Profile.objects.values_list("user__username", "display_name")) == [("mei", "小美")]
    admin_made = User.objects.create_user(username="ops", password=PASSWORD)
    client = signed_in(admin_made)
    assert client.get("/accounts/profile/").status_code == 200
    assert not Profile.objects.filter(user=admin_made).exists()
    client.post("/accounts/profile/", {"display_name": "运维", "email": "ops@example.com"})
    assert display_name(admin_made) == "运维"
    admin_made.refresh_from_db()
    assert admin_made.email == "ops@example.com"


def test_nobody_may_take_the_deleted_accounts_name():
    user = User.objects.create_user(username="sly", password=PASSWORD)
    response = signed_in(user).post("/accounts/profile/", {"display_name": DELETED_NAME})
    assert response.status_code == 200 and response.context["form"].errors["display_name"]
    assert display_name(user) == "sly"


@pytest.fixture
def socket_closer(monkeypatch):
    """Records whose table sockets every process is told to close (the message games.live acts on)."""
    from games.services import broadcast

    closed: list[int] = []

    def send(group: str, message: dict) -> None:
        if message.get("type") == "user.close":
            closed.append(message["user_id"])

    monkeypatch.setattr(broadcast, "_send", send)
    return closed


def test_password_change_keeps_this_session_ends_the_others_and_closes_sockets(
    socket_closer, django_capture_on_commit_callbacks
):
    user = User.objects.create_user(username="li", password=PASSWORD)
    here, elsewhere = signed_in(user), signed_in(user)
    page = here.get("/accounts/password_change/")
    assert page.status_code == 200 and "site.css" in page.content.decode()
    wrong = here.post(
        "/accounts/password_change/",
        {"old_password": "not-it-123", "new_password1": "new-tiles-88", "new_password2": "new-tiles-88"},
    )
    assert wrong.status_code == 200 and wrong.context["form"].errors["old_password"]
    with django_capture_on_commit_callbacks(execute=True):
        done = here.post(
            "/accounts/password_change/",
            {"old_password": PASSWORD, "new_password1": "new-tiles-88", "new_password2": "new-tiles-88"},
        )
    assert done.status_code == 302 and done.url == reverse("accounts:password_change_done")
    assert socket_closer == [user.pk]
    user.refresh_from_db()
    assert user.check_password("new-tiles-88")
    assert here.get("/accounts/profile/").status_code == 200
    assert elsewhere.get("/accounts/profile/").status_code == 302  # to the log-in page


def test_password_change_works_without_the_socket_layer(monkeypatch):
    monkeypatch.setitem(sys.modules, "games.live", None)  # `from games.live import …` raises ImportError
    user = User.objects.create_user(username="li", password=PASSWORD)
    response = signed_in(user).post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": "new-tiles-88", "new_password2": "new-tiles-88"},
    )
    assert response.status_code == 302


def test_password_reset_by_mail(mailoutbox, socket_closer, django_capture_on_commit_callbacks):
    user = User.objects.create_user(username="li", password=PASSWORD, email="li@example.com")
    client = Client()
    assert client.post("/accounts/password_reset/", {"email": "nobody@example.com"}).status_code == 302
    assert mailoutbox == []  # the same answer either way: the page does not tell who has an account
    response = client.post("/accounts/password_reset/", {"email": "LI@example.com"})
    assert response.url == reverse("accounts:password_reset_done")
    (mail,) = mailoutbox
    assert mail.to == ["li@example.com"] and "li" in mail.body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.body).group(1)
    form_url = client.get(link).url  # Django swaps the token for a session key and redirects
    bad = client.post(form_url, {"new_password1": "mahjong", "new_password2": "mahjong"})
    assert bad.status_code == 200 and bad.context["form"].errors["new_password2"]
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(form_url, {"new_password1": "fresh-tiles-31", "new_password2": "fresh-tiles-31"})
    assert done.url == reverse("accounts:password_reset_complete")
    assert socket_closer == [user.pk]
    user.refresh_from_db()
    assert user.check_password("fresh-tiles-31")
    again = client.get(link)
    assert again.status_code == 200 and 'data-testid="reset-invalid"' in again.content.decode()


@pytest.fixture
def history_of_alice(alice, bob):
    """alice and bob played 6 hands at a table that has since closed."""
    room = Room.objects.create(
        name="Deletion room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy"
    )
    table, match = seated_table(room, [alice, None, bob, None])
    play_stored_hands(table, match, 6, seed="deletion")
    games.table_close(table_id=table.pk)
    return table, match


def test_deleting_an_account_keeps_its_hands_and_ledger_under_the_name_deleted(history_of_alice, alice, bob):
    _, match = history_of_alice
    records, entries, total = (
        HandRecord.objects.count(),
        LedgerEntry.objects.count(),
        LedgerEntry.objects.aggregate(s=Sum("amount"))["s"],
    )
    balance = balance_of(alice)
    client = signed_in(alice)
    wrong = client.post("/accounts/delete/", {"password": "not-it-123", "confirm": "on"})
    assert wrong.status_code == 400 and "password is not right" in wrong.content.decode()
    assert User.objects.get(pk=alice.pk).is_active
    done = client.post("/accounts/delete/", {"password": FIXTURE_PASSWORD, "confirm": "on"})
    assert done.status_code == 302
    alice.refresh_from_db()
    assert (
        not alice.is_active
        and not alice.has_usable_password()
        and alice.username == deleted_username(alice.pk)
    )
    assert display_name(alice) == DELETED_NAME
    assert client.get("/accounts/profile/").status_code == 302  # logged out
    assert not Client().login(request=HttpRequest(), username="alice", password=FIXTURE_PASSWORD)
    # Every row stays, and the books still balance.
    assert HandRecord.objects.count() == records and LedgerEntry.objects.count() == entries
    assert LedgerEntry.objects.aggregate(s=Sum("amount"))["s"] == total
    assert balance_of(alice) == balance
    player = Player.objects.select_related("user__profile").get(user=alice)
    assert player.name == DELETED_NAME
    match_page = signed_in(bob).get(reverse("history:match", args=[match.pk])).content.decode()
    assert DELETED_NAME in match_page and ">alice<" not in match_page
    assert DELETED_NAME in Client().get(reverse("history:stats", args=[player.key])).content.decode()


def test_a_seated_player_must_leave_the_table_before_deleting(alice, room_for_waiting):
    table = games.table_create(room_id=room_for_waiting.pk, user=alice)
    client = signed_in(alice)
    refused = client.post("/accounts/delete/", {"password": FIXTURE_PASSWORD, "confirm": "on"})
    assert refused.status_code == 400
    assert f"table {table.pk}: leave it first" in refused.content.decode()
    assert User.objects.get(pk=alice.pk).is_active
    games.table_stand(table_id=table.pk, user=alice)
    assert (
        client.post("/accounts/delete/", {"password": FIXTURE_PASSWORD, "confirm": "on"}).status_code == 302
    )


def test_deletion_needs_the_confirmation_box(alice):
    response = signed_in(alice).post("/accounts/delete/", {"password": FIXTURE_PASSWORD})
    assert response.status_code == 400 and User.objects.get(pk=alice.pk).is_active


@pytest.fixture
def room_for_waiting(db):
    return Room.objects.create(
        name="Waiting room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy"
    )


def test_the_header_shows_the_avatar_of_the_signed_in_player():
    client = Client()
    client.post(
        "/accounts/signup/",
        {"username": "mei", "display_name": "小美", "password1": PASSWORD, "password2": PASSWORD},
    )
    response = client.get("/")
    hue = response.context["user_avatar"].hue
    assert 0 <= hue < 12
    assert (
        f'<span class="avatar small hue-{hue}" aria-hidden="true">小</span> 小美' in response.content.decode()
    )


def test_a_sign_up_that_loses_the_race_for_a_username_gets_a_form_error(monkeypatch):
    """The form saw the name free; another sign-up took it before the insert."""
    from accounts import forms

    monkeypatch.setattr(forms.SignUpForm, "clean_username", lambda self: self.cleaned_data["username"])
    monkeypatch.setattr(forms.SignUpForm, "validate_unique", lambda self: None)
    User.objects.create_user(username="mei", password=PASSWORD)
    response = Client().post(
        "/accounts/signup/", {"username": "mei", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == ["That username is taken."]
    assert User.objects.filter(username="mei").count() == 1 and not Profile.objects.exists()
