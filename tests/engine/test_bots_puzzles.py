"""The 何切る data file is well-formed, and the checks that keep it so refuse bad positions."""

import pytest

from games.engine.bots.puzzles import KINDS, PuzzleError, load, parse_puzzle, position
from games.engine.tiles import N_KINDS

PUZZLES = load()


def test_at_least_forty_positions_with_unique_ids_of_every_kind():
    assert len(PUZZLES) >= 40
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)
    assert {p.kind for p in PUZZLES} == set(KINDS)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.id)
def test_position_is_a_legal_fourteen_tile_turn_with_answers_in_the_hand(puzzle):
    assert len(puzzle.hand) == 14
    assert puzzle.answers and puzzle.answers <= set(puzzle.hand)
    assert puzzle.reason
    # no kind more than four times among the hand, the opponents' melds and the rivers
    assert max(puzzle.visible()) <= 4
    state = position(puzzle)
    assert max(state.census()[:N_KINDS]) <= 4  # the filler hands and the wall add no fifth copy
    legal = state.legal_actions(0)
    # a discard is the only thing to do: not already a win, no kong on offer
    assert {a.kind for a in legal} == {"discard"}
    assert {a.tile for a in legal} == set(puzzle.hand)
    assert sum(state.counts[0]) == 14
    for seat, melds in puzzle.melds.items():
        assert state.melds[seat] == list(melds)
        assert sum(state.counts[seat]) == 13 - 3 * len(melds)
    for seat, river in puzzle.rivers.items():
        assert [r.tile for r in state.rivers[seat]] == list(river)


def good() -> dict:
    return {
        "id": "x",
        "kind": "defence",
        "hand": "12345678m99m11z6s3p",
        "answers": ["3p"],
        "reason": "why",
        "melds": {"2": ["chow 234s<1"]},
        "rivers": {"1": "5z"},
    }


@pytest.mark.parametrize(
    "change",
    [
        {"hand": "12345678m99m11z6s"},  # 13 tiles
        {"answers": ["4p"]},  # not in the hand
        {"answers": []},
        {"answers": ["3p", "3p"]},
        {"kind": "luck"},
        {"reason": " "},
        {"hand": "11112345678m99m6s"},  # four of a kind offers a kong
        {"rivers": {"1": "9m9m9m"}},  # a fifth 9m
        {"melds": {"2": ["chow 235s<1"]}},
        {"melds": {"0": ["pong 222s<1"]}},
        {"melds": {"2": ["pong 222s"]}},  # not claimed from anyone
        {"wall": 0},
        {"hand": "12345678m99m11z6s1f"},  # flowers are not part of a position
    ],
)
def test_malformed_positions_are_refused(change):
    assert parse_puzzle(good()).answers == frozenset({11})
    with pytest.raises(PuzzleError):
        parse_puzzle(good() | change)
