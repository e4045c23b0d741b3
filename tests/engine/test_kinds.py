"""The StrEnums of games/engine/kinds.py are the engine's vocabularies, equal to their strings."""

import json

from games.engine import Action, GameState
from games.engine.actions import KINDS, TILE_KINDS
from games.engine.kinds import ActionKind, MeldKind, Phase
from games.engine.melds import MELD_KINDS


def test_enums_cover_exactly_the_vocabularies():
    assert {str(k) for k in ActionKind} == KINDS
    assert {str(k) for k in MeldKind} == set(MELD_KINDS)
    assert KINDS - {"self_win", "pass", "skip"} == TILE_KINDS


def test_members_equal_their_strings_in_state_and_json():
    state = GameState.new(seed="ab" * 32)
    assert state.phase == Phase.TURN
    action = Action.of(ActionKind.DISCARD, 0, state.legal_actions(0)[0].tile)
    assert action in state.legal_actions(0)
    assert json.dumps(Phase.CLAIMS) == '"claims"'
    assert Action.parse(str(action)) == action
