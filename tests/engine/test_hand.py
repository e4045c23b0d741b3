"""hand.py: completeness, splits, waits and shanten, against a slow reference recursion."""

from __future__ import annotations

from functools import cache

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from games.engine.hand import is_complete, is_standard_complete, shanten, splits, waits
from games.engine.tiles import format_tiles, parse_tiles, to_counts


def counts_of(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


# --- slow reference ------------------------------------------------------------------------------


@cache
def ref_sets(counts: tuple[int, ...]) -> frozenset[tuple[tuple[str, int], ...]]:
    """All multisets of sets (sorted tuples) making exactly `counts`, by plain recursion."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return frozenset({()})
    out = set()
    if counts[first] >= 3:
        rest = list(counts)
        rest[first] -= 3
        out |= {
            tuple(sorted((("pong", first),) + s, key=lambda x: (x[1], x[0]))) for s in ref_sets(tuple(rest))
        }
    if first < 27 and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        rest = list(counts)
        for k in range(3):
            rest[first + k] -= 1
        out |= {
            tuple(sorted((("chow", first),) + s, key=lambda x: (x[1], x[0]))) for s in ref_sets(tuple(rest))
        }
    return frozenset(out)


def ref_splits(counts) -> set:
    out = set()
    for pair in range(34):
        if counts[pair] >= 2:
            rest = list(counts)
            rest[pair] -= 2
            out |= {(s, pair) for s in ref_sets(tuple(rest))}
    return out


def ref_complete(counts) -> bool:
    if sum(counts) % 3 != 2:
        return False
    return bool(ref_splits(counts)) or not any(counts[:27])


# --- strategies ----------------------------------------------------------------------------------

WALL = [code for code in range(34) for _ in range(4)]


@st.composite
def random_hands(draw, sizes=(2, 5, 8, 11, 14)):
    size = draw(st.sampled_from(sizes))
    picks = draw(st.lists(st.integers(0, len(WALL) - 1), min_size=size, max_size=size, unique=True))
    return to_counts(WALL[i] for i in picks)


@st.composite
def built_hands(draw, n_sets=4, suits=(0, 1, 2, 3)):
    """A hand assembled from sets and a pair (often complete, sometimes over four copies: redrawn)."""
    counts = [0] * 34
    for _ in range(n_sets):
        suit = draw(st.sampled_from(suits))
        if suit == 3 or draw(st.booleans()):
            tile = 27 + draw(st.integers(0, 6)) if suit == 3 else suit * 9 + draw(st.integers(0, 8))
            counts[tile] += 3
        else:
            start = suit * 9 + draw(st.integers(0, 6))
            for k in range(3):
                counts[start + k] += 1
    suit = draw(st.sampled_from(suits))
    pair = 27 + draw(st.integers(0, 6)) if suit == 3 else suit * 9 + draw(st.integers(0, 8))
    counts[pair] += 2
    if max(counts) > 4:
        reject()
    return counts


any_hand = st.one_of(random_hands(), built_hands(), built_hands(suits=(0,)), built_hands(suits=(3,)))


# --- examples ------------------------------------------------------------------------------------


def test_examples_complete_and_not():
    assert is_complete(counts_of("123456789m11122z"))
    assert is_complete(counts_of("11122233344455m"))
    assert is_complete(counts_of("55z"))
    assert not is_complete(counts_of("123m456p789s234s1z"))  # 13 tiles: wrong size
    assert not is_complete(counts_of("1133557799m2244p"))  # seven pairs are not standard
    assert not is_complete(counts_of("19m19p19s12345677z"))


def test_all_honours_any_arrangement_is_complete_but_not_standard():
    counts = counts_of("12345671234567z")
    assert is_complete(counts)
    assert not is_standard_complete(counts)
    assert splits(counts) == []


def test_splits_of_ambiguous_hand():
    found = {(sets, format_tiles([pair])) for sets, pair in splits(counts_of("11122233344m"))}
    assert found == {
        ((("pong", 0), ("pong", 1), ("pong", 2)), "4m"),
        ((("chow", 0), ("chow", 0), ("chow", 0)), "4m"),
        ((("chow", 0), ("chow", 1), ("chow", 1)), "1m"),
    }


def test_nine_gates_waits_on_every_tile():
    assert waits(counts_of("1112345678999m")) == list(range(9))


def test_waits_skip_a_fifth_copy():
    hand = counts_of("1111m234p567s789s")  # ready structurally, but only on a fifth 1m
    assert waits(hand) == []
    assert shanten(hand) == 0
    assert waits(counts_of("2222m")) == []  # 2m would be a fifth copy; 2222m+x is never complete


def test_shanten_examples():
    assert shanten(counts_of("123456789m11122z")) == -1
    assert shanten(counts_of("1112345678999m")) == 0
    assert shanten(counts_of("19m19p19s1234567z")) == 8
    assert shanten(counts_of("123m456p789s1z"), n_melds=1) == 0
    assert shanten(counts_of("123m456p1z"), n_melds=2) == 0
    assert shanten(counts_of("11z"), n_melds=4) == -1
    assert shanten(counts_of("1z"), n_melds=4) == 0
    assert shanten(counts_of("13m"), n_melds=4) == 0  # discard one, wait on the other
    assert shanten(counts_of("1m5p"), n_melds=4) == 0
    assert shanten(counts_of("14m7p4z"), n_melds=3) == 2


# --- properties ----------------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(any_hand)
def test_is_complete_matches_reference(counts):
    assert is_complete(counts) == ref_complete(counts)
    assert is_standard_complete(counts) == bool(ref_splits(counts))


@settings(max_examples=300, deadline=None)
@given(any_hand)
def test_splits_are_exactly_the_reference_splits(counts):
    assert set(splits(counts)) == ref_splits(counts)
    assert len(splits(counts)) == len(set(splits(counts)))


@settings(max_examples=300, deadline=None)
@given(st.one_of(random_hands(sizes=(1, 4, 7, 10, 13)), built_hands().map(lambda c: _drop_one(c))))
def test_waits_are_exactly_the_completing_tiles(counts):
    expected = []
    for tile in range(34):
        if counts[tile] < 4:
            counts[tile] += 1
            if ref_complete(counts):
                expected.append(tile)
            counts[tile] -= 1
    assert waits(counts) == expected


def _drop_one(counts):
    counts = list(counts)
    counts[next(i for i, c in enumerate(counts) if c)] -= 1
    return counts


@settings(max_examples=300, deadline=None)
@given(st.one_of(random_hands(sizes=(13, 14)), built_hands()))
def test_shanten_minus_one_exactly_when_standard_complete(counts):
    assert (shanten(counts) == -1) == is_standard_complete(counts)


@settings(max_examples=200, deadline=None)
@given(random_hands(sizes=(13,)), st.integers(0, 33))
def test_shanten_moves_by_one_per_tile(counts, tile):
    before = shanten(counts)
    ready = any(ref_splits([c + (1 if i == t else 0) for i, c in enumerate(counts)]) for t in range(34))
    assert (before == 0) == ready
    if counts[tile] < 4:
        counts[tile] += 1
        assert before - 1 <= shanten(counts) <= before
