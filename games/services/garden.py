"""逛花园 (`garden`, rules §11) at the web table: each match's chip stacks.

The engine's hands know nothing of stacks (games/engine/garden.py keeps them for whoever plays a
match). Here the stacks after each hand are stored in the hand's result (`result["garden"]`: the
stacks, the count of dealer changes, whether the match is over, and `paid`, what was actually paid,
which the table's scores, the ledger and the history count instead of the engine's payments), so the
next hand continues from the last ended hand of its match and no table column is needed. A 跟风 is
paid from the stacks when it happens, before the hand's win (rules §9). When the garden ends the
match (four rounds), the match is marked ended and the next deal starts a new one.
"""

from __future__ import annotations

from datetime import datetime

from games.engine.garden import Garden
from games.engine.state import GameState
from games.models import Hand, Match


def settle_hand(hand: Hand, state: GameState, now: datetime) -> tuple[int, int, int, int]:
    """The payments actually made for the ended `state` of `hand` (its result already set): the
    engine's payments without a garden; with one, what the stacks could cover, written into
    `hand.result["garden"]` (the caller saves the hand)."""
    result = state.result
    if state.rules.garden == "off":
        return tuple(result.payments)
    previous = (
        Hand.objects.filter(match_id=hand.match_id, number__lt=hand.number, result__isnull=False)
        .order_by("-number")
        .values_list("result", flat=True)
        .first()
    )
    if previous and previous.get("garden"):
        garden = Garden.from_json(previous["garden"])
    else:
        garden = Garden.start(state.rules, state.stake)
    paid, garden = garden.pay(result.transfers)  # rules §7 Shortfall: each payer pays their own creditors
    garden = garden.after_hand(state.dealer, result.dealer_next)
    hand.result["garden"] = {**garden.to_json(), "paid": list(paid)}
    if garden.over:
        Match.objects.filter(pk=hand.match_id, ended__isnull=True).update(ended=now)
    return paid


def match_over(hand: Hand | None) -> bool:
    """The garden of this hand's match has ended it (the next deal starts a new match)."""
    return bool(hand is not None and hand.result and (hand.result.get("garden") or {}).get("over"))


def chips(stake_stack: int, scores) -> list[int]:
    """Each seat's stack from the match's starting stack and the table's scores (what each has been
    paid in the match so far, which is exactly how far its stack has moved)."""
    return [stake_stack + int(score) for score in scores]
