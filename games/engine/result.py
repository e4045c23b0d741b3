"""`HandResult`: how a hand ended, as a typed value (like python-chess's `Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tiles import format_tiles


@dataclass(frozen=True, slots=True)
class HandResult:
    """`kind` is "win" or "draw"; `winners` are `WinScore`s; `payments` sum to zero and are the net
    of `transfers`."""

    kind: str
    winners: tuple[Any, ...]
    payments: tuple[int, int, int, int]
    dealer_next: int
    huangfan_next: int
    dice: tuple[int, int]
    seed: str
    wall: tuple[int, ...]
    gengfeng: int = 0  # `home` 跟风 this hand: the dealer paid each other player this many (× stake)
    gengfeng_next: int = 0  # 跟风 so far in the match, this hand included
    settlements: tuple[Any, ...] = ()  # scoring.Settlement per win: why each seat paid what it paid
    contexts: tuple[
        Any, ...
    ] = ()  # scoring.WinContext per winner (as `winners`): what each win was scored from
    # (payer, creditor, amount) in the order paid: 跟风 first, then each payer's wins from its 下家;
    # `payments` is their net. 逛花园 (`Garden.pay`) cuts them where a payer's stack runs out.
    transfers: tuple[tuple[int, int, int], ...] = ()

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "winners": [w.to_json() for w in self.winners],
            "payments": list(self.payments),
            "dealer_next": self.dealer_next,
            "huangfan_next": self.huangfan_next,
            "dice": list(self.dice),
            "seed": self.seed,
            "wall": format_tiles(self.wall),
            "gengfeng": self.gengfeng,
            "gengfeng_next": self.gengfeng_next,
            "settlements": [s.to_json() for s in self.settlements],
            "contexts": [c.to_json() for c in self.contexts],
            "transfers": [list(t) for t in self.transfers],
        }


def next_dealer(dealer: int, winners: list[int], discarder: int | None) -> int:
    """§3: a draw keeps the dealer; one winner deals next; several: the nearest after the discarder."""
    if not winners:
        return dealer
    if len(winners) == 1 or discarder is None:
        return winners[0]
    return min(winners, key=lambda seat: (seat - discarder) % 4)


def next_huangfan(huangfan: int, drawn: bool) -> int:
    """§7: +1 after an exhaustive draw, −1 after a win, never below 0."""
    return huangfan + 1 if drawn else max(0, huangfan - 1)
