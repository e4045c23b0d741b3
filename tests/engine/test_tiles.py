"""tiles.py: codes, notation round trip, and clear errors for impossible input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.tiles import (
    EAST,
    FLOWERS,
    RED,
    NotationError,
    Tile,
    check_counts,
    code_to_str,
    format_tiles,
    full_set,
    is_dragon,
    is_honour,
    is_wind,
    parse_tiles,
    rank_of,
    suit_of,
    to_counts,
)


def test_code_layout():
    assert parse_tiles("1m9m1p9p1s9s1z7z1f8f") == [0, 8, 9, 17, 18, 26, 27, 33, 34, 41]
    assert parse_tiles("1z") == [EAST] and parse_tiles("7z") == [RED]
    assert [suit_of(c) for c in parse_tiles("5m5p5s5z5f")] == [0, 1, 2, 3, 4]
    assert [rank_of(c) for c in parse_tiles("5m3p9s2z8f")] == [5, 3, 9, 2, 8]
    assert (
        is_wind(parse_tiles("4z")[0]) and is_dragon(parse_tiles("5z")[0]) and is_honour(parse_tiles("5z")[0])
    )
    assert not is_honour(parse_tiles("1f")[0])


def test_notation_shares_the_letter():
    codes = parse_tiles("123m55p777z1f")
    assert format_tiles(codes) == "123m55p777z1f"
    assert parse_tiles("1 2 3m") == parse_tiles("123m")


@given(st.lists(st.integers(0, 41), max_size=20))
def test_format_parse_round_trip(codes):
    assert parse_tiles(format_tiles(codes)) == codes


@pytest.mark.parametrize("bad", ["0m", "8z", "9f", "12", "m", "1x", "1m2", "１m"])
def test_bad_notation(bad):
    with pytest.raises(NotationError):
        parse_tiles(bad)


def test_counts_and_copies():
    assert to_counts(parse_tiles("111m2f")) == [3] + [0] * 33  # flowers are not counted
    check_counts(parse_tiles("1111m1f"))
    with pytest.raises(NotationError, match="more than 4 copies of 1m"):
        check_counts(parse_tiles("11111m"))
    with pytest.raises(NotationError, match="1f"):
        check_counts(parse_tiles("11f"))


def test_full_set_is_144_tiles():
    tiles = full_set()
    assert len(tiles) == 144
    check_counts(tiles)
    assert set(FLOWERS) <= set(tiles)


def test_tile_value_type():
    tile = Tile.parse("5p")
    assert str(tile) == "5p" and tile.name_zh == "五筒" and code_to_str(tile.code) == "5p"
    assert Tile.parse("3f").is_flower and Tile.parse("7z").is_honour
    with pytest.raises(NotationError):
        Tile.parse("12m")
    with pytest.raises(NotationError):
        Tile(42)
