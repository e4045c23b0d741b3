"""Tiles drawn by this project: the SVG sprite static/tiles/tiles.svg through templates/tiles/.

`{% tile t %}` takes a tile as notation (`"5p"`), a code (0–41) or an engine `Tile`, and renders a
face-up tile carrying `data-tile="5p"` (tests read frames through that attribute). `{% tile_back %}`
renders a face-down tile and carries no tile information at all.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games.engine.tiles import NotationError, Tile, code_to_str, name_zh

register = template.Library()


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
    """A face-up tile's markup: the include templates/tiles/tile.html (the one source of a tile's
    markup), rendered once per (code, class) and reused, since every frame of every viewer draws
    about a hundred tiles. `extra_class` may hold `turned` (a claimed tile lying sideways) and any
    classes for the <svg>. No class names the suit (no style used one; `data-tile` says it, for a
    selector such as `[data-tile$="p"]`): a frame re-sends each tile's markup many times."""
    classes = extra_class.split()
    turned = "turned" in classes
    extra = " ".join(c for c in classes if c != "turned")
    return mark_safe(
        render_to_string(
            "tiles/tile.html", {"tile": code_to_str(code), "turned": turned, "classes": extra}
        ).strip()
    )


@register.simple_tag
def tile_back(extra_class: str = ""):
    return _tile_back(extra_class)


@lru_cache(maxsize=16)
def _tile_back(extra_class: str):
    """templates/tiles/back.html: a face-down tile that carries no tile information."""
    return mark_safe(render_to_string("tiles/back.html", {"classes": extra_class}).strip())


@register.filter
def tile_name(value) -> str:
    code = tile_code(value)
    return f"{name_zh(code)}" if code is not None else ""
