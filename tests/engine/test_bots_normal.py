"""The `normal` bot's judgement calls, each pinned by a hand-made position."""

import pytest

from games.engine.actions import Action
from games.engine.bots import get_bot, levels
from games.engine.rules import Rules
from games.engine.state import GameState
from games.engine.tiles import parse_tiles

# Filler hands that claim nothing the tests discard (seat 0 deals and discards first).
FILLER_2 = "258m147p369p258s6z"
FILLER_3 = "47m3258p147s369s7z"


def t(text: str) -> int:
    return parse_tiles(text)[0]


def kinds(state, seat):
    return {a.kind for a in state.legal_actions(seat)}


def after_dealer_discards(
    seat1: str, discard: str, dealer: str | None = None, wall: str = "3p3s5z6z"
) -> GameState:
    """Seat 0 deals `dealer` (14 tiles, holding `discard`) and discards `discard`; seat 1 answers."""
    dealer = dealer or f"{discard}147p369p258s147s4z"
    state = GameState.from_setup(hands=[dealer, seat1, FILLER_2, FILLER_3], wall=wall)
    state.apply(Action("discard", 0, t(discard)))
    return state


@pytest.fixture(params=["normal", "hard"])
def bot(request):
    """Both planning levels share these judgement calls."""
    return get_bot(request.param)


def test_levels_are_registered():
    assert {"easy", "normal", "hard"} <= set(levels())
    assert get_bot("hard").level == "hard"


def test_wins_on_a_discard_whenever_it_can(bot):
    state = after_dealer_discards("1112345678999m", "5m")
    assert "win" in kinds(state, 1)
    assert bot.choose(state, 1).kind == "win"


def test_declares_a_self_drawn_win(bot):
    state = GameState.from_setup(hands=["11123456789999m", "1112345678999p", FILLER_2, FILLER_3], wall="5z")
    assert bot.choose(state, 0).kind == "self_win"


def test_pongs_an_honour_its_one_suit_plan_uses(bot):
    state = after_dealer_discards("11m345m789m55z26m1s", "5z")
    assert bot.choose(state, 1) == Action("pong", 1, t("5z"))


def test_does_not_pong_a_tile_of_a_suit_it_is_not_collecting(bot):
    state = after_dealer_discards("123m456m78m11z99p3s", "9p", dealer="9p147p258s147s369s4z")
    assert "pong" in kinds(state, 1)
    assert bot.choose(state, 1).kind == "pass"


def test_chows_in_its_plan_suit(bot):
    state = after_dealer_discards("13m456m789m11z22z4p", "2m")
    assert bot.choose(state, 1) == Action("chow", 1, t("1m"))


def test_of_equally_close_chows_takes_the_one_that_leaves_the_better_hand(bot):
    # 7s chows with 56s or with 89s, one step closer either way; with 89s the hand keeps 12s and the
    # open-ended 56s (waiting on 3s, 4s, 7s) rather than 12s and the edge 89s (3s, 7s).
    state = after_dealer_discards("125689s111z55z9m1p", "7s")
    chows = {a.tile for a in state.legal_actions(1) if a.kind == "chow"}
    assert {t("5s"), t("7s")} <= chows
    assert bot.choose(state, 1) == Action("chow", 1, t("7s"))


def test_does_not_chow_outside_its_plan_suit(bot):
    state = after_dealer_discards("13m456m789m11z56p9s", "4p")
    assert "chow" in kinds(state, 1)
    assert bot.choose(state, 1).kind == "pass"


def test_does_not_chow_when_it_would_only_break_an_all_pongs_hand(bot):
    state = after_dealer_discards("111m555m99m77z22z6m", "7m")
    assert "chow" in kinds(state, 1)
    assert bot.choose(state, 1).kind == "pass"


def test_discards_the_tile_outside_its_plan(bot):
    state = GameState.from_setup(
        hands=["123456m789m11z22z5s", "1112345678999p", FILLER_2, FILLER_3], wall="5z"
    )
    assert bot.choose(state, 0) == Action("discard", 0, t("5s"))


def test_takes_a_concealed_kong_that_keeps_the_hand_whole(bot):
    state = GameState.from_setup(
        hands=["1111m456m789m22z35z", "1112345678999p", FILLER_2, FILLER_3], wall="5z"
    )
    assert "concealed_kong" in kinds(state, 0)
    assert bot.choose(state, 0) == Action("concealed_kong", 0, t("1m"))


def test_keeps_four_tiles_that_are_worth_more_as_sequences(bot):
    # 1111m23m: the four 1m make 111m + 123m (ready); a kong would leave 23m dangling.
    state = GameState.from_setup(
        hands=["1111m23m456m78m55z9s", "1112345678999p", FILLER_2, FILLER_3], wall="5z"
    )
    assert "concealed_kong" in kinds(state, 0)
    assert bot.choose(state, 0).kind == "discard"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_every_choice_is_legal_through_a_whole_hand(level):
    state = GameState.new(seed="ab" * 32)
    bots = [get_bot(level) for _ in range(4)]
    while state.phase != "ended":
        seat = state.pending_seats()[0]
        action = bots[seat].choose(state, seat)
        assert action in state.legal_actions(seat)
        state.apply(action)
    assert sum(state.result.payments) == 0


def test_declares_when_its_discard_leaves_the_hand_ready_under_qiao(bot):
    # A one-suit hand that is ready once it sheds its lone honour. Under 敲 (`declare_ready`) only a
    # declared seat may win, so that discard is made as a declaration; without 敲, as a discard.
    hands = ["1112345678999p1z", FILLER_2, FILLER_3, "258m147s369s1234z"]
    qiao = GameState.from_setup(hands=hands, wall="3p3s5z6z", rules=Rules(declare_ready=True))
    assert bot.choose(qiao, 0) == Action("declare", 0, t("1z"))
    plain = GameState.from_setup(hands=hands, wall="3p3s5z6z")
    assert bot.choose(plain, 0) == Action("discard", 0, t("1z"))


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_whole_hands_under_qiao_declare_and_win(level):
    bots = [get_bot(level) for _ in range(4)]
    declared = wins = 0
    for seed in ("ab", "cd", "ef", "12"):
        state = GameState.new(Rules(declare_ready=True), seed=seed * 32)
        while state.phase != "ended":
            seat = state.pending_seats()[0]
            action = bots[seat].choose(state, seat)
            assert action in state.legal_actions(seat)
            state.apply(action)
        declared += sum(state.declared)
        wins += len(state.result.winners)
        assert sum(state.result.payments) == 0
    assert declared and wins
