"""The explanation builder over engine results: its steps reach the engine's value under every house
option, several winners are explained together, and the loss cap is shown where it bit."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from calc.explain import explain_hand
from games.engine.melds import Meld
from games.engine.rules import Rules
from games.engine.score_cmd import CaseError, parse_case
from games.engine.scoring import WinContext, score_win, settle
from games.engine.tiles import parse_tiles
from tests.calc.test_cases import CASES

VARIANTS = [
    {},
    {"menqing": "lezi"},
    {"gangkai": "double"},
    {"haidi": "double"},
    {"haidi": "lezi", "menqing": "lezi", "gangkai": "double"},
    {"base": 3, "flower_point": 2, "lezi": 12},
]


def _parsed(case):
    try:
        return parse_case(case)
    except CaseError:
        return None


PARSED = [p for p in map(_parsed, CASES) if p is not None]


@pytest.mark.parametrize(("variant", "stake", "last"), itertools.product(VARIANTS, (1, 3), (False, True)))
def test_steps_reach_the_engines_value_under_every_option(variant, stake, last):
    checked = 0
    for _, ctx, rules in PARSED:
        rules = dataclasses.replace(rules, **variant) if rules.preset == "standard" else rules
        ctx = dataclasses.replace(ctx, stake=stake, last_tile=last)
        score = score_win(ctx, rules)
        explained = explain_hand([(ctx, score)], rules, settle([(ctx, score)], rules))
        (win,) = explained.wins
        assert win.legal == score.legal
        if score.legal:
            assert win.agrees, (ctx, rules, win.steps)
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
    explained = explain_hand(wins, rules, payments, names=["A", "B", "C", "D"])
    assert [w.seat for w in explained.wins] == [1, 3]
    assert all(w.legal for w in explained.wins)
    assert [s.amount for s in explained.seats] == payments
    assert sum(payments) == 0 and payments[2] < 0
    assert ("放铳", "Dealt in") in explained.seats[2].roles
    assert explained.seats[2].detail.count("→") == 2
    assert explained.seats[1].is_dealer and explained.seats[1].wind[0] == "东"


def test_the_loss_cap_is_marked_where_it_bit():
    case = next(c for c in CASES if c["name"] == "fengpeng-huangfan-losscap")
    _, ctx, rules = parse_case(case)
    score = score_win(ctx, rules)
    payments = settle([(ctx, score)], rules)
    explained = explain_hand([(ctx, score)], rules, payments)
    assert [s.capped for s in explained.seats] == [p < 0 for p in payments]
    assert explained.cap_note is not None and "50" in explained.cap_note[1]
