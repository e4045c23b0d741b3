"""A player's avatar without any upload: the first character of the name on a colour picked by a
stable hash of the player key, so it stays the same across renames and server processes."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

HUES = 12  # .avatar.hue-0 … hue-11 in static/css/pages.css


@dataclass(frozen=True)
class Avatar:
    initial: str
    hue: int


def avatar(name: str, key: str) -> Avatar:
    initial = (name.strip()[:1] or "?").upper()
    return Avatar(initial=initial, hue=zlib.crc32(key.encode()) % HUES)
