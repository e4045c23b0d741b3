"""The bench's `sighted` bot (bench/bots_ceiling.py) does what its ceiling figure assumes: with the
opponents' tiles in view it never deals in when another discard exists, and it counts no copy an
opponent keeps. (A bench fixture, never a level: the bots proper read public information only.)"""

from pathlib import Path

import pytest

from games.engine.actions import Action
from games.engine.bots import levels
from games.engine.bots.hard import HardBot
from games.engine.bots.normal import Position
from games.engine.state import GameState
from tests.engine.test_bots_normal import FILLER_2, FILLER_3, t

BENCH = Path(__file__).resolve().parents[2] / "bench"

# Seat 0 deals a characters 混一色 one discard from ready (its stray 5p goes); seat 1 holds the
# nine gates in dots, waiting on every dot.
DEALER = "123456789m11z55z5p"
NINE_GATES = "1112345678999p"


@pytest.fixture
def ceiling(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import bots_ceiling

    return bots_ceiling


def table() -> GameState:
    return GameState.from_setup(hands=[DEALER, NINE_GATES, FILLER_2, FILLER_3], wall="3s5s6z7z")


def test_hard_discards_into_the_wait_it_cannot_see():
    # The contrast that makes the next test meaningful: the stray dot is the natural discard.
    state = table()
    assert t("5p") in state.winning_tiles(1)
    assert HardBot().choose(state, 0) == Action("discard", 0, t("5p"))


def test_sighted_keeps_the_winning_tile(ceiling):
    state = table()
    choice = ceiling.SightedBot().choose(state, 0)
    assert choice.kind == "discard" and choice.tile not in state.winning_tiles(1)


def test_sighted_counts_no_copy_an_opponent_keeps(ceiling):
    state = table()
    pos = Position(state, 0)
    live = ceiling.reachable_copies(state, 0, pos.unseen)
    # Seat 1 keeps its three 1p and three 9p (its dots plan uses them); only the fourth can come.
    assert pos.unseen[t("9p")] == 4 and live[t("9p")] <= 1
    assert pos.unseen[t("1p")] == 4 and live[t("1p")] <= 1
    # Copies no opponent holds are all still to come.
    assert pos.unseen[t("1z")] == 2 and live[t("1z")] == 2


def test_sighted_is_not_a_level(ceiling):
    assert "sighted" not in levels()
