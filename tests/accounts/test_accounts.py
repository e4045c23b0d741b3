"""Sign up, log in, log out, and the profile page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile, display_name

pytestmark = pytest.mark.django_db


def test_sign_up_logs_in_and_sets_display_name():
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {"username": "mei", "display_name": "小美", "password1": "tile-pass-77", "password2": "tile-pass-77"},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="mei")
    assert display_name(user) == "小美"
    assert "小美" in client.get("/").content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"username": "", "password1": "tile-pass-77", "password2": "tile-pass-77"},
        {"username": "mei", "password1": "tile-pass-77", "password2": "other-pass-77"},
        {"username": "mei", "password1": "123", "password2": "123"},
    ],
)
def test_bad_sign_up_shows_the_form_again(data):
    response = Client().post("/accounts/signup/", data)
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="mei").exists()


def test_log_in_and_out():
    get_user_model().objects.create_user(username="li", password="tile-pass-77")
    client = Client()
    assert client.post("/accounts/login/", {"username": "li", "password": "wrong"}).status_code == 200
    assert client.post("/accounts/login/", {"username": "li", "password": "tile-pass-77"}).status_code == 302
    assert client.get("/accounts/profile/").status_code == 200
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/accounts/profile/").status_code == 302


def test_profile_edits_display_name_and_requires_csrf():
    user = get_user_model().objects.create_user(username="wang", password="tile-pass-77")
    client = Client()
    client.force_login(user)
    assert client.post("/accounts/profile/", {"display_name": "  王老板 "}).status_code == 302
    assert Profile.objects.get(user=user).display_name == "王老板"
    assert client.post("/accounts/profile/", {"display_name": "x" * 40}).status_code == 200
    assert Profile.objects.get(user=user).display_name == "王老板"
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.post("/accounts/profile/", {"display_name": "hacked"}).status_code == 403
    assert Profile.objects.get(user=user).display_name == "王老板"


def test_display_name_falls_back_to_username():
    user = get_user_model().objects.create_user(username="zhao", password="tile-pass-77")
    assert display_name(user) == "zhao"
