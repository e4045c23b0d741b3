"""Shared test helpers: the shared/ folder beside the checkout, and users for the web tests."""

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

REPO = Path(__file__).resolve().parent.parent


def _shared_dir() -> Path:
    for candidate in (REPO.parent / "shared", REPO / "shared"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("shared/ not found beside the checkout")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return _shared_dir()


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty cache: the account throttles (accounts/throttle.py) count in it."""
    cache.clear()


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
