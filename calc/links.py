"""Links into the calculator from anywhere a finished hand is shown (settlements, replays)."""

from __future__ import annotations

from django.urls import reverse

from games.engine.rules import Rules
from games.engine.scoring import WinContext

from .hand_input import from_engine


def calc_url(ctx: WinContext, rules: Rules) -> str:
    """The `/calc/` URL that opens this win, as the engine scored it, in the calculator."""
    return f"{reverse('calc:calculator')}?{from_engine(ctx, rules).query()}"
