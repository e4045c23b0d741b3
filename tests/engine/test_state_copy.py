"""`GameState.copy`: equal to the original in every attribute, and independent of it, through whole
hands under every preset and option (melds, flowers, 敲, 换牌, held claim windows)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import GameState
from games.engine.rules import Rules

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
RULES = [
    Rules(),
    Rules(preset="lazi"),
    Rules(preset="home"),
    Rules(declare_ready=True),
    Rules(swap_tiles=True),
]


def plain(value):
    """`value` with every plain object (not a dataclass: those compare by value) as its attributes,
    and every container as itself: two plain values are equal when the states are."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set):
        return (type(value), [plain(item) for item in value])
    if hasattr(value, "__dataclass_fields__") or type(value).__module__ == "builtins":
        return value
    if hasattr(value, "__dict__"):
        return (type(value), plain(vars(value)))
    return (type(value), {name: plain(getattr(value, name)) for name in type(value).__slots__})


def play_one(state: GameState, draw) -> None:
    if state.held:
        state.release()
        return
    seat = state.pending_seats()[0]
    legal = state.legal_actions(seat)
    state.apply(legal[draw(st.integers(0, len(legal) - 1))])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, rules=st.sampled_from(RULES), hold=st.booleans(), data=st.data())
def test_a_copy_equals_the_state_and_playing_either_leaves_the_other_as_it_was(seed, rules, hold, data):
    state = GameState.new(rules=rules, dealer=1, seed=seed)
    state.hold_discards = hold
    while state.phase != "ended":
        for seat in range(4):  # fill the memos a render fills, so that they are copied too
            state.legal_actions(seat)
            state.winning_tiles(seat)
        copy = state.copy()
        assert type(copy) is GameState and plain(copy) == plain(state)
        before = plain(state)
        # The copy plays on to the end of the hand: the original does not move.
        ahead = copy.copy()
        while ahead.phase != "ended" and data.draw(st.booleans()):
            play_one(ahead, data.draw)
        assert plain(state) == before
        # The original plays on: the copy does not move.
        play_one(state, data.draw)
        assert plain(copy) == before
    assert plain(state.copy()) == plain(state)


def test_an_attribute_the_copy_does_not_know_is_refused_rather_than_shared():
    state = GameState.new(seed="a" * 64)
    state.notes = []
    with pytest.raises(TypeError, match="notes"):
        state.copy()
