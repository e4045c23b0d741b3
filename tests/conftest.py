"""Shared test helpers: the rules folder beside the checkout (optional), and users for the web tests."""

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import translation

REPO = Path(__file__).resolve().parent.parent


def shared_vectors_dir() -> Path | None:
    """The public scoring cases beside the checkout (`../shared/rules/vectors`, or the folder named by
    `SHANGHAI_VECTORS`), or None: the project carries its own copy in tests/engine/cases and never
    needs this folder to pass."""
    named = os.environ.get("SHANGHAI_VECTORS")
    candidates = [Path(named)] if named else [REPO.parent / "shared" / "rules" / "vectors"]
    return next((c for c in candidates if c.is_dir()), None)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty cache: the account throttles (games/throttle.py) count in it."""
    cache.clear()


@pytest.fixture(autouse=True)
def _no_session_sweep(settings):
    """The socket hub's periodic session check (games/live/hub.py) runs on its own clock, which no
    test should race; the tests of it turn it on or call `sweep_sessions` themselves."""
    settings.SOCKET_SESSION_SWEEP = 0


@pytest.fixture(autouse=True)
def _group_members_read_on_every_update(settings):
    """The broadcast's trust in its last read of a table group's members, and the hub's catch-up
    after joining one (games/services/broadcast.py, games/live/hub.py), run on their own clock: off
    here (every update reads the members); the tests of them turn them on. The multi-process and
    browser suites run with the default."""
    from games.services import broadcast

    settings.GROUP_MEMBERS_TTL = 0
    broadcast.forget_members()


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts in the site's default language: a page requested in English leaves English
    active in the thread (LocaleMiddleware activates a request's language and nothing resets it),
    and a render without a language of its own would then be in English."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(scope="session")
def compiled():
    """The English catalogue is compiled and current: pages read it, not the .po."""
    mo = REPO / "locale/en/LC_MESSAGES/django.mo"
    assert mo.exists() and mo.stat().st_mtime >= mo.with_suffix(".po").stat().st_mtime, (
        "the English catalogue is not compiled: run `make setup`"
    )


@pytest.fixture
def make_user(db):
    def make(name: str):
        return get_user_model().objects.create_user(username=name, password="pw-123456")

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def english(settings):
    """Pages and messages in English (the site's default is Chinese): for tests that read English words."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield
