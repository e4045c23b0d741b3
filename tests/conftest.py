"""Shared test helpers."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _shared_dir() -> Path:
    for candidate in (REPO.parent / "shared", REPO / "shared"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("shared/ not found beside the checkout")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return _shared_dir()
