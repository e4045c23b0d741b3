"""The table's side of the house options 敲 (`declare_ready`) and 换牌 (`swap_tiles`), rules §10–§11.

The engine decides what is legal; this module gives a person a clear refusal where the engine's would
be vague (a 敲 that does not leave the hand ready, a claim by a declared seat, a lone burial), times
the swap window, and says when a declared seat's drawn tile is discarded for it: a declared seat may
only win on it or discard it, so when it cannot win the clock discards it after a short pause instead
of waiting out the person's turn timer.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.engine.actions import Action
from games.engine.kinds import ActionKind, Phase
from games.engine.state import GameState
from games.errors import ServiceError
from games.models import Table

SWAP_WINDOW_SECONDS = 15  # rules §10: the 换牌 window after the deal
DECLARED_DISCARD_PAUSE = timedelta(seconds=1)  # a declared seat's non-winning draw is discarded after it

_MELDS = frozenset(
    {
        ActionKind.CHOW,
        ActionKind.PONG,
        ActionKind.EXPOSED_KONG,
        ActionKind.CONCEALED_KONG,
        ActionKind.ADDED_KONG,
    }
)


def check_action(state: GameState, action: Action) -> None:
    """Refuse, with a code of its own, what the house options forbid a single action to do.

    A burial goes through `table_swap` (all five at once): one tile alone would leave the seat
    half-swapped until the window closes."""
    kind = action.kind
    if kind in (ActionKind.BURY, ActionKind.SKIP) and state.phase != Phase.SWAP:
        raise ServiceError("swap_closed")
    if kind == ActionKind.BURY:
        raise ServiceError("bad_swap")
    if action in state.legal_actions(action.seat):
        return
    declaring = state.rules.declare_ready and not state.declared[action.seat]
    if (
        kind == ActionKind.DECLARE
        and declaring
        and state.phase == Phase.TURN
        and state.current_seat == action.seat
    ):
        raise ServiceError("declare_not_ready")
    if kind in _MELDS and state.rules.declare_ready and state.declared[action.seat]:
        raise ServiceError("declared_no_melds")


def phase_seconds(state: GameState, discard: int, claim: int) -> int:
    """How long the prompt of the state's phase lasts: the 换牌 window, a turn, or a claim window."""
    if state.phase == Phase.SWAP:
        return SWAP_WINDOW_SECONDS
    return discard if state.phase == Phase.TURN else claim


def discards_for_declared(state: GameState, seat: int) -> bool:
    """A declared seat holds a drawn tile it cannot win on: its only move is to discard that tile."""
    if state.phase != Phase.TURN or seat != state.current_seat or not state.declared[seat]:
        return False
    legal = state.legal_actions(seat)
    return len(legal) == 1 and legal[0].kind == ActionKind.DISCARD


def declared_discard_at(table: Table) -> datetime | None:
    """When the clock discards for a declared seat: the pause after the hand last moved."""
    return None if table.changed is None else table.changed + DECLARED_DISCARD_PAUSE
