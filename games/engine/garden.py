"""逛花园 (`garden`, §11): chip stacks over a match, partial payments, and the four-round end.

Pure logic for the layer that keeps a match (the web table, `simulate`): the engine's hands know
nothing of stacks. Each player starts the match with `Rules.garden × stake` points. After each hand
the hand's transfers (`HandResult.transfers`: who hands whom how much, in the order paid) go through
`Garden.pay`: nobody pays more than is left of their stack (a payment that cannot be covered is paid
in part, and its creditor collects only that), a player at 0 pays nothing more but still collects.
The match ends after four rounds (四圈): at the sixteenth change of dealer.

§7 Shortfall: a short payer pays their own creditors one at a time in turn order from their 下家,
each in full before the next (the engine's transfers are already in that order, the loss cap
applied); money is never pooled, so a creditor receives only what their own debtors paid. 跟风 comes
first in the list: it is settled when it happens, before the hand's win.
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

    def pay(self, transfers: Sequence[Sequence[int]]) -> tuple[tuple[int, int, int, int], Garden]:
        """The payments actually made from a hand's `transfers` ((payer, creditor, amount) in the
        order paid, as `HandResult.transfers`), and the stacks after.

        Each transfer is cut to what is left of its payer's stack at that moment; its creditor gets
        exactly what was paid of it, and may pay with it later in the list."""
        moves = []
        for move in transfers:
            if not isinstance(move, list | tuple) or len(move) != 3 or any(type(x) is not int for x in move):
                raise GardenError(f"a transfer is (payer, creditor, amount) as integers; got {move!r}")
            payer, creditor, amount = move
            if not (0 <= payer < 4 and 0 <= creditor < 4) or payer == creditor or amount <= 0:
                raise GardenError(
                    f"a transfer is a positive amount from one seat 0-3 to another; got {move!r}"
                )
            moves.append((payer, creditor, amount))
        stacks = list(self.stacks)
        for payer, creditor, amount in moves:
            paid = min(amount, stacks[payer])
            stacks[payer] -= paid
            stacks[creditor] += paid
        made = tuple(after - before for after, before in zip(stacks, self.stacks, strict=True))
        return made, replace(self, stacks=tuple(stacks))

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
