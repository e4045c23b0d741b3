"""Bots by level. `get_bot(level).choose(state, seat)` returns one of `state.legal_actions(seat)`.

A bot may read only its own seat's concealed tiles (`state.counts[seat]`, `state.drawn_tile` when it
is its turn) and public information (melds, flowers, rivers, wall count, dice, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..actions import Action


class Bot(Protocol):
    level: str

    def choose(self, state, seat: int) -> Action: ...


_REGISTRY: dict[str, Callable[[], Bot]] = {}


def register(level: str, factory: Callable[[], Bot]) -> None:
    _REGISTRY[level] = factory


def levels() -> list[str]:
    return sorted(_REGISTRY)


def get_bot(level: str) -> Bot:
    try:
        factory = _REGISTRY[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(levels())}") from None
    return factory()


def _register_builtin() -> None:
    from .hard import HardBot
    from .normal import NormalBot
    from .simple import SimpleBot

    register("easy", SimpleBot)
    register("normal", NormalBot)
    register("hard", HardBot)


_register_builtin()
