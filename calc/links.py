"""Links into the calculator from anywhere a finished hand is shown (settlements, replays)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.engine.rules import Rules
from games.engine.scoring import ScoringError, WinContext

from .hand_input import from_engine


def calc_url(ctx: WinContext, rules: Rules) -> str:
    """The `/calc/` URL that opens this win, as the engine scored it, in the calculator."""
    return f"{reverse('calc:calculator')}?{from_engine(ctx, rules).query()}"


def stored_calc_urls(result: dict[str, Any] | None, rules: dict[str, Any] | None) -> list[str | None]:
    """One URL per winner of a stored `HandResult.to_json()`, or None where it cannot be built: results
    stored before the engine kept its win contexts (no `contexts`) simply get no link."""
    winners = (result or {}).get("winners") or []
    contexts = (result or {}).get("contexts")
    if not isinstance(contexts, list) or len(contexts) != len(winners):
        return [None] * len(winners)
    try:
        parsed = Rules.from_json(rules)
        return [calc_url(WinContext.from_json(c), parsed) for c in contexts]
    except (ScoringError, ValueError, TypeError):
        return [None] * len(winners)
