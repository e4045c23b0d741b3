"""Tiles drawn by this project: HTML + CSS faces with the Chinese characters, no image assets.

`{% tile t %}` takes a tile as notation (`"5p"`), a code (0–41) or an engine `Tile`, and renders a
face-up tile carrying `data-tile="5p"` (tests read frames through that attribute). `{% tile_back %}`
renders a face-down tile and carries no tile information at all.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import format_html

from games.engine.tiles import NotationError, Tile, code_to_str, name_zh, rank_of, suit_of

register = template.Library()

_NUMERALS = "一二三四五六七八九"
_SUIT_CHAR = {0: "万", 1: "筒", 2: "条"}
_SUIT_CLASS = {0: "m", 1: "p", 2: "s", 3: "z", 4: "f"}
_HONOUR_CLASS = {5: "white", 6: "green", 7: "red"}


def tile_code(value) -> int | None:
    """The code of a tile given in any of the forms the views use; None if it is not a tile."""
    if isinstance(value, Tile):
        return value.code
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < 42 else None
    if isinstance(value, str):
        return _parse_code(value)
    code = getattr(value, "code", None)
    return code if isinstance(code, int) else None


@lru_cache(maxsize=256)
def _parse_code(text: str) -> int | None:
    try:
        return Tile.parse(text).code
    except NotationError:
        return None


@register.simple_tag
def tile(value, extra_class: str = ""):
    code = tile_code(value)
    if code is None:
        return ""
    return tile_html(code, extra_class)


@lru_cache(maxsize=1024)
def tile_html(code: int, extra_class: str = ""):
    """A face-up tile's markup; cached, since a table shows the same few (code, class) pairs over and
    over and every frame of every viewer draws about a hundred of them."""
    suit, rank = suit_of(code), rank_of(code)
    text = code_to_str(code)
    if suit < 3:
        face = format_html(
            '<span class="tile-rank">{}</span><span class="tile-suit">{}</span>',
            _NUMERALS[rank - 1],
            _SUIT_CHAR[suit],
        )
        kind = _SUIT_CLASS[suit]
    else:
        face = format_html('<span class="tile-honour">{}</span>', name_zh(code))
        kind = f"{_SUIT_CLASS[suit]} {_HONOUR_CLASS.get(rank, '')}" if suit == 3 else "f"
    return format_html(
        '<span class="tile tile-{} {}" data-tile="{}" title="{} {}">{}</span>',
        kind.strip(),
        extra_class,
        text,
        name_zh(code),
        text,
        face,
    )


@register.simple_tag
def tile_back(extra_class: str = ""):
    return _tile_back(extra_class)


@lru_cache(maxsize=16)
def _tile_back(extra_class: str):
    return format_html('<span class="tile tile-back {}" aria-label="暗牌"></span>', extra_class)


@register.filter
def tile_name(value) -> str:
    code = tile_code(value)
    return f"{name_zh(code)}" if code is not None else ""
