"""`hold_discards`: every discard opens a claim window, held open (nobody asked) when nobody can
claim or everybody passed, until the caller releases it. The log replays to the same hand without it."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Action, GameState, RuleError

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)


def _snapshot(state: GameState) -> str:
    views = [state.view(None)] + [state.view(s) for s in range(4)]
    return json.dumps([state.actions and [str(a) for a in state.actions], views], sort_keys=True)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, data=st.data())
def test_a_held_hand_replays_to_the_same_hand_and_survives_json_while_held(seed, data):
    held = GameState.new(dealer=2, seed=seed)
    held.hold_discards = True
    holds = 0
    while held.phase != "ended":
        if held.held:
            holds += 1
            assert held.pending_seats() == []
            assert all(held.legal_actions(s) == [] for s in range(4))
            restored = GameState.from_json(json.loads(json.dumps(held.to_json())))
            assert restored.held and _snapshot(restored) == _snapshot(held)
            held.release()
            continue
        seat = held.pending_seats()[0]
        legal = held.legal_actions(seat)
        held.apply(legal[data.draw(st.integers(0, len(legal) - 1))])
    assert holds > 0
    restored = GameState.from_json(json.loads(json.dumps(held.to_json())))
    assert _snapshot(restored) == _snapshot(held)
    plain = GameState.replay(seed=seed, dealer=2, actions=[str(a) for a in held.actions])
    assert _snapshot(plain) == _snapshot(held)
    assert plain.result == held.result


def _holding_table() -> GameState:
    """Seat 0 to discard: its 4z nobody can claim, its 5z seat 2 may pong; the wall's next tile is 7z."""
    state = GameState.from_setup(
        hands=[
            "1m4m7m1p4p7p1s4s7s1z2z3z4z5z",
            "2m5m8m2p5p8p2s5s8s1z2z3z6z",
            "3m6m9m3p6p9p3s6s9s5z5z6z7z",
            "1m2m3m4m5m6m7m8m9m1p2p3p4p",
        ],
        wall="7z9m9p9s",
    )
    state.hold_discards = True
    return state


def test_an_unclaimable_discard_is_held_and_release_draws_for_the_next_seat():
    state = _holding_table()
    state.apply(Action.parse("0:discard:4z"))
    assert state.held and state.phase == "claims" and state.pending_seats() == []
    assert state.view(1)["claim_tile"] == "4z" and state.view(1)["legal_actions"] == []
    with pytest.raises(RuleError):
        state.apply(Action.parse("1:discard:6z"))
    state.release()
    assert not state.held and state.phase == "turn" and state.current_seat == 1
    assert state.view(1)["drawn"] == "7z"
    with pytest.raises(RuleError):
        state.release()


def test_a_window_everybody_passed_is_held_too():
    state = _holding_table()
    state.apply(Action.parse("0:discard:5z"))
    assert state.pending_seats() == [2] and not state.held
    state.apply(Action.parse("2:pass"))
    assert state.held and state.view(2)["legal_actions"] == []
    state.release()
    assert state.current_seat == 1 and state.phase == "turn"
