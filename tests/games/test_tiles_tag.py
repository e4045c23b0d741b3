"""Tiles drawn by the project: the right Chinese face, a parseable data attribute, nothing for junk."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from games.engine.tiles import Tile


def render(text: str, **context) -> str:
    return Template("{% load mahjong %}" + text).render(Context(context))


@pytest.mark.parametrize(
    "tile, face",
    [
        ("5p", ["五", "筒"]),
        ("1m", ["一", "万"]),
        ("9s", ["九", "条"]),
        ("1z", ["东"]),
        ("7z", ["中"]),
        ("6z", ["发"]),
        ("5z", ["白"]),
        ("8f", ["菊"]),
    ],
)
def test_faces(tile, face):
    html = render("{% tile t %}", t=tile)
    # data-tile says the suit; no class repeats it (a frame carries a hundred tiles)
    assert f'data-tile="{tile}"' in html and 'class="tile"' in html
    assert all(part in html for part in face)


def test_codes_and_tile_objects_render_the_same():
    assert (
        render("{% tile t %}", t=13)
        == render("{% tile t %}", t="5p")
        == render("{% tile t %}", t=Tile.parse("5p"))
    )


@pytest.mark.parametrize("junk", ["", "0p", "5x", 42, -1, None, True, "<script>"])
def test_junk_renders_nothing(junk):
    assert render("{% tile t %}", t=junk) == ""


def test_back_carries_no_tile():
    html = render("{% tile_back %}")
    assert "tile-back" in html and "data-tile" not in html
