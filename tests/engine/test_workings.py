"""`scoring.workings`: the lines and steps each preset scores through. Over every scoring case and
the §11 options, the steps chain arithmetically to the score's value and the lines sum to its 花."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import pytest

from games.engine.bots import get_bot
from games.engine.melds import Meld
from games.engine.rules import Rules
from games.engine.score_cmd import CaseError, parse_case
from games.engine.scoring import LineKind, ScoringError, StepKind, WinContext, score_win, workings
from games.engine.simulate import hand_seed, play_hand
from games.engine.state import GameState
from games.engine.tiles import parse_tiles

CASES_DIR = Path(__file__).resolve().parent / "cases"
CASES = [
    c for name in ("standard", "lazi", "home") for c in json.loads((CASES_DIR / f"{name}.json").read_text())
]


def _parsed(case):
    try:
        return parse_case(case)
    except CaseError:
        return None


PARSED = [p for p in map(_parsed, CASES) if p is not None]
VARIANTS = [
    {},
    {"menqing": "lezi"},
    {"gangkai": "double"},
    {"haidi": "double"},
    {"haidi": "lezi", "menqing": "lezi", "gangkai": "double"},
    {"base": 3, "flower_point": 2, "lezi": 12},
]


def replay_steps(steps, total: int, rules: Rules) -> int:
    """Recompute each step from the one before it, as the step kind says, and return the last value."""
    value, cap = 0, None
    n = 1
    for step in steps:
        if step.kind == StepKind.BASE_HUA:
            per = rules.flower_point if rules.preset == "standard" else 1
            assert step.value == step.operand + per * total
            value, cap = step.value, step.cap
        elif step.kind in (StepKind.BASE, StepKind.FIXED):
            value, cap = step.value, step.cap
        elif step.kind == StepKind.FLOOR:
            value = max(value, step.operand)
        elif step.kind == StepKind.DOUBLE:
            value = value * 2
            cap = None if cap is None else max(cap, 2)
        elif step.kind == StepKind.DOUBLE_CAP:
            value, cap = value * 2, cap * 2
        elif step.kind == StepKind.CAP:
            value = min(value, step.operand)
        elif step.kind == StepKind.TIMES:
            n *= step.operand
            assert step.value == n
            continue
        elif step.kind == StepKind.PAY:
            assert step.operand == n
            value = min(total * n + 1, step.cap)
        elif step.kind == StepKind.STAKE:
            value *= step.operand
        assert step.value == value, step
        assert step.cap == cap or step.kind in (StepKind.PAY, StepKind.STAKE) or rules.preset != "standard"
    return value


@pytest.mark.parametrize(
    ("variant", "stake", "last"), list(itertools.product(VARIANTS, (1, 3), (False, True)))
)
def test_steps_chain_to_the_value_and_lines_sum_to_the_hua(variant, stake, last):
    checked = 0
    for _, ctx, rules in PARSED:
        rules = dataclasses.replace(rules, **variant) if rules.preset == "standard" else rules
        ctx = dataclasses.replace(ctx, stake=stake, last_tile=last)
        w = workings(ctx, rules)
        assert w.score == score_win(ctx, rules)
        total = sum(line.amount for line in w.lines)
        if rules.preset != "home":
            assert total == w.score.hua
        if not w.score.legal:
            assert w.steps == () and w.refused in ("incomplete", "plain", "eight_flowers")
            continue
        assert w.refused is None
        assert w.steps[-1].kind == StepKind.STAKE and w.steps[-1].operand == stake
        assert replay_steps(w.steps, total, rules) == w.score.value
        checked += 1
    assert checked >= 25


def _ctx(hand, tile, melds=(), flowers="", win="discard", winner=0, frm=1, **kw):
    return WinContext(
        winner=winner,
        win=win,
        concealed=tuple(parse_tiles(hand)),
        winning_tile=None if tile is None else parse_tiles(tile)[0],
        melds=tuple(Meld.parse(m) for m in melds),
        flowers=tuple(parse_tiles(flowers)),
        from_seat=frm if win in ("discard", "rob_kong") else None,
        **kw,
    )


def test_standard_half_flush_concealed_hand_on_lucky_dice():
    w = workings(_ctx("123456789m111z5z", "5z", flowers="1f", dice=(3, 3)), Rules())
    kinds = [(s.kind, s.by, s.value, s.cap) for s in w.steps]
    # 花: 1 flower + 东 triplet in hand = 2; P = 2 + 2 = 4; 门清 ×2; 开宝 ×2 (cap ×2); V = min(16, 40)
    assert kinds == [
        (StepKind.BASE_HUA, ("hunyise",), 4, 1),
        (StepKind.DOUBLE, ("menqing",), 8, 2),
        (StepKind.DOUBLE_CAP, ("kaibao",), 16, 4),
        (StepKind.CAP, (), 16, 4),
        (StepKind.STAKE, (), 16, None),
    ]
    assert [(line.kind, line.amount) for line in w.lines] == [
        (LineKind.FLOWER, 1),
        (LineKind.CONCEALED_PONG, 1),
    ]


def test_home_eight_flowers_pays_the_cap():
    w = workings(
        _ctx("147m258p369s1234z", None, flowers="12345678f6z", win="eight_flowers", winner=3),
        Rules(preset="home"),
    )
    assert [(s.kind, s.by, s.value) for s in w.steps] == [
        (StepKind.FIXED, ("bahua",), 20),
        (StepKind.STAKE, (), 20),
    ]


def test_home_factors_of_n_and_the_payment():
    # 清一色 pong hand, no flowers: M = 10; N = 碰碰胡 2 × 清一色 4 = 8; min(81, 20) = 20
    w = workings(_ctx("1112223334445m", "5m"), Rules(preset="home"))
    assert w.score.pattern == "qingpeng"
    assert [(s.kind, s.by, s.value) for s in w.steps[:-2]] == [
        (StepKind.TIMES, ("menqing",), 2),
        (StepKind.TIMES, ("pengpeng",), 4),
        (StepKind.TIMES, ("qingyise",), 16),
    ]
    assert w.lines[0].kind == LineKind.NO_FLOWERS and w.steps[-2].value == 20


@pytest.mark.parametrize(
    ("hand", "tile", "win", "refused"),
    [
        ("123m456p789s234s1z", "1z", "discard", "plain"),
        ("1357m2468p1357s1z", "1z", "discard", "incomplete"),
    ],
)
def test_a_refused_win_says_why(hand, tile, win, refused):
    w = workings(_ctx(hand, tile, win=win), Rules())
    assert (w.score.legal, w.refused) == (False, refused)


def test_eight_flowers_short_of_eight_is_refused_as_such():
    w = workings(_ctx("123456789m1234z", None, flowers="1234567f", win="eight_flowers"), Rules(preset="lazi"))
    assert (w.score.legal, w.refused) == (False, "eight_flowers")


# --- HandResult.contexts: what each win was scored from, kept in the result's JSON ---------------


def _played_wins(preset: str, n: int):
    """Finished hands with a winner, played by the easy bots from fixed seeds."""
    bots = [get_bot("easy")] * 4
    out = []
    for i in range(200):
        state = GameState.new(Rules(preset=preset), i % 4, 0, 1, hand_seed("ctx", i))
        play_hand(state, bots)
        if state.result.kind == "win":
            out.append(state)
        if len(out) == n:
            return out
    raise AssertionError("no win in 200 hands")


@pytest.mark.parametrize("preset", ["standard", "lazi", "home"])
def test_hand_result_keeps_each_wins_context_through_json(preset):
    for state in _played_wins(preset, 3):
        result = state.result
        assert [c.winner for c in result.contexts] == [w.seat for w in result.winners]
        stored = json.loads(json.dumps(result.to_json()))["contexts"]
        for ctx, score, data in zip(result.contexts, result.winners, stored, strict=True):
            back = WinContext.from_json(data)
            assert back == ctx
            assert score_win(back, state.rules) == score


@pytest.mark.parametrize(
    "change",
    [{"winner": 9}, {"concealed": "xyz"}, {"melds": [{"kind": "pong"}]}, {"last_tile": 1}, {"extra": 1}, {}],
)
def test_a_malformed_stored_context_raises_scoring_error(change):
    good = _ctx("123456789m111z5z", "5z").to_json()
    bad = {**good, **change} if change else {k: v for k, v in good.items() if k != "dice"}
    with pytest.raises(ScoringError):
        WinContext.from_json(bad)
