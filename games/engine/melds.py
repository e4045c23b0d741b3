"""`Meld`: a declared set on the table (chow, pong, or one of the three kongs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .kinds import MeldKind
from .tiles import N_KINDS, NotationError, code_to_str, format_tiles, is_suited, parse_tiles

MELD_KINDS = tuple(str(k) for k in MeldKind)
KONG_KINDS = (MeldKind.KONG_EXPOSED.value, MeldKind.KONG_ADDED.value, MeldKind.KONG_CONCEALED.value)


class MeldError(ValueError):
    """A meld that cannot exist (wrong kind, wrong tiles, bad seat)."""


@dataclass(frozen=True, slots=True)
class Meld:
    """One declared set. `tiles` are sorted codes; `claimed` is the tile taken from `from_seat`.

    Text form: `"pong 777z<3"` (kind, tiles, `<` the seat that fed it), `"kong_concealed 2222m"`.
    """

    kind: str
    tiles: tuple[int, ...]
    from_seat: int | None = None
    claimed: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            raise MeldError(f"unknown meld kind {self.kind!r}; expected one of {', '.join(MELD_KINDS)}")
        tiles = self.tiles
        if not isinstance(tiles, tuple) or not all(type(t) is int and 0 <= t < N_KINDS for t in tiles):
            raise MeldError(f"meld tiles must be a tuple of suit/honour codes; got {tiles!r}")
        if list(tiles) != sorted(tiles):
            raise MeldError(f"meld tiles must be sorted; got {format_tiles(tiles)}")
        size = 4 if self.kind in KONG_KINDS else 3
        if len(tiles) != size:
            raise MeldError(f"a {self.kind} has {size} tiles; got {format_tiles(tiles)}")
        if self.kind == MeldKind.CHOW:
            first = tiles[0]
            if not (is_suited(first) and first % 9 <= 6 and tiles == (first, first + 1, first + 2)):
                raise MeldError(f"a chow is three consecutive tiles of one suit; got {format_tiles(tiles)}")
        elif len(set(tiles)) != 1:
            raise MeldError(f"a {self.kind} is {size} identical tiles; got {format_tiles(tiles)}")
        if self.from_seat is not None and (type(self.from_seat) is not int or not 0 <= self.from_seat <= 3):
            raise MeldError(f"meld from_seat must be a seat 0-3; got {self.from_seat!r}")
        if self.kind == MeldKind.KONG_CONCEALED and self.from_seat is not None:
            raise MeldError("a concealed kong has no from_seat")
        if self.claimed is not None and self.claimed not in tiles:
            raise MeldError(f"claimed tile {self.claimed!r} is not in the meld {format_tiles(tiles)}")

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS

    @property
    def is_exposed(self) -> bool:
        """Everything but a concealed kong breaks 门清."""
        return self.kind != MeldKind.KONG_CONCEALED

    @property
    def is_pong_like(self) -> bool:
        return self.kind != MeldKind.CHOW

    @property
    def first(self) -> int:
        return self.tiles[0]

    def __str__(self) -> str:
        text = f"{self.kind} {format_tiles(self.tiles)}"
        return text if self.from_seat is None else f"{text}<{self.from_seat}"

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read the text form of `__str__` (`"pong 777z<3"`)."""
        if not isinstance(text, str) or " " not in text.strip():
            raise MeldError(f"meld must read like 'pong 777z<3'; got {text!r}")
        kind, rest = text.strip().split(" ", 1)
        seat = None
        if "<" in rest:
            rest, seat_text = rest.split("<", 1)
            if seat_text not in ("0", "1", "2", "3"):
                raise MeldError(f"meld seat must be 0-3; got {seat_text!r}")
            seat = int(seat_text)
        return cls.of(kind, rest, seat)

    @classmethod
    def of(cls, kind: str, tiles: str, from_seat: int | None = None, claimed: str | None = None) -> Meld:
        """Build from notation: `Meld.of("pong", "777z", 3)`."""
        try:
            codes = tuple(sorted(parse_tiles(tiles)))
            claimed_code = None if claimed is None else parse_tiles(claimed)
        except NotationError as exc:
            raise MeldError(str(exc)) from exc
        if claimed_code is not None and len(claimed_code) != 1:
            raise MeldError(f"claimed must be one tile; got {claimed!r}")
        return cls(kind, codes, from_seat, None if claimed_code is None else claimed_code[0])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "tiles": format_tiles(self.tiles)}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        if self.claimed is not None:
            out["claimed"] = code_to_str(self.claimed)
        return out

    @classmethod
    def from_json(cls, d: Any) -> Meld:
        """Inverse of `to_json`; also reads the vector files' form (`"type"` for the kind)."""
        if not isinstance(d, dict):
            raise MeldError(f"meld must be a JSON object; got {d!r}")
        kind = d.get("kind", d.get("type"))
        unknown = set(d) - {"kind", "type", "tiles", "from", "claimed"}
        if unknown:
            raise MeldError(f"unknown meld field(s): {', '.join(sorted(unknown))}")
        if not isinstance(kind, str) or not isinstance(d.get("tiles"), str):
            raise MeldError(f"meld needs a kind and tiles in notation; got {d!r}")
        claimed = d.get("claimed")
        if claimed is not None and not isinstance(claimed, str):
            raise MeldError(f"meld claimed must be a tile in notation; got {claimed!r}")
        return cls.of(kind, d["tiles"], d.get("from"), claimed)
