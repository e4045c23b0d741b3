"""`Rules`: the preset and the house options of a room (RULES.md §7, §11).

A frozen value, checked when built, with a strict JSON round trip: unknown keys or values raise a
`ValueError` whose message names the offending field, so a bad room setting never reaches a game.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

PRESETS = ("standard", "lazi", "home")
_CHOICES: dict[str, tuple[str, ...]] = {
    "preset": PRESETS,
    "menqing": ("double", "lezi"),
    "gangkai": ("floor", "double"),
    "haidi": ("off", "double", "lezi"),
    "payment": ("discarder", "chu_chong", "bao_chong"),
}
_POSITIVE_INTS = ("base", "flower_point", "lezi")
_FLAGS = ("qingyise_9_bao", "declare_ready", "swap_tiles")


@dataclass(frozen=True, slots=True)
class Rules:
    preset: str = "standard"
    menqing: str = "double"
    gangkai: str = "floor"
    haidi: str = "off"
    payment: str = "discarder"
    hand_loss_cap_lezi: int | None = 5
    qingyise_9_bao: bool = False
    declare_ready: bool = False  # 敲: only a declared seat may win; declared seats only draw and discard
    swap_tiles: bool = False  # 换牌: after the deal each seat may bury five tiles and draw five
    garden: str | int = "off"  # 逛花园: "off" or each player's chip stack for the match (× stake)
    base: int = 2
    flower_point: int = 1
    lezi: int = 10

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"rules.{name} must be one of {', '.join(allowed)}; got {value!r}")
        for name in _POSITIVE_INTS:
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"rules.{name} must be a non-negative integer; got {value!r}")
        for name in _FLAGS:
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"rules.{name} must be true or false; got {getattr(self, name)!r}")
        garden = self.garden
        if garden != "off" and (type(garden) is not int or garden <= 0):
            raise ValueError(f'rules.garden must be "off" or a positive integer chip stack; got {garden!r}')
        cap = self.hand_loss_cap_lezi
        if cap is not None and (type(cap) is not int or cap <= 0):
            raise ValueError(f"rules.hand_loss_cap_lezi must be a positive integer or null; got {cap!r}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def of_preset(cls, preset: str | None, *options: dict | None) -> Rules:
        """The rules of `preset` (standard when None) with house options laid over it, later layers
        winning (a room's, then a table's): the one place a preset and options become `Rules`.
        Raises ValueError for an unknown option or value."""
        chosen: dict = {}
        for layer in options:
            chosen.update(layer or {})
        return cls.from_json({**chosen, "preset": preset or "standard"})

    @classmethod
    def from_json(cls, d: Any) -> Rules:
        if not isinstance(d, dict):
            raise ValueError(f"rules must be a JSON object, not {type(d).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(map(str, unknown))}")
        return cls(**d)
