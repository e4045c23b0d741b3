"""`manage.py check --deploy` passes, without warnings, under the production settings.

The production settings are the same `shmj_site/settings.py` driven by environment variables
(see the README, "Running in production"); the check runs in a subprocess so the test process's
own (debug) settings are not involved.
"""

import os
import secrets
import subprocess
import sys

from tests.conftest import REPO

PRODUCTION_ENV = {
    "DJANGO_DEBUG": "0",
    "DJANGO_ALLOWED_HOSTS": "mahjong.example.com",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://mahjong.example.com",
    "DATABASE_URL": "postgres://shmj@127.0.0.1:5432/shmj",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
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


def test_check_deploy_flags_the_development_secret_key():
    """The check really runs with warnings as failures: the built-in dev key is refused."""
    result = _check_deploy({})
    assert result.returncode != 0
    assert "security.W009" in result.stdout + result.stderr
