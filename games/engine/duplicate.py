"""Duplicate deals: a hand in which every seat draws from its own wall (for comparing bots).

In an ordinary hand all four seats draw from one wall, so a single chow or pong shifts every later
draw to another seat and the rest of the hand is a different deal. Duplicate mahjong removes that
luck: the shuffled 144 tiles are cut into four personal walls of 36, seat `s` taking
`wall[36 s : 36 (s + 1)]`. A seat's deal, its draws (from the head of its wall) and its kong and
flower replacements (from the tail of its wall) all come from its own wall, so the k-th tile a seat
draws is the same however the others play. Playing one deal several times with different players
in the seats then compares the players on the same cards.

A seat whose own wall is used up draws from the tails of the others' walls (the next seat in turn
order first), so the hand still ends only when all 144 tiles are out, as §4.5 has it; only that
overflow, near the end of a long hand, depends on how the others played.

The turn machine draws in three places, each told the seat: `_deal` (the deal's flower
replacements), `_draw` (every turn's draw and replacement) and `_draw_replacing_flowers` (换牌).
This is a bench tool (`bench/bots_duplicate.py`), not a way to play a room: `DuplicateState` is a
`GameState` whose wall is `PersonalWalls`; every rule, action and result is the ordinary one.
"""

from __future__ import annotations

from .rules import Rules
from .state import GameState
from .wall import check_seed, roll_dice, shuffled_wall

PERSONAL = 36  # tiles in each seat's own wall: 144 / 4


class PersonalWalls:
    """Four walls, one per seat, with the `Wall` interface the turn machine uses.

    `seat` names the seat about to draw; `DuplicateState` sets it before every draw."""

    __slots__ = ("walls", "heads", "tails", "seat")

    def __init__(self, tiles: list[int]) -> None:
        if len(tiles) != 4 * PERSONAL:
            raise ValueError(f"personal walls need {4 * PERSONAL} tiles, got {len(tiles)}")
        self.walls = [list(tiles[PERSONAL * s : PERSONAL * (s + 1)]) for s in range(4)]
        self.heads = [0] * 4
        self.tails = [PERSONAL] * 4
        self.seat = 0

    def left(self, seat: int) -> int:
        return self.tails[seat] - self.heads[seat]

    @property
    def remaining(self) -> int:
        return sum(self.tails[s] - self.heads[s] for s in range(4))

    @property
    def empty(self) -> bool:
        return self.remaining == 0

    def _overflow(self) -> int:
        """The seat whose wall lends a tile when the drawer's own is used up."""
        for step in range(1, 4):
            other = (self.seat + step) % 4
            if self.left(other):
                return other
        raise IndexError("draw from an empty wall")

    def draw_head(self) -> int:
        seat = self.seat
        if self.left(seat):
            tile = self.walls[seat][self.heads[seat]]
            self.heads[seat] += 1
            return tile
        return self._take_tail(self._overflow())

    def draw_tail(self) -> int:
        seat = self.seat
        return self._take_tail(seat if self.left(seat) else self._overflow())

    def _take_tail(self, seat: int) -> int:
        self.tails[seat] -= 1
        return self.walls[seat][self.tails[seat]]

    def live(self) -> list[int]:
        return [t for s in range(4) for t in self.walls[s][self.heads[s] : self.tails[s]]]


class DuplicateState(GameState):
    """A hand dealt from personal walls (`PersonalWalls`); otherwise an ordinary `GameState`.

    Deterministic per seed like `GameState.new`, and `from_json` / `replay` rebuild it the same way
    (they call `cls.new`)."""

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        dealer: int = 0,
        huangfan: int = 0,
        stake: int = 1,
        seed: str | None = None,
        gengfeng: int = 0,
    ) -> DuplicateState:
        if seed is None:
            raise ValueError("a duplicate deal needs its seed")
        seed = check_seed(seed)
        state = cls()
        state._setup = None
        tiles = shuffled_wall(seed)
        state._begin(rules or Rules(), dealer, huangfan, stake, seed, tiles, roll_dice(seed), gengfeng)
        walls = state._wall = PersonalWalls(tiles)
        held = []
        for seat in range(4):
            walls.seat = seat
            held.append([walls.draw_head() for _ in range(14 if seat == dealer else 13)])
        state._deal(held)
        return state

    def _deal(self, held: list[list[int]]) -> None:
        """Each seat replaces its dealt flowers from the tail of its own wall, then the ordinary
        deal finishes (with no flowers left to replace)."""
        walls, flowerish = self._wall, self._flowerish
        for seat in range(4):
            walls.seat = seat
            while found := [t for t in held[seat] if flowerish[t]]:
                self.flowers[seat].extend(found)
                held[seat] = [t for t in held[seat] if not flowerish[t]]
                held[seat].extend(walls.draw_tail() for _ in found)
        super()._deal(held)

    def _draw(self, seat: int, cause, events) -> None:
        self._wall.seat = seat
        super()._draw(seat, cause, events)

    def _draw_replacing_flowers(self, seat: int, events):
        """The 换牌 draws (§10), from the seat's own wall like every other draw."""
        self._wall.seat = seat
        return super()._draw_replacing_flowers(seat, events)
