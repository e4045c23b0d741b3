"""The tile art: the sprite static/tiles/tiles.svg (written by scripts/build_tiles.py) and the includes
in templates/tiles/ that draw a tile from it."""

from __future__ import annotations

import importlib.util
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.templatetags.static import static

from games.engine.tiles import N_CODES, Tile, code_to_str, name_zh

REPO = Path(__file__).resolve().parent.parent
SPRITE = REPO / "static" / "tiles" / "tiles.svg"
SVG = "{http://www.w3.org/2000/svg}"
ENGINE_TILES = [code_to_str(code) for code in range(N_CODES)]


@pytest.fixture(scope="module")
def sprite() -> ET.Element:
    return ET.parse(SPRITE).getroot()


def _symbols(root: ET.Element) -> dict[str, ET.Element]:
    return {s.get("id"): s for s in root.iter(f"{SVG}symbol")}


def _refs(element: ET.Element) -> list[str]:
    """The ids that the <use> elements inside `element` point at (without the '#')."""
    return [u.get("href").removeprefix("#") for u in element.iter(f"{SVG}use")]


def test_sprite_has_one_symbol_per_engine_tile_and_a_back(sprite):
    symbols = _symbols(sprite)
    assert len(ENGINE_TILES) == 42
    assert set(symbols) == {f"t-{t}" for t in ENGINE_TILES} | {"t-back"}
    for symbol in symbols.values():
        assert symbol.get("viewBox") == "0 0 60 80"


def test_every_reference_inside_the_sprite_resolves(sprite):
    ids = {e.get("id") for e in sprite.iter() if e.get("id")}
    refs = set(_refs(sprite))
    assert refs, "the symbols reuse pips and glyphs through <use>"
    assert refs <= ids, f"dangling references: {sorted(refs - ids)}"


def test_sprite_draws_with_flat_shapes_only(sprite):
    """No text (a device without a CJK font would show boxes) and nothing that browsers draw
    unreliably through an external <use href>: gradients, patterns, masks, clip paths, filters."""
    tags = {e.tag.removeprefix(SVG) for e in sprite.iter()}
    assert not tags & {
        "text",
        "tspan",
        "linearGradient",
        "radialGradient",
        "pattern",
        "mask",
        "clipPath",
        "filter",
        "image",
        "foreignObject",
    }
    assert "url(" not in SPRITE.read_text(encoding="utf-8")


def test_sprite_stays_small():
    """Pips and characters are drawn once and reused, so the whole set is a few dozen kB."""
    assert SPRITE.stat().st_size < 40_000


@pytest.mark.parametrize("rank", range(2, 10))
def test_circles_show_their_count_of_pips(sprite, rank):
    pips = Counter(r for r in _refs(_symbols(sprite)[f"t-{rank}p"]) if r in {"pb", "pr", "pg"})
    assert sum(pips.values()) == rank


@pytest.mark.parametrize("rank", range(2, 10))
def test_bamboo_shows_its_count_of_sticks(sprite, rank):
    sticks = [r for r in _refs(_symbols(sprite)[f"t-{rank}s"]) if r in {"sg", "sb", "sr"}]
    assert len(sticks) == rank


def test_ones_are_drawn_pictures_not_pips(sprite):
    symbols = _symbols(sprite)
    assert _refs(symbols["t-1p"]) == ["face"]
    assert _refs(symbols["t-1s"]) == ["face"]
    assert len(list(symbols["t-1s"].iter(f"{SVG}path"))) >= 5  # the bird


@pytest.mark.parametrize(
    ("tile", "glyphs"),
    [(f"{n}m", ["g-n" + str(n), "g-wan"]) for n in range(1, 10)]
    + [(f"{n}z", ["g-w" + str(n)]) for n in range(1, 5)]
    + [("5z", []), ("6z", ["g-fa"]), ("7z", ["g-zhong"])]
    + [(f"{n}f", [f"g-f{n}", f"g-d{(n - 1) % 4 + 1}"]) for n in range(1, 9)],
)
def test_character_tiles_use_their_characters(sprite, tile, glyphs):
    refs = [r for r in _refs(_symbols(sprite)[f"t-{tile}"]) if r.startswith("g-")]
    assert refs == glyphs


def test_white_dragon_is_a_frame(sprite):
    rects = list(_symbols(sprite)["t-5z"].iter(f"{SVG}rect"))
    assert rects and all(r.get("fill") == "none" and r.get("stroke") for r in rects)


def test_the_back_shows_nothing_of_a_face(sprite):
    back = _symbols(sprite)["t-back"]
    assert _refs(back) == []
    assert {e.tag.removeprefix(SVG) for e in back.iter()} == {"symbol", "rect", "path"}


# --- the includes ---------------------------------------------------------------------------------


def _svg(html: str) -> ET.Element:
    """Rendered markup as XML (inline SVG in HTML has no namespace, so tags are bare: "use")."""
    return ET.fromstring(html)


@pytest.mark.parametrize("tile", ["5p", Tile.parse("5p")])
def test_tile_include_points_at_the_symbol_with_a_label(tile):
    svg = _svg(render_to_string("tiles/tile.html", {"tile": tile}))
    assert svg.get("class") == "tile"
    assert svg.get("viewBox") is None  # the symbol's own viewBox (0 0 60 80) scales the art into the svg
    assert svg.get("role") == "img"
    assert svg.get("aria-label") == "五筒"
    assert svg.get("data-tile") == "5p"
    (use,) = svg.iter("use")
    assert use.get("href") == static("tiles/tiles.svg") + "#t-5p"
    assert use.get("transform") is None


def test_every_engine_tile_renders_to_an_existing_symbol(sprite):
    symbols = _symbols(sprite)
    for code, text in enumerate(ENGINE_TILES):
        svg = _svg(render_to_string("tiles/tile.html", {"tile": text}))
        (use,) = svg.iter("use")
        assert use.get("href").split("#")[1] in symbols
        assert svg.get("aria-label") == name_zh(code)


def test_turned_tile_lies_on_its_side():
    svg = _svg(render_to_string("tiles/tile.html", {"tile": "3s", "turned": True, "classes": "claimed"}))
    assert svg.get("class") == "tile tile-turned claimed"
    assert svg.get("viewBox") == "0 0 80 60"
    (use,) = svg.iter("use")
    assert use.get("transform") == "translate(0 60) rotate(-90)"


def test_back_include_carries_no_tile():
    html = render_to_string("tiles/back.html", {"tile": "5p"})
    svg = _svg(html)
    assert svg.get("aria-label") == "暗牌"
    assert svg.get("data-tile") is None
    (use,) = svg.iter("use")
    assert use.get("href").endswith("#t-back")
    assert "5p" not in html


def test_concealed_kong_hides_its_tile_unless_given_one():
    hidden = render_to_string("tiles/kong_down.html", {})
    hrefs = re.findall(r'href="[^"#]*#([^"]+)"', hidden)
    assert hrefs == ["t-back"] * 4
    assert "data-tile" not in hidden

    shown = _svg(render_to_string("tiles/kong_down.html", {"tile": "7z"}))
    hrefs = [u.get("href").split("#")[1] for u in shown.iter("use")]
    assert hrefs == ["t-back", "t-7z", "t-7z", "t-back"]
    assert shown.get("aria-label") == "暗杠 中"


def test_include_without_a_newline_so_tiles_sit_flush():
    assert not render_to_string("tiles/tile.html", {"tile": "1m"}).endswith("\n")


# --- the sprite is the generator's output ---------------------------------------------------------


def test_sprite_is_what_the_generator_writes():
    """Nobody edits tiles.svg by hand: it is exactly scripts/build_tiles.py's output (this needs the
    outlines' font, from Debian's fonts-noto-cjk, and fontTools)."""
    pytest.importorskip("fontTools")
    spec = importlib.util.spec_from_file_location("build_tiles", REPO / "scripts" / "build_tiles.py")
    build_tiles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_tiles)
    if not build_tiles.FONT.exists():
        pytest.skip(f"{build_tiles.FONT} is not installed (apt-get install fonts-noto-cjk)")
    assert build_tiles.build() == SPRITE.read_text(encoding="utf-8")
