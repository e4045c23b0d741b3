"""Tiles and the notation of RULES.md §1.

Inside the engine a tile is a small int (its *code*), so that hands can be count arrays and the hot
paths stay cheap:

    0–8   1m–9m  万 (characters)      27–30  1z–4z  东南西北 (winds)
    9–17  1p–9p  筒 (dots)            31–33  5z–7z  白发中 (dragons)
    18–26 1s–9s  条 (bamboo)          34–41  1f–8f  春夏秋冬梅兰竹菊 (flowers)

`Tile` is the value type for everything that faces the outside (`Tile.parse("5p")`, `str(tile)`);
`parse_tiles` / `format_tiles` convert whole hands. Bad notation raises `NotationError`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SUITS = "mpsz"
N_KINDS = 34  # suit and honour kinds; flowers are not counted in hand arrays
FLOWER_BASE = 34
N_FLOWERS = 8
N_CODES = FLOWER_BASE + N_FLOWERS
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
HONOURS = WINDS + DRAGONS
FLOWERS = tuple(range(FLOWER_BASE, N_CODES))

_NAMES_ZH = (
    [f"{n}万" for n in "一二三四五六七八九"]
    + [f"{n}筒" for n in "一二三四五六七八九"]
    + [f"{n}条" for n in "一二三四五六七八九"]
    + list("东南西北白发中")
    + list("春夏秋冬梅兰竹菊")
)


class NotationError(ValueError):
    """Tile notation that cannot be read, or a set of tiles that cannot exist."""


def suit_of(code: int) -> int:
    """0 m, 1 p, 2 s, 3 honours, 4 flowers."""
    return 4 if code >= FLOWER_BASE else code // 9


def rank_of(code: int) -> int:
    """1-based rank within the suit letter (1z is East, 1f is 春)."""
    return code - FLOWER_BASE + 1 if code >= FLOWER_BASE else code % 9 + 1


def is_suited(code: int) -> bool:
    return code < 27


def is_honour(code: int) -> bool:
    return 27 <= code < FLOWER_BASE


def is_wind(code: int) -> bool:
    return 27 <= code <= 30


def is_dragon(code: int) -> bool:
    return 31 <= code <= 33


def is_flower(code: int) -> bool:
    return code >= FLOWER_BASE


def code_to_str(code: int) -> str:
    if code >= FLOWER_BASE:
        return f"{code - FLOWER_BASE + 1}f"
    return f"{code % 9 + 1}{SUITS[code // 9]}"


def name_zh(code: int) -> str:
    return _NAMES_ZH[code]


def _code(digit: str, letter: str) -> int:
    rank = ord(digit) - 48
    if letter == "f":
        if not 1 <= rank <= 8:
            raise NotationError(f"no flower {digit}f: flowers are 1f–8f")
        return FLOWER_BASE + rank - 1
    if letter == "z":
        if not 1 <= rank <= 7:
            raise NotationError(f"no honour {digit}z: honours are 1z–7z")
        return 27 + rank - 1
    if not 1 <= rank <= 9:
        raise NotationError(f"no tile {digit}{letter}: suit ranks are 1–9")
    return SUITS.index(letter) * 9 + rank - 1


def parse_tiles(text: str) -> list[int]:
    """Read tile notation (`123m55p777z1f`) into codes, keeping the written order.

    Spaces are ignored. Raises `NotationError` for anything else that is not notation; it does not
    check how many copies there are (see `check_counts`).
    """
    if not isinstance(text, str):
        raise NotationError(f"tile notation must be text, not {type(text).__name__}")
    codes: list[int] = []
    pending: list[str] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit() and ch.isascii():
            pending.append(ch)
        elif ch in "mpszf":
            if not pending:
                raise NotationError(f"suit letter {ch!r} without digits in {text!r}")
            codes.extend(_code(d, ch) for d in pending)
            pending = []
        else:
            raise NotationError(f"unexpected character {ch!r} in tile notation {text!r}")
    if pending:
        raise NotationError(f"digits without a suit letter at the end of {text!r}")
    return codes


def format_tiles(codes: Iterable[int]) -> str:
    """Write codes in notation, in the given order, sharing the letter between neighbours."""
    out: list[str] = []
    letter = ""
    for code in codes:
        text = code_to_str(code)
        if text[1] != letter and letter:
            out.append(letter)
        out.append(text[0])
        letter = text[1]
    if letter:
        out.append(letter)
    return "".join(out)


def sorted_tiles(codes: Iterable[int]) -> list[int]:
    return sorted(codes)


def to_counts(codes: Iterable[int]) -> list[int]:
    """Counts of the 34 suit and honour kinds (flowers are ignored)."""
    counts = [0] * N_KINDS
    for code in codes:
        if code < N_KINDS:
            counts[code] += 1
    return counts


def check_counts(codes: Iterable[int]) -> None:
    """Raise `NotationError` if the tiles could not all exist in one set of 144."""
    seen = [0] * N_CODES
    for code in codes:
        seen[code] += 1
        limit = 1 if code >= FLOWER_BASE else 4
        if seen[code] > limit:
            raise NotationError(f"more than {limit} copies of {code_to_str(code)}")


def full_set() -> list[int]:
    """The 144 tiles: four of each suit and honour kind, one of each flower."""
    return [code for code in range(N_KINDS) for _ in range(4)] + list(FLOWERS)


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile, as the outside sees it: `Tile.parse("5p")`, `str(tile) == "5p"`."""

    code: int

    def __post_init__(self) -> None:
        if not isinstance(self.code, int) or not 0 <= self.code < N_CODES:
            raise NotationError(f"no tile with code {self.code!r}")

    @classmethod
    def parse(cls, text: str) -> Tile:
        codes = parse_tiles(text)
        if len(codes) != 1:
            raise NotationError(f"expected one tile, got {text!r}")
        return cls(codes[0])

    def __str__(self) -> str:
        return code_to_str(self.code)

    @property
    def name_zh(self) -> str:
        return _NAMES_ZH[self.code]

    @property
    def is_flower(self) -> bool:
        return self.code >= FLOWER_BASE

    @property
    def is_honour(self) -> bool:
        return is_honour(self.code)
