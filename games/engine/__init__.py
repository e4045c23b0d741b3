"""Shanghai Mahjong rules engine: pure Python, no Django, no I/O, deterministic (see README.md)."""

from .actions import Action, Event, RuleError
from .melds import Meld
from .result import HandResult
from .rules import Rules
from .state import GameState
from .tiles import NotationError, Tile, format_tiles, parse_tiles

__all__ = [
    "Action",
    "Event",
    "GameState",
    "HandResult",
    "Meld",
    "NotationError",
    "RuleError",
    "Rules",
    "Tile",
    "format_tiles",
    "parse_tiles",
]
