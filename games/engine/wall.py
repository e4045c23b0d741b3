"""The wall: a provably fair shuffle, the dice, and head/tail draws (RULES.md §2).

A hand's randomness comes from one seed (32 random bytes from `secrets`, as 64 hex digits). The wall
order and the dice are derived from it deterministically — a SHA-256 counter stream drives a
Fisher–Yates shuffle — so anyone holding the seed can rebuild the wall exactly. The commitment
`sha256(seed_hex + ":" + wall_notation)` is published before the first draw and checked after the
reveal.
"""

from __future__ import annotations

import hashlib
import secrets
import struct

from .tiles import format_tiles, full_set

SEED_BYTES = 32


class SeedError(ValueError):
    """A seed that is not 64 hex digits."""


def new_seed() -> str:
    return secrets.token_hex(SEED_BYTES)


def check_seed(seed: str) -> str:
    if not isinstance(seed, str) or len(seed) != 2 * SEED_BYTES:
        raise SeedError("a seed is 32 bytes written as 64 hex digits")
    try:
        bytes.fromhex(seed)
    except ValueError:
        raise SeedError("a seed is 32 bytes written as 64 hex digits") from None
    return seed.lower()


class _Stream:
    """Unbiased integers from SHA-256(seed : domain : counter) blocks, read as big-endian words."""

    __slots__ = ("_prefix", "_counter", "_words", "_pos")

    _BLOCKS = 24  # hashed at a time: one shuffle needs about 143 words, 8 per block

    def __init__(self, seed: str, domain: str) -> None:
        self._prefix = f"{seed}:{domain}:".encode()
        self._counter = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0

    def _refill(self) -> None:
        prefix, start = self._prefix, self._counter
        data = b"".join(
            hashlib.sha256(prefix + str(i).encode()).digest() for i in range(start, start + self._BLOCKS)
        )
        self._counter += self._BLOCKS
        self._words = struct.unpack(f">{8 * self._BLOCKS}I", data)
        self._pos = 0

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling (no modulo bias)."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            if self._pos >= len(self._words):
                self._refill()
            word = self._words[self._pos]
            self._pos += 1
            if word < limit:
                return word % n


def shuffled_wall(seed: str) -> list[int]:
    """The 144 tiles in wall order (index 0 is the head) for this seed."""
    tiles = full_set()
    stream = _Stream(check_seed(seed), "wall")
    for i in range(len(tiles) - 1, 0, -1):
        j = stream.below(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def roll_dice(seed: str) -> tuple[int, int]:
    stream = _Stream(check_seed(seed), "dice")
    return (stream.below(6) + 1, stream.below(6) + 1)


def commitment(seed: str, wall: list[int]) -> str:
    return hashlib.sha256(f"{seed}:{format_tiles(wall)}".encode()).hexdigest()


class Wall:
    """The live wall: normal draws from the head, replacement draws from the tail.

    There is no dead wall (§4.5): every tile can be drawn, and `empty` means a draw is impossible.
    """

    __slots__ = ("tiles", "head", "tail")

    def __init__(self, tiles: list[int], head: int = 0, tail: int | None = None) -> None:
        self.tiles = tiles
        self.head = head
        self.tail = len(tiles) if tail is None else tail

    @property
    def remaining(self) -> int:
        return self.tail - self.head

    @property
    def empty(self) -> bool:
        return self.tail <= self.head

    def draw_head(self) -> int:
        tile = self.tiles[self.head]
        self.head += 1
        return tile

    def draw_tail(self) -> int:
        self.tail -= 1
        return self.tiles[self.tail]

    def live(self) -> list[int]:
        return self.tiles[self.head : self.tail]
