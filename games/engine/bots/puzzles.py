"""何切る (which tile to discard) positions: loading, checking, and setting them on a table.

A position is seat 0's 14 concealed tiles on its turn, the accepted best discards and a reason,
and optionally what is public about the opponents (their melds and rivers, and the wall left).
The data live in `tests/engine/puzzles/nanikiru.toml`; `bench/bots_puzzles.py` scores each level.

`position(puzzle)` builds a `GameState` from notation: seat 0 deals with the puzzle's hand, the
opponents get filler hands from the tiles nobody can see, and their melds and rivers are then laid
on the table directly (a puzzle is a snapshot, not a replay of how the hand got there).
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..kinds import ActionKind, MeldKind
from ..melds import Meld, MeldError
from ..state import GameState, RiverTile
from ..tiles import N_KINDS, NotationError, code_to_str, format_tiles, parse_tiles

KINDS = ("efficiency", "plan", "value", "defence")
DATA = Path(__file__).resolve().parents[3] / "tests" / "engine" / "puzzles" / "nanikiru.toml"


class PuzzleError(ValueError):
    """A position that is not well-formed (its id is in the message)."""


@dataclass(frozen=True)
class Puzzle:
    id: str
    kind: str
    hand: tuple[int, ...]
    answers: frozenset[int]
    reason: str
    wall: int = 60
    melds: dict[int, tuple[Meld, ...]] = field(default_factory=dict)
    rivers: dict[int, tuple[int, ...]] = field(default_factory=dict)

    def visible(self) -> list[int]:
        """Copies of each kind in the hand, the opponents' melds and the rivers."""
        seen = [0] * N_KINDS
        for t in self.hand:
            seen[t] += 1
        for melds in self.melds.values():
            for meld in melds:
                for t in meld.tiles:
                    seen[t] += 1
        for river in self.rivers.values():
            for t in river:
                seen[t] += 1
        return seen


def _seat(key: str, pid: str) -> int:
    if key not in ("1", "2", "3"):
        raise PuzzleError(f"{pid}: opponent seats are 1, 2, 3; got {key!r}")
    return int(key)


def _tiles(text, pid: str, what: str) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise PuzzleError(f"{pid}: {what} must be tiles in notation")
    try:
        tiles = tuple(parse_tiles(text))
    except NotationError as exc:
        raise PuzzleError(f"{pid}: {what}: {exc}") from None
    if any(t >= N_KINDS for t in tiles):
        raise PuzzleError(f"{pid}: {what} may not hold flowers")
    return tiles


def parse_puzzle(d: dict) -> Puzzle:
    pid = d.get("id")
    if not isinstance(pid, str) or not pid:
        raise PuzzleError(f"a puzzle needs an id: {d!r}")
    unknown = set(d) - {"id", "kind", "hand", "answers", "reason", "wall", "melds", "rivers"}
    if unknown:
        raise PuzzleError(f"{pid}: unknown field(s) {', '.join(sorted(unknown))}")
    if d.get("kind") not in KINDS:
        raise PuzzleError(f"{pid}: kind must be one of {', '.join(KINDS)}")
    reason = d.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise PuzzleError(f"{pid}: every position gives its reason")
    hand = _tiles(d.get("hand"), pid, "hand")
    if len(hand) != 14:
        raise PuzzleError(f"{pid}: the hand has {len(hand)} tiles, not 14")
    answers = d.get("answers")
    if not isinstance(answers, list) or not answers:
        raise PuzzleError(f"{pid}: answers is a non-empty list of tiles")
    codes = [_tiles(a, pid, "answer") for a in answers]
    if any(len(c) != 1 for c in codes):
        raise PuzzleError(f"{pid}: each answer is one tile")
    answer_set = frozenset(c[0] for c in codes)
    if len(answer_set) != len(codes) or not answer_set <= set(hand):
        raise PuzzleError(f"{pid}: answers must be distinct tiles of the hand")
    wall = d.get("wall", 60)
    if type(wall) is not int or not 1 <= wall <= 80:
        raise PuzzleError(f"{pid}: wall is the number of tiles left, 1-80")
    melds: dict[int, tuple[Meld, ...]] = {}
    for key, texts in (d.get("melds") or {}).items():
        seat = _seat(key, pid)
        if not isinstance(texts, list) or not 1 <= len(texts) <= 4:
            raise PuzzleError(f"{pid}: seat {seat} melds are a list of one to four melds")
        try:
            melds[seat] = tuple(Meld.parse(t) for t in texts)
        except MeldError as exc:
            raise PuzzleError(f"{pid}: {exc}") from None
        if any(m.kind == MeldKind.KONG_CONCEALED or m.from_seat in (None, seat) for m in melds[seat]):
            raise PuzzleError(f"{pid}: seat {seat}'s melds are claimed from another seat (`<n`)")
    rivers = {_seat(k, pid): _tiles(v, pid, f"river {k}") for k, v in (d.get("rivers") or {}).items()}
    puzzle = Puzzle(pid, d["kind"], hand, answer_set, reason.strip(), wall, melds, rivers)
    over = [code_to_str(t) for t, n in enumerate(puzzle.visible()) if n > 4]
    if over:
        raise PuzzleError(f"{pid}: more than four copies of {', '.join(over)}")
    if max(hand.count(t) for t in set(hand)) == 4:
        raise PuzzleError(f"{pid}: four of a kind offers a kong, not only a discard")
    return puzzle


def load(path: Path = DATA) -> list[Puzzle]:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    puzzles = [parse_puzzle(d) for d in data.get("puzzle", [])]
    ids = [p.id for p in puzzles]
    if len(set(ids)) != len(ids):
        raise PuzzleError("puzzle ids must be unique")
    return puzzles


def position(puzzle: Puzzle) -> GameState:
    """Seat 0 to discard from the puzzle's 14 tiles, the opponents' public tiles on the table."""
    seen = puzzle.visible()
    hidden = [t for t in range(N_KINDS) for _ in range(4 - seen[t])]
    random.Random(puzzle.id).shuffle(hidden)
    fillers = []
    for _ in range(3):
        fillers.append(format_tiles(hidden[:13]))
        hidden = hidden[13:]
    state = GameState.from_setup(
        hands=[format_tiles(puzzle.hand), *fillers], wall=format_tiles(hidden[: puzzle.wall])
    )
    for seat, melds in puzzle.melds.items():
        state.melds[seat] = list(melds)
        counts = state.counts[seat]
        drop = 3 * len(melds)
        for t in range(N_KINDS):  # the melded tiles stand in for as many concealed ones
            take = min(counts[t], drop)
            counts[t] -= take
            drop -= take
        state._hand_changed(seat)
    for seat, river in puzzle.rivers.items():
        state.rivers[seat] = [RiverTile(t) for t in river]
    return state


def solve(bot, puzzle: Puzzle) -> int | None:
    """The tile `bot` discards in this position (None if it does something else)."""
    state = position(puzzle)
    action = bot.choose(state, 0)
    return action.tile if action.kind == ActionKind.DISCARD else None
