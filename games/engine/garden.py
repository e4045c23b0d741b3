"""逛花园 (`garden`, §11): chip stacks over a match, partial payments, and the four-round end.

Pure logic for the layer that keeps a match (the web table, `simulate`): the engine's hands know
nothing of stacks. Each player starts the match with `Rules.garden × stake` points. After each hand
the hand's payments go through `Garden.pay`: nobody pays more than is left of their stack (a payment
that cannot be covered is paid in part, and the winners collect only what was paid), a player at 0
pays nothing more but still collects. The match ends after four rounds (四圈): at the sixteenth change
of dealer.

**Choice** — when the losers of a hand cover less than the gainers were owed (several gainers: two
winners on one discard, or a 跟风 beside a win), what was paid goes to the gainers in turn order from
the dealer, each in full before the next; the last one paid may get part.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .rules import Rules

ROUNDS = 4
DEALER_CHANGES_PER_MATCH = 4 * ROUNDS  # the deal goes round the four seats four times


class GardenError(ValueError):
    """A stack or a payment that cannot be."""


@dataclass(frozen=True, slots=True)
class Garden:
    """One match's stacks (points, the stake included) and how often the dealer has changed."""

    stacks: tuple[int, int, int, int]
    dealer_changes: int = 0

    def __post_init__(self) -> None:
        if len(self.stacks) != 4 or any(type(x) is not int or x < 0 for x in self.stacks):
            raise GardenError(f"stacks must be four non-negative integers; got {self.stacks!r}")
        if type(self.dealer_changes) is not int or self.dealer_changes < 0:
            raise GardenError(f"dealer_changes must be a non-negative integer; got {self.dealer_changes!r}")

    @classmethod
    def start(cls, rules: Rules, stake: int = 1) -> Garden:
        """The stacks a match starts with; `GardenError` when the rules have no garden."""
        if rules.garden == "off":
            raise GardenError("these rules play no garden (rules.garden is off)")
        if type(stake) is not int or stake < 1:
            raise GardenError(f"stake must be a positive integer; got {stake!r}")
        return cls((rules.garden * stake,) * 4)

    @property
    def over(self) -> bool:
        """四圈: the match ends once the dealer has changed sixteen times."""
        return self.dealer_changes >= DEALER_CHANGES_PER_MATCH

    @property
    def rounds_played(self) -> int:
        return min(ROUNDS, self.dealer_changes // 4)

    def pay(self, payments: Sequence[int], dealer: int = 0) -> tuple[tuple[int, int, int, int], Garden]:
        """The payments actually made from a hand's `payments` (which sum to zero), and the stacks after.

        `dealer` orders the gainers when what was paid falls short (see the module's choice)."""
        if len(payments) != 4 or any(type(p) is not int for p in payments) or sum(payments) != 0:
            raise GardenError(f"payments must be four integers summing to zero; got {list(payments)!r}")
        if type(dealer) is not int or not 0 <= dealer < 4:
            raise GardenError(f"dealer must be a seat 0-3; got {dealer!r}")
        made = [0, 0, 0, 0]
        pot = 0
        for seat, amount in enumerate(payments):
            if amount < 0:
                paid = min(-amount, self.stacks[seat])
                made[seat] = -paid
                pot += paid
        for seat in [(dealer + i) % 4 for i in range(4)]:
            if payments[seat] > 0:
                got = min(payments[seat], pot)
                made[seat] = got
                pot -= got
        stacks = tuple(x + m for x, m in zip(self.stacks, made, strict=True))
        return tuple(made), replace(self, stacks=stacks)

    def after_hand(self, dealer: int, dealer_next: int) -> Garden:
        """Count a change of dealer (a draw or a dealer's win keeps the deal)."""
        return replace(self, dealer_changes=self.dealer_changes + (dealer_next != dealer))

    def to_json(self) -> dict[str, Any]:
        return {"stacks": list(self.stacks), "dealer_changes": self.dealer_changes, "over": self.over}

    @classmethod
    def from_json(cls, d: Any) -> Garden:
        if not isinstance(d, dict) or not isinstance(d.get("stacks"), list):
            raise GardenError("a garden is a JSON object with a list of four stacks")
        return cls(tuple(d["stacks"]), d.get("dealer_changes", 0))
