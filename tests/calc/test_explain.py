"""The explanation builder over engine results: its steps (the engine's workings in words) reach the
engine's value under every house option, several winners are explained together, the loss cap is shown
where it bit, and who pays follows the engine's settlement."""

from __future__ import annotations

import dataclasses
import itertools
import re

import pytest
from django.utils import translation

from games.engine.melds import Meld
from games.engine.rules import Rules
from games.engine.score_cmd import CaseError, parse_case
from games.engine.scoring import WinContext, score_win, settle
from games.engine.tiles import parse_tiles
from games.presentation.explain import explain_hand
from tests.calc.test_cases import CASES

VARIANTS = [
    {},
    {"menqing": "lezi"},
    {"gangkai": "double"},
    {"haidi": "double"},
    {"haidi": "lezi", "menqing": "lezi", "gangkai": "double"},
    {"base": 3, "flower_point": 2, "lezi": 12},
]

# These tests read the English words of pages and messages (the site default is Chinese).
pytestmark = pytest.mark.usefixtures("english")


def _parsed(case):
    try:
        return parse_case(case)
    except CaseError:
        return None


PARSED = [p for p in map(_parsed, CASES) if p is not None]


def last_number(text: str) -> int:
    return int(re.findall(r"-?\d+", text)[-1])


@pytest.mark.parametrize(
    ("variant", "stake", "last"), list(itertools.product(VARIANTS, (1, 3), (False, True)))
)
def test_steps_reach_the_engines_value_under_every_option(variant, stake, last):
    checked = 0
    for _, ctx, rules in PARSED:
        rules = dataclasses.replace(rules, **variant) if rules.preset == "standard" else rules
        ctx = dataclasses.replace(ctx, stake=stake, last_tile=last)
        score = score_win(ctx, rules)
        explained = explain_hand([ctx], rules, settle([(ctx, score)], rules))
        (win,) = explained.wins
        assert win.legal == score.legal
        if score.legal:
            assert last_number(win.steps[-1].formula) == score.value, (ctx, rules, win.steps)
            assert win.value == score.value
            if rules.preset != "home":
                assert win.breakdown_total == score.hua
            checked += 1
    assert checked >= 25


def test_two_winners_on_one_discard_are_explained_together():
    rules = Rules()
    common = dict(win="discard", from_seat=2, winning_tile=parse_tiles("1z")[0], dealer=1)
    first = WinContext(winner=1, concealed=tuple(parse_tiles("123456789m1z")),
                       melds=(Meld.of("pong", "777z", 3),), **common)  # fmt: skip
    second = WinContext(winner=3, concealed=tuple(parse_tiles("1z")),
                        melds=tuple(Meld.of("pong", t, 0) for t in ("111p", "555p", "999p", "666z")),
                        **common)  # fmt: skip
    wins = [(ctx, score_win(ctx, rules)) for ctx in (first, second)]
    payments = settle(wins, rules)
    with translation.override("zh-hans"):
        explained = explain_hand([ctx for ctx, _ in wins], rules, payments, names=["A", "B", "C", "D"])
    with translation.override("en"):
        english = explain_hand([ctx for ctx, _ in wins], rules, payments, names=["A", "B", "C", "D"])
    assert [w.seat for w in explained.wins] == [1, 3]
    assert all(w.legal for w in explained.wins)
    assert [s.amount for s in explained.seats] == payments
    assert sum(payments) == 0 and payments[2] < 0
    assert "放冲" in explained.seats[2].roles and "Dealt in" in english.seats[2].roles
    assert explained.seats[2].detail.count("→") == 2
    assert (
        explained.seats[1].is_dealer and explained.seats[1].wind == "东" and english.seats[1].wind == "East"
    )


def test_the_loss_cap_is_marked_where_it_bit():
    case = next(c for c in CASES if c["name"] == "fengpeng-huangfan-losscap")
    _, ctx, rules = parse_case(case)
    score = score_win(ctx, rules)
    payments = settle([(ctx, score)], rules)
    with translation.override("en"):
        explained = explain_hand([ctx], rules, payments)
    assert [s.capped for s in explained.seats] == [p < 0 for p in payments]
    assert explained.cap_note is not None and "Loss cap" in explained.cap_note and "50" in explained.cap_note


def test_who_pays_follows_the_engines_settlement():
    """qingyise_9_bao (§11): the discarder pays 3 shares, and the sentence says so."""
    case = next(c for c in CASES if c["name"] == "qingyise-9-bao")
    _, ctx, rules = parse_case(case)
    payments = settle([(ctx, score_win(ctx, rules))], rules)
    off = dataclasses.replace(rules, qingyise_9_bao=False)
    with translation.override("zh-hans"):
        (win,) = explain_hand([ctx], rules, payments).wins
        (plain,) = explain_hand([ctx], off, settle([(ctx, score_win(ctx, off))], off)).wins
    assert "九张落地" in win.who_pays
    assert "九张落地" not in plain.who_pays


def test_home_eight_flowers_explains_the_cap_from_each_of_three():
    case = next(c for c in CASES if c["name"] == "home-eight-flowers-cap")
    _, ctx, rules = parse_case(case)
    explained = explain_hand([ctx], rules, settle([(ctx, score_win(ctx, rules))], rules))
    (win,) = explained.wins
    assert win.value == 20 and last_number(win.steps[-1].formula) == 20
    assert [s.detail for s in explained.seats if s.seat != 3] == ["1 × 20 → North"] * 3
