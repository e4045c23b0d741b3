"""`manage.py check --deploy` passes, without warnings, under the production settings.

The production settings are the same `shmj_site/settings.py` driven by environment variables
(see the README, "How to deploy"); the check runs in a subprocess so the test process's
own (debug) settings are not involved.
"""

import os
import secrets
import subprocess
import sys

import pytest

from tests.conftest import REPO

PRODUCTION_ENV = {
    "DJANGO_DEBUG": "0",
    "DJANGO_ALLOWED_HOSTS": "mahjong.example.com",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://mahjong.example.com",
    "DATABASE_URL": "postgres://shmj@127.0.0.1:5432/shmj",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "DJANGO_BEHIND_PROXY": "1",
}


def _check_deploy(extra_env: dict[str, str]) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    env.update(PRODUCTION_ENV)
    env.update(extra_env)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_under_production_settings():
    result = _check_deploy({"DJANGO_SECRET_KEY": secrets.token_urlsafe(50)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_flags_a_guessable_secret_key():
    """The check really runs with warnings as failures: a key that says it is insecure is refused."""
    result = _check_deploy({"DJANGO_SECRET_KEY": "django-insecure-" + secrets.token_urlsafe(50)})
    assert result.returncode != 0
    assert "security.W009" in result.stdout + result.stderr


@pytest.mark.parametrize(
    "secret_key",
    ["abc", "a" * 60, "abcd" * 20, secrets.token_urlsafe(36)[:49]],
    ids=["short", "one-character", "four-characters", "49-characters"],
)
def test_production_refuses_to_start_on_a_weak_secret_key(secret_key):
    """Issue 24 item 6: `DJANGO_SECRET_KEY=abc` used to be accepted, with only a warning (W009)."""
    result = _check_deploy({"DJANGO_SECRET_KEY": secret_key})
    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY is too weak" in result.stderr
    assert "System check identified" not in result.stdout


def test_check_deploy_warns_when_the_site_is_not_told_it_runs_behind_a_proxy():
    """daphne reads whole request bodies: only the proxy's body limit protects production."""
    result = _check_deploy({"DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_BEHIND_PROXY": ""})
    assert result.returncode != 0
    assert "shmj.W001" in result.stdout + result.stderr
    assert "client_max_body_size" in result.stdout + result.stderr


@pytest.mark.parametrize(
    "secret_key",
    [None, "", "   ", "django-insecure-dev-only-key-change-me-in-production"],
    ids=["unset", "empty", "blank", "development-key"],
)
def test_production_refuses_to_start_without_its_own_secret_key(secret_key):
    """DJANGO_DEBUG=0 without DJANGO_SECRET_KEY (or with the public development key) stops at once
    with a message that says what to set, instead of signing sessions with a published key."""
    result = _check_deploy({} if secret_key is None else {"DJANGO_SECRET_KEY": secret_key})
    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_DEBUG=0 needs DJANGO_SECRET_KEY" in result.stderr
    assert "System check identified" not in result.stdout


def test_debug_runs_on_the_development_key_without_configuration():
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.DEBUG, settings.SECRET_KEY)",
        ],
        cwd=REPO,
        env={**env, "DJANGO_SETTINGS_MODULE": "shmj_site.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "django-insecure-dev-only-key-change-me-in-production"]
