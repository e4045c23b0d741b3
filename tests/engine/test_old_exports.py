"""A hand recorded before phases and action kinds became enums still loads, verifies and replays.

tests/engine/data/hand_3211168.json was written by the engine at commit 3211168 (plain strings): an
export as `/history/` hands it out, the result it scored, and a stored state (the action log a Table
row keeps) part-way through the hand with what seat 1 saw then. Today's engine must read all of it
to the same values, with its enums in place of the strings.
"""

from __future__ import annotations

import json
from pathlib import Path

from games.engine.actions import Action
from games.engine.kinds import ActionKind, Phase, ResultKind
from games.engine.state import GameState
from games.engine.verify import parse_export, verify_export

OLD = json.loads((Path(__file__).parent / "data" / "hand_3211168.json").read_text("utf-8"))


def test_an_old_export_verifies_to_the_result_it_had():
    report = verify_export(parse_export(OLD["export"]))
    assert report.result.to_json() == OLD["result"]
    assert report.result.kind is ResultKind.WIN


def test_an_old_stored_state_loads_to_the_same_view_and_choices():
    stored = OLD["mid_hand"]
    state = GameState.from_json(stored["state"])
    assert state.to_json() == stored["state"]
    assert state.view(1) == stored["view_1"]
    assert [str(a) for a in state.legal_actions(1)] == stored["legal_1"]
    assert type(state.phase) is Phase
    assert all(type(a.kind) is ActionKind for a in state.actions)


def test_an_action_read_from_text_carries_its_enum():
    action = Action.parse("2:chow:3m")
    assert action.kind is ActionKind.CHOW
    assert action == Action.of(ActionKind.CHOW, 2, action.tile)
    assert json.dumps(str(action)) == '"2:chow:3m"'
