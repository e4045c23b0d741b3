"""The turn machine on the rules clarified in §5, §8 and §9: 天胡/地胡 with flower replacements and
after kongs, `lazi`'s dice 荒番 kept in the count, and `home`'s 跟风. Hands in tile notation."""

import pytest

from games.engine import Action, GameState, Rules
from games.engine.tiles import parse_tiles

LAZI = Rules(preset="lazi")
HOME = Rules(preset="home")


def a(text: str) -> Action:
    return Action.parse(text)


# The dealer's 14 win at once (混一色); seat 1 to 3 hold nothing useful for the dealer's 9m.
TIANHU = ["123m456m789m111z22z", "2468m2468p3579p6z", "4567p3456s34567s", "123456789s33z44z"]


@pytest.mark.parametrize(
    ("dice", "in_play"), [((1, 1), 2), ((4, 4), 2), ((1, 3), 1), ((3, 3), 1), ((2, 5), 0)]
)
def test_lazi_dice_bonus_plays_this_hand_and_stays_in_the_count(dice, in_play):
    won = GameState.from_setup(hands=TIANHU, wall="", rules=LAZI, dice=dice)
    won.apply(a("0:self_win"))
    assert ("huangfan" in won.result.winners[0].features) is (in_play > 0)
    assert won.result.huangfan_next == max(0, in_play - 1)  # 1-1 from 0: a win leaves 1
    drawn = GameState.from_setup(hands=TIANHU, wall="", rules=LAZI, dice=dice)
    drawn.apply(a("0:discard:9m"))
    assert drawn.result.kind == "draw"
    assert drawn.result.huangfan_next == in_play + 1  # 1-1 from 0: a draw leaves 3


def test_standard_dice_do_not_touch_the_count():
    drawn = GameState.from_setup(hands=TIANHU, wall="", dice=(1, 1))
    drawn.apply(a("0:discard:9m"))
    assert drawn.result.huangfan_next == 1


def test_tianhu_on_the_dealers_deal_flower_replacement():
    hands = ["123m456m789m111z2z1f", *TIANHU[1:]]
    state = GameState.from_setup(hands=hands, wall="9p2z", rules=LAZI)  # the tail's 2z replaces 1f
    assert state.flowers[0] == parse_tiles("1f")
    state.apply(a("0:self_win"))
    (winner,) = state.result.winners
    assert (winner.pattern, winner.value) == ("tianhu", 200)


# Seat 1 waits on 3z/4z; the dealer's 5z is claimed by nobody.
DIHU = ["159m159p159s1234z5z", "123456789s33z44z", "2468m2468p3579p6z", "4567p3456s34567s"]


def test_dihu_on_the_first_draws_flower_replacement():
    state = GameState.from_setup(hands=DIHU, wall="1f9p3z", rules=LAZI)
    state.apply(a("0:discard:5z"))
    assert state.current_seat == 1 and state.drawn_tile == parse_tiles("3z")[0]
    state.apply(a("1:self_win"))
    (winner,) = state.result.winners
    assert (winner.win, winner.pattern) == ("flower_replacement", "dihu")


def test_dihu_on_the_first_draw():
    state = GameState.from_setup(hands=DIHU, wall="3z9p", rules=LAZI)
    state.apply(a("0:discard:5z"))
    state.apply(a("1:self_win"))
    assert state.result.winners[0].pattern == "dihu"


def test_an_earlier_concealed_kong_cancels_dihu():
    hands = ["1111m59p159s1234z5z", *DIHU[1:]]
    state = GameState.from_setup(hands=hands, wall="3z9p8p", rules=LAZI)
    state.apply(a("0:concealed_kong:1m"))  # the replacement 8p comes from the tail
    state.apply(a("0:discard:5z"))
    state.apply(a("1:self_win"))
    (winner,) = state.result.winners
    assert winner.pattern != "dihu" and winner.pattern == "hunyise"


# 跟风: every seat holds one 1z and no seat can claim it; the wall runs out after the fourth discard.
GENGFENG = ["1z123m456m789m2p5p8p2s", "1z2m5m8m1p4p7p1s4s7s2z3z4z", "1z3m6m9m3p6p9p3s6s9s2z3z4z",
            "1z1m4m7m2p5p8p2s5s8s2z3z4z"]  # fmt: skip


@pytest.mark.parametrize(("before", "stake", "payments"), [(0, 1, [-3, 1, 1, 1]), (2, 2, [-18, 6, 6, 6])])
def test_home_gengfeng_the_dealer_pays_each_other_player_n(before, stake, payments):
    state = GameState.from_setup(hands=GENGFENG, wall="9s9s9s", rules=HOME, stake=stake, gengfeng=before)
    events = []
    for seat in range(4):
        events += state.apply(a(f"{seat}:discard:1z"))
    assert [e.kind for e in events].count("gengfeng") == 1
    assert state.result.kind == "draw"
    assert list(state.result.payments) == payments
    assert (state.result.gengfeng, state.result.gengfeng_next) == (before + 1, before + 1)
    again = GameState.from_json(state.to_json())
    assert again.result == state.result


def test_gengfeng_needs_the_same_wind_four_times_and_only_in_home():
    state = GameState.from_setup(hands=GENGFENG, wall="9s9s9s", rules=HOME)
    for seat, tile in enumerate(["1z", "1z", "1z", "2z"]):
        state.apply(a(f"{seat}:discard:{tile}"))
    assert list(state.result.payments) == [0, 0, 0, 0] and state.result.gengfeng_next == 0
    std = GameState.from_setup(hands=GENGFENG, wall="9s9s9s")
    for seat in range(4):
        std.apply(a(f"{seat}:discard:1z"))
    assert list(std.result.payments) == [0, 0, 0, 0]


def test_a_hand_export_carries_the_matchs_gengfeng_count():
    from games.engine.bots import get_bot
    from games.engine.simulate import play_hand
    from games.engine.verify import ExportError, parse_export, verify_export

    state = GameState.new(HOME, seed="c3" * 32, gengfeng=2)
    play_hand(state, [get_bot("easy")] * 4)
    reveal = state.reveal()
    export = {
        "seed": reveal["seed"], "rules": HOME.to_json(), "dealer": 0, "huangfan": 0, "stake": 1,
        "actions": [str(x) for x in state.actions], "commitment": reveal["commitment"], "wall": reveal["wall"],
    }  # fmt: skip
    assert verify_export(parse_export(export)).state.gengfeng == 0
    replayed = verify_export(parse_export(export | {"gengfeng": 2})).state
    assert replayed.gengfeng == 2 and replayed.result == state.result
    assert parse_export(export | {"gengfeng": 2}).to_json()["gengfeng"] == 2
    with pytest.raises(ExportError, match="gengfeng"):
        parse_export(export | {"gengfeng": -1})
