"""Log-in throttling (django-axes) and the sign-up and password-reset throttles, through the pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.test import Client
from django.utils import timezone

# These tests read the English words of pages and messages (the site default is Chinese).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

PASSWORD = "tile-pass-77"


@pytest.fixture
def li():
    return get_user_model().objects.create_user(username="li", password=PASSWORD, email="li@example.com")


def log_in(client, username, password, address="10.0.0.1"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_five_wrong_passwords_lock_the_username_at_that_address_for_fifteen_minutes(li):
    client = Client()
    for _ in range(4):
        assert log_in(client, "li", "wrong-guess").status_code == 200
    locked = log_in(client, "li", "wrong-guess")
    assert locked.status_code == 429
    page = locked.content.decode()
    assert 'data-testid="locked-out"' in page and "15 minutes" in page and "site.css" in page
    # The right password does not help from this address.
    assert log_in(client, "li", PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session
    # Another username from this address is not affected (the address itself has more tries).
    get_user_model().objects.create_user(username="wu", password=PASSWORD)
    assert log_in(Client(), "wu", PASSWORD).status_code == 302


def test_anyone_guessing_cannot_lock_the_owner_out(li):
    """Issue 24 item 5: five wrong guesses used to lock the username from every address."""
    attacker = Client()
    for _ in range(10):
        log_in(attacker, "li", "wrong-guess", address="10.6.6.6")
    assert log_in(attacker, "li", PASSWORD, address="10.6.6.6").status_code == 429
    owner = Client()
    assert log_in(owner, "li", PASSWORD, address="10.9.9.9").status_code == 302
    assert owner.session["_auth_user_id"] == str(li.pk)


def test_many_failures_from_one_address_lock_the_address(settings, li):
    limit = settings.AXES_ADDRESS_FAILURE_LIMIT
    assert limit > settings.AXES_FAILURE_LIMIT
    client = Client()
    for n in range(limit - 1):
        log_in(client, f"nobody{n}", "guess", address="10.0.0.7")
    assert log_in(Client(), "li", PASSWORD, address="10.0.0.7").status_code == 302  # not yet
    log_in(client, "nobody-last", "guess", address="10.0.0.7")
    assert log_in(client, "li", PASSWORD, address="10.0.0.7").status_code == 429
    assert log_in(Client(), "li", PASSWORD, address="10.0.0.8").status_code == 302


def test_the_lockout_ends_after_fifteen_minutes(li):
    from axes.models import AccessAttempt

    client = Client()
    for _ in range(5):
        log_in(client, "li", "wrong-guess")
    assert log_in(client, "li", PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert log_in(client, "li", PASSWORD).status_code == 302


def test_client_login_goes_through_axes(li):
    client = Client()
    for _ in range(5):
        assert not client.login(request=HttpRequest(), username="li", password="wrong-guess")
    assert not client.login(request=HttpRequest(), username="li", password=PASSWORD)


def sign_up(client, username, address="10.0.0.1"):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", data, REMOTE_ADDR=address)


def test_sign_up_is_throttled_per_address(settings, li):
    settings.SIGNUP_ATTEMPTS_LIMIT = 3
    for _ in range(3):  # probing whether "li" exists
        response = sign_up(Client(), "li", address="10.0.0.5")
        assert response.status_code == 200 and "username" in response.context["form"].errors
    refused = sign_up(Client(), "li", address="10.0.0.5")
    assert refused.status_code == 429
    assert "Too many attempts" in refused.content.decode()
    assert "username" not in refused.context["form"].errors  # the answer to the probe is withheld
    assert sign_up(Client(), "newcomer", address="10.0.0.5").status_code == 429
    assert not get_user_model().objects.filter(username="newcomer").exists()
    assert sign_up(Client(), "newcomer", address="10.0.0.6").status_code == 302


def test_an_address_locked_out_of_log_in_cannot_sign_up(settings, li):
    client = Client()
    for n in range(settings.AXES_ADDRESS_FAILURE_LIMIT):
        log_in(client, f"nobody{n}", "guess", address="10.0.0.9")
    assert sign_up(Client(), "fresh", address="10.0.0.9").status_code == 429
    assert not get_user_model().objects.filter(username="fresh").exists()


def test_password_reset_requests_are_throttled_per_address(settings, li, mailoutbox):
    settings.SIGNUP_ATTEMPTS_LIMIT = 2
    client = Client()
    for _ in range(2):
        assert (
            client.post(
                "/accounts/password_reset/", {"email": "li@example.com"}, REMOTE_ADDR="10.1.1.1"
            ).status_code
            == 302
        )
    assert (
        client.post(
            "/accounts/password_reset/", {"email": "li@example.com"}, REMOTE_ADDR="10.1.1.1"
        ).status_code
        == 429
    )
    assert len(mailoutbox) == 2


def test_a_forged_forwarded_for_header_does_not_escape_the_address_lockout(settings, li):
    client = Client()
    for n in range(settings.AXES_ADDRESS_FAILURE_LIMIT):
        client.post(
            "/accounts/login/",
            {"username": f"nobody{n}", "password": "guess"},
            REMOTE_ADDR="10.0.0.3",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        )
    response = client.post(
        "/accounts/login/",
        {"username": "li", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.3",
        HTTP_X_FORWARDED_FOR="198.51.100.77",
    )
    assert response.status_code == 429
