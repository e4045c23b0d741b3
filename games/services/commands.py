"""The typed game command a service takes: `Move`, read once where the message comes in.

A socket sends a game action either as its text (`"0:discard:5p"`, seat included) or as a form's
fields (`kind=discard`, `tile=5p`, for the sender's own seat). Both are read into a `Move` at the
edge (`games.live.messages`); `table_act` only checks the seat and hands the engine its `Action`.
Nothing here touches the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.actions import Action, RuleError
from games.engine.kinds import ActionKind
from games.engine.tiles import NotationError, Tile
from games.errors import ServiceError


@dataclass(frozen=True, slots=True)
class Move:
    """A game action; `seat` None is the sender's own seat (a form does not name it)."""

    kind: ActionKind
    tile: int | None = None
    seat: int | None = None

    @classmethod
    def parse(cls, text: str) -> Move:
        """`"2:discard:5p"`; `ServiceError("bad_action")` for anything the engine cannot read."""
        try:
            action = Action.parse(text.strip())
        except RuleError as exc:
            raise ServiceError("bad_action") from exc
        return cls.of(action)

    @classmethod
    def from_fields(cls, kind: str | None, tile: str | None) -> Move:
        """A form's `kind` and `tile` (`tile` empty or absent for a kind that takes none)."""
        try:
            code = Tile.parse(tile).code if tile else None
            action = Action.checked(kind, 0, code)  # the seat is the sender's, checked by the service
        except (NotationError, RuleError) as exc:
            raise ServiceError("bad_action") from exc
        return cls(action.kind, action.tile)

    @classmethod
    def of(cls, action: Action) -> Move:
        return cls(action.kind, action.tile, action.seat)

    def for_seat(self, seat: int) -> Action:
        """The engine's action for the sender seated at `seat`; `not_your_seat` if it names another."""
        if self.seat is not None and self.seat != seat:
            raise ServiceError("not_your_seat")
        return Action.of(self.kind, seat, self.tile)
