"""What a seat does (`Action`), what happened (`Event`), and refusals (`RuleError`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .kinds import ActionKind as K
from .tiles import N_CODES, NotationError, Tile, code_to_str

TURN_KINDS = frozenset((K.DISCARD, K.DECLARE, K.SELF_WIN, K.CONCEALED_KONG, K.ADDED_KONG))
CLAIM_KINDS = frozenset((K.CHOW, K.PONG, K.EXPOSED_KONG, K.WIN, K.PASS))
SWAP_KINDS = frozenset((K.BURY, K.SKIP))
KINDS = TURN_KINDS | CLAIM_KINDS | SWAP_KINDS
TILE_KINDS = KINDS - {K.SELF_WIN, K.PASS, K.SKIP}

ERROR_CODES = frozenset(
    {
        "hand_over",
        "not_your_turn",
        "tile_not_in_hand",
        "illegal_action",
        "claim_window_closed",
        "already_answered",
        "bad_action",
        "not_a_win",
        "missed_win",
    }
)


class RuleError(Exception):
    """An action the rules refuse; `code` is stable (templates turn it into words)."""

    def __init__(self, code: str, message: str) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown rule error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class Action:
    """`Action(ActionKind.CHOW, 2, 2)` is seat 2 chowing 345m... written `"2:chow:3m"`.

    `tile` is the discarded tile for `discard`, the kong tile for kongs, the lowest tile of the
    sequence for `chow`, and the claimed tile for `pong` / `exposed_kong` / `win`; `None` for
    `self_win` and `pass`.
    """

    kind: K
    seat: int
    tile: int | None = None

    def __str__(self) -> str:
        tile = "" if self.tile is None else code_to_str(self.tile)
        return f"{self.seat}:{self.kind}:{tile}" if tile else f"{self.seat}:{self.kind}"

    @classmethod
    def parse(cls, text: str) -> Action:
        if not isinstance(text, str):
            raise RuleError("bad_action", "an action is text like '2:chow:3m'")
        parts = text.split(":")
        if len(parts) not in (2, 3) or not parts[0].isdigit():
            raise RuleError("bad_action", f"cannot read action {text!r}")
        tile = None
        if len(parts) == 3 and parts[2]:
            try:
                tile = Tile.parse(parts[2]).code
            except NotationError as exc:
                raise RuleError("bad_action", f"bad tile in action {text!r}: {exc}") from None
        return cls.checked(parts[1], int(parts[0]), tile)

    @classmethod
    def checked(cls, kind: Any, seat: Any, tile: Any = None) -> Action:
        """Build an action from untrusted parts; `RuleError("bad_action")` if malformed."""
        if kind not in KINDS:
            raise RuleError("bad_action", f"unknown action kind {kind!r}")
        if type(seat) is not int or not 0 <= seat < 4:
            raise RuleError("bad_action", f"seat must be 0–3, not {seat!r}")
        if kind in TILE_KINDS:
            if type(tile) is not int or not 0 <= tile < N_CODES:
                raise RuleError("bad_action", f"{kind} needs a tile")
        elif tile is not None:
            raise RuleError("bad_action", f"{kind} takes no tile")
        return cls(K(kind), seat, tile)

    @staticmethod
    def of(kind: K, seat: int, tile: int | None = None) -> Action:
        """An interned action: the engine builds thousands per hand, so each is made once."""
        key = (kind, seat, tile)
        action = _INTERNED.get(key)
        if action is None:
            action = _INTERNED[key] = Action(kind, seat, tile)
        return action

    def to_json(self) -> str:
        return str(self)

    @classmethod
    def from_json(cls, data: Any) -> Action:
        return cls.parse(data)


_INTERNED: dict[tuple[K, int, int | None], Action] = {}


class Event(NamedTuple):
    """Something that happened in `apply` (for logs and animations), e.g. `draw`, `flower`, `meld`.

    Events are not views: a `draw` event carries the tile and must only be shown to its seat.
    (A named tuple: `apply` makes several per call in simulation.)
    """

    kind: str
    seat: int | None = None
    tile: int | None = None
    data: dict | None = None

    def to_json(self) -> dict:
        out: dict = {"kind": self.kind, "seat": self.seat}
        if self.tile is not None:
            out["tile"] = code_to_str(self.tile)
        if self.data:
            out["data"] = self.data
        return out
