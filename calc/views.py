"""`/calc/`: the 算番器. The hand lives in the query string; every tap is a GET that re-renders the
work region (htmx) or the whole page (a plain link). Any input answers 200 with a message."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from games.engine.scoring import score_win, settle
from games.presentation.explain import explain_hand

from .builder import build, form_choices
from .hand_input import InputError, problem, read_query

# The hand's own parameters, carried as hidden fields by the settings form.
_CARRIED = ("hand", "tile", "meld", "flowers", "to", "mk", "mf")


def evaluate(inp):
    """(explanation, problem, incomplete) for an input: the engine's verdict or why there is none."""
    try:
        ctx, rules = inp.to_engine()
    except InputError as exc:
        return None, exc.problem, exc.incomplete
    try:
        score = score_win(ctx, rules)
    except ValueError as exc:  # the engine's own refusal of an impossible context
        return None, problem(_("这手牌不成立。"), detail=exc), False
    payments = settle([(ctx, score)], rules)
    return explain_hand([ctx], rules, payments), None, False


def calculator(request):
    inp, problems = read_query(request.GET)
    explanation, refusal, incomplete = (None, None, False) if problems else evaluate(inp)
    if refusal is not None:
        problems = [refusal]
    canonical = f"{reverse('calc:calculator')}?{inp.query()}"
    ctx = {
        "inp": inp,
        "builder": build(inp),
        "form": form_choices(inp),
        "hidden": [(k, v) for k, v in inp.params() if k in _CARRIED],
        "problems": problems,
        "incomplete": incomplete,
        "explanation": explanation,
        "canonical": canonical,
    }
    if request.htmx:
        response = render(request, "calc/calc.html#work", ctx)
        response["HX-Push-Url"] = canonical
        return response
    return render(request, "calc/calc.html", ctx)
