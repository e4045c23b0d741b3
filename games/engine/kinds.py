"""The engine's closed vocabularies as `StrEnum`s: phases, action kinds, meld kinds and result kinds.

Each member equals its string (`Phase.TURN == "turn"`), so the JSON, the action log (`"2:chow:3m"`)
and `view()` keep their plain strings while code can name the values instead of spelling them.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    SWAP = "swap"  # 换牌 window after the deal (`swap_tiles`, §10)
    TURN = "turn"
    CLAIMS = "claims"
    ROB = "rob"  # an added kong may be robbed
    ENDED = "ended"


class ActionKind(StrEnum):
    # on one's turn
    DISCARD = "discard"
    DECLARE = "declare"  # 敲 (`declare_ready`): discard this tile and declare the hand ready
    SELF_WIN = "self_win"
    CONCEALED_KONG = "concealed_kong"
    ADDED_KONG = "added_kong"
    # answering a discard or an added kong
    CHOW = "chow"
    PONG = "pong"
    EXPOSED_KONG = "exposed_kong"
    WIN = "win"
    PASS = "pass"
    # the 换牌 window
    BURY = "bury"  # bury one tile; the fifth makes the seat draw five from the wall
    SKIP = "skip"  # no swap


# The moves that put a tile in a river (a discard, or 敲's declaring discard).
DISCARDS = frozenset({ActionKind.DISCARD, ActionKind.DECLARE})

# The answers to a claim window (a discard, or an added kong that may be robbed).
CLAIM_ANSWERS = frozenset(
    {ActionKind.PASS, ActionKind.CHOW, ActionKind.PONG, ActionKind.EXPOSED_KONG, ActionKind.WIN}
)


class MeldKind(StrEnum):
    CHOW = "chow"
    PONG = "pong"
    KONG_EXPOSED = "kong_exposed"
    KONG_ADDED = "kong_added"
    KONG_CONCEALED = "kong_concealed"


class ResultKind(StrEnum):
    WIN = "win"
    DRAW = "draw"  # 流局: the wall ran out


def discards_in(state) -> int:
    """How many discards `state`'s log holds (a count that, unlike the rivers, a claim never lowers)."""
    return sum(1 for action in state.actions if action.kind in DISCARDS)
