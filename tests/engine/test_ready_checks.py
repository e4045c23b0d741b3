"""The fast ready checks behind 敲 and the 听牌 hints give the same answers as trying every tile.

`home`'s wait list (`scoring.winning_tiles` over `home.wait_candidates`) tries only structural waits
and the seven-pairs tile, and `GameState._declares` skips discards whose tile groups cannot leave the
hand ready; both are compared here with the plain search they replace (issue 24 item 9: the plain
search made a bot's decision under `home` with 敲 take 15 ms at p99).
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GameState, Rules
from games.engine.melds import Meld
from games.engine.scoring import home, winning_tiles
from games.engine.tiles import N_KINDS, format_tiles, parse_tiles, to_counts

HOME = Rules(preset="home")
SUITS_AND_WINDS = 31  # dragons are flowers in `home`: never in a hand


def brute_force_waits(counts, melds) -> list[int]:
    used = list(counts)
    for meld in melds:
        for tile in meld.tiles:
            used[tile] += 1
    out = []
    for tile in range(SUITS_AND_WINDS):
        if used[tile] < 4:
            counts[tile] += 1
            if home.is_legal(counts, melds):
                out.append(tile)
            counts[tile] -= 1
    return out


@st.composite
def home_hands(draw, size: int):
    """A concealed part of `size - 3 × melds` tiles plus pongs, drawn from a few kinds so that
    ready hands, seven pairs and all-winds hands come up often."""
    kinds = draw(
        st.sampled_from(
            [list(range(0, 9)), list(range(0, 9)) + list(range(27, 31)), list(range(27, 31)), list(range(31))]
        )
    )
    n_melds = draw(st.integers(0, 2))
    rest = list(draw(st.permutations([t for t in kinds for _ in range(4)])))
    melds = []
    for _ in range(n_melds):
        tile = rest[0]
        if rest.count(tile) >= 3:
            for _ in range(3):
                rest.remove(tile)
            melds.append(Meld("pong", (tile,) * 3, 1, tile))
    counts = [0] * N_KINDS
    for tile in rest[: size - 3 * len(melds)]:
        counts[tile] += 1
    if sum(counts) + 3 * len(melds) != size:  # four winds alone hold 16 tiles: too few once ponged
        melds = []
        counts = [0] * N_KINDS
        for tile in rest[:size]:
            counts[tile] += 1
    return counts, tuple(melds)


@settings(max_examples=3000, deadline=None)
@given(home_hands(13))
def test_home_waits_are_exactly_the_tiles_that_win(hand):
    counts, melds = hand
    assert winning_tiles(counts, melds, HOME) == brute_force_waits(counts, melds)


@pytest.mark.parametrize(
    ("hand", "waits"),
    [
        ("11m55m11p55p111s55s", "1s"),  # 七对子: four of a kind counts as two pairs
        ("11m55m11p55p55s77s1z", "1z"),
        ("1112345678999m", "123456789m"),  # nine gates
        ("1122z3344z", ""),  # four wind pairs beside a pong of 1m: no tile leaves one pair
    ],
)
def test_home_waits_of_written_hands(hand, waits):
    counts = to_counts(parse_tiles(hand))
    melds = () if sum(counts) == 13 else (Meld("pong", (0,) * 3, 1, 0),)
    assert format_tiles(winning_tiles(counts, melds, HOME)) == format_tiles(parse_tiles(waits))


@settings(max_examples=300, deadline=None)
@given(home_hands(14), st.sampled_from(["standard", "home"]))
def test_the_declares_offered_are_every_discard_that_leaves_the_hand_ready(hand, preset):
    counts, melds = hand
    rules = Rules(preset=preset, declare_ready=True)
    state = GameState.from_setup(
        hands=["123456789m12345p", "123456789s1234p", "6789p6789s12344z", "6789p12345678m1z"],
        wall="9p",
        rules=rules,
    )
    state.counts[0] = list(counts)
    state.melds[0] = list(melds)
    offered = sorted(a.tile for a in state.legal_actions(0) if a.kind == "declare")
    expected = []
    for tile in range(N_KINDS):
        if counts[tile]:
            counts[tile] -= 1
            if winning_tiles(counts, melds, rules):
                expected.append(tile)
            counts[tile] += 1
    assert offered == expected, format_tiles([t for t in range(N_KINDS) for _ in range(counts[t])])
