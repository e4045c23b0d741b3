"""What one seat (or a spectator) may see of a hand, as typed, frozen values: `HandView`.

`GameState.hand_view(seat)` builds it; `GameState.view(seat)` is its JSON (`HandView.to_json()`),
the form the admin, the tests and any client read. Rendering reads the attributes.

A view is made of two parts. `PublicView` is what everyone sees (phases, rivers, exposed melds,
counts; every hand once it has ended) and is the same object for every viewer of one state:
`GameState.public_view()` builds it once and `hand_view(seat, public)` reuses it. The rest of a
`HandView` is the viewer's own: their concealed tiles, the tile just drawn, what they may do, their
waits, their own melds face up. A spectator's (`seat` None) has none of it. Another seat's concealed
tiles are never in a view before the hand has ended; a concealed kong (暗杠) lies face down to
everyone but its owner (`MeldFace.face_down`) until then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action
from .kinds import MeldKind, Phase
from .result import HandResult
from .tiles import format_tiles, parse_tiles


@dataclass(frozen=True, slots=True)
class Discard:
    """One tile of a river; `claimed` once someone chowed, ponged or konged it."""

    tile: str
    claimed: bool

    def to_json(self) -> dict:
        return {"tile": self.tile, "claimed": self.claimed}


@dataclass(frozen=True, slots=True)
class MeldFace:
    """A meld as a viewer sees it: its tiles in notation, or only `face_down` backs (a concealed kong
    seen by anyone but its owner before the hand ends; then `tiles` is empty)."""

    kind: MeldKind
    tiles: tuple[str, ...] = ()
    from_seat: int | None = None
    claimed: str | None = None
    face_down: int = 0

    def to_json(self) -> dict[str, Any]:
        if self.face_down:
            return {"kind": self.kind.value, "face_down": self.face_down}
        out: dict[str, Any] = {"kind": self.kind.value, "tiles": _joined(self.tiles)}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        if self.claimed is not None:
            out["claimed"] = self.claimed
        return out


@dataclass(frozen=True, slots=True)
class SwapState:
    """换牌 (`swap_tiles`): how many tiles a seat has buried, and whether it is done."""

    buried: int
    done: bool


@dataclass(frozen=True, slots=True)
class SeatPublic:
    """What everyone sees of one seat. `hand`: its concealed tiles, only once the hand has ended."""

    seat: int
    wind: str
    flowers: tuple[str, ...]
    melds: tuple[MeldFace, ...]
    river: tuple[Discard, ...]
    concealed_count: int
    declared: bool | None = None  # 敲 (`declare_ready`); None when the rules do not have it
    swap: SwapState | None = None  # None when the rules do not have 换牌
    hand: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "wind": self.wind,
            "flowers": list(self.flowers),
            "melds": [m.to_json() for m in self.melds],
            "river": [r.to_json() for r in self.river],
            "concealed_count": self.concealed_count,
        }
        if self.declared is not None:
            out["declared"] = self.declared
        if self.swap is not None:
            out["swap"] = {"buried": self.swap.buried, "done": self.swap.done}
        if self.hand is not None:
            out["hand"] = list(self.hand)
        return out


@dataclass(frozen=True, slots=True)
class PublicView:
    """The part of a view that is the same for every viewer of one state."""

    phase: Phase
    current_seat: int
    dealer: int
    dice: tuple[int, int]
    huangfan: int
    stake: Any
    wall_remaining: int
    last_discard: str | None
    claim_tile: str | None
    commitment: str
    seats: tuple[SeatPublic, ...]
    turn_pending: tuple[int, ...]  # who is to act on a turn (public); claims are each seat's own
    result: HandResult | None = None  # once ended
    reveal: dict | None = None  # once ended: seed, wall, commitment


@dataclass(frozen=True, slots=True)
class HandView:
    """One viewer's view: the public part and, for a seat, its own tiles and choices."""

    seat: int | None
    public: PublicView
    pending: tuple[int, ...]  # during claims: only the viewer's own seat, if it must answer
    hand: tuple[str, ...] | None = None  # the viewer's concealed tiles, the drawn tile apart
    drawn: str | None = None
    legal_actions: tuple[Action, ...] = ()
    waits: tuple[str, ...] = ()
    missed: tuple[str, ...] = ()
    own_melds: tuple[MeldFace, ...] | None = None  # the viewer's melds, its concealed kongs face up
    buried: tuple[str, ...] | None = None  # 换牌: the tiles this seat buried

    @property
    def phase(self) -> Phase:
        return self.public.phase

    @property
    def current_seat(self) -> int:
        return self.public.current_seat

    @property
    def dealer(self) -> int:
        return self.public.dealer

    @property
    def seats(self) -> tuple[SeatPublic, ...]:
        return self.public.seats

    def to_json(self) -> dict[str, Any]:
        p = self.public
        out: dict[str, Any] = {
            "seat": self.seat,
            "phase": p.phase.value,
            "current_seat": p.current_seat,
            "pending": list(self.pending),
            "dealer": p.dealer,
            "dice": list(p.dice),
            "huangfan": p.huangfan,
            "stake": p.stake,
            "wall_remaining": p.wall_remaining,
            "last_discard": p.last_discard,
            "claim_tile": p.claim_tile,
            "commitment": p.commitment,
            "seats": [s.to_json() for s in p.seats],
        }
        if self.seat is not None:
            out["hand"] = list(self.hand or ())
            out["drawn"] = self.drawn
            out["legal_actions"] = [str(a) for a in self.legal_actions]
            out["waits"] = list(self.waits)
            out["missed"] = list(self.missed)
            out["own_melds"] = [m.to_json() for m in self.own_melds or ()]
            if self.buried is not None:
                out["buried"] = list(self.buried)
        if p.result is not None:
            out["result"] = p.result.to_json()
            out["reveal"] = dict(p.reveal or {})
        return out


def _joined(tiles: tuple[str, ...]) -> str:
    """Tiles in notation as the meld JSON writes them ("1111m", "345p")."""
    return format_tiles([code for t in tiles for code in parse_tiles(t)])
