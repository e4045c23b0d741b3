"""Scoring (games/engine/RULES.md §5-§7, §11): one test per rule line, hands in notation."""

from __future__ import annotations

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from games.engine.melds import Meld, MeldError
from games.engine.rules import Rules
from games.engine.scoring import (
    ScoringError,
    WinContext,
    is_legal_win,
    score_win,
    settle,
    winning_tiles,
)
from games.engine.scoring.lazi import dice_huangfan
from games.engine.tiles import is_dragon, parse_tiles, to_counts

STD = Rules()
LAZI = Rules(preset="lazi")
HOME = Rules(preset="home")


def ctx(hand, tile, melds=(), flowers="", win="discard", winner=0, frm=None, **kw) -> WinContext:
    if frm is None and win in ("discard", "rob_kong"):
        frm = (winner + 1) % 4
    return WinContext(
        winner=winner,
        win=win,
        concealed=tuple(parse_tiles(hand)),
        winning_tile=None if tile is None else parse_tiles(tile)[0],
        melds=tuple(Meld.parse(m) for m in melds),
        flowers=tuple(parse_tiles(flowers)),
        from_seat=frm,
        **kw,
    )


def scored(*args, rules=STD, **kw):
    c = ctx(*args, **kw)
    return score_win(c, rules), c


def pays(*args, rules=STD, **kw):
    s, c = scored(*args, rules=rules, **kw)
    return settle([(c, s)], rules)


# --- §5 winning hands ----------------------------------------------------------------------------


def test_plain_mixed_hand_never_wins():
    s, c = scored("123m456p789s234s1z", "1z")
    assert (s.legal, s.pattern, s.value) == (False, None, 0)
    assert settle([(c, s)], STD) == [0, 0, 0, 0]


def test_incomplete_hand_is_not_a_win():
    s, _ = scored("123456789m1234z", "5z", win="self_draw")
    assert not s.legal


def test_pengpeng_across_suits():
    s, _ = scored("222p333s444s5z", "5z", melds=["pong 111m<2"])
    assert (s.legal, s.pattern, s.features, s.hua, s.value) == (True, "pengpeng", (), 0, 2)


def test_mixed_suits_with_a_chow_never_win():
    s, _ = scored("222p333s444s5z", "5z", melds=["chow 123m<3"])
    assert not s.legal


def test_hunyise():
    s, _ = scored("456789m111z5z", "5z", melds=["chow 123m<3"])
    assert (s.pattern, s.hua, s.value) == ("hunyise", 1, 3)


def test_qingyise():
    s, _ = scored("456789p1199p", "9p", melds=["chow 123p<3"])
    assert (s.pattern, s.value) == ("qingyise", 10)


def test_hunpeng():
    s, _ = scored("222333m5557z", "7z", melds=["pong 111m<1"])
    assert (s.pattern, s.hua, s.value) == ("hunpeng", 2, 10)


def test_qingpeng():
    s, _ = scored("2225558s", "8s", melds=["pong 111s<1", "pong 999s<2"])
    assert (s.pattern, s.value) == ("qingpeng", 20)


def test_fengyise_any_arrangement_with_an_exposed_pong():
    s, _ = scored("2345672345z", "6z", melds=["pong 111z<2"])
    assert (s.legal, s.pattern, s.hua, s.value) == (True, "fengyise", 1, 20)


def test_fengpeng():
    s, _ = scored("6667z", "7z", melds=["pong 111z<1", "pong 222z<2", "pong 555z<3"])
    assert (s.pattern, s.hua, s.value) == ("fengpeng", 6, 40)


def test_honour_concealed_part_with_a_suit_meld_needs_sets():
    s, _ = scored("1234567z", "1z", melds=["chow 123m<3", "pong 444m<2"])
    assert not s.legal


def test_only_the_highest_pattern_counts_and_ties_name_the_lower_row():
    # 111 222 333 444m + 9m pair: 清碰 (pongs) or 清一色 (chows); both pay 2 勒子 with 门清.
    s, _ = scored("1112223334449m", "9m", win="self_draw")
    assert (s.pattern, s.features, s.value) == ("qingpeng", ("menqing",), 20)


def test_best_split_pays_most():
    s, _ = scored("1112223334m", "4m", melds=["pong 666m<2"])
    assert (s.pattern, s.value) == ("qingpeng", 20)


def test_menqing_allows_concealed_kong_and_claimed_winning_tile():
    s, _ = scored("222p333s444s5z", "5z", melds=["kong_concealed 1111m"])
    assert "menqing" in s.features


def test_added_kong_breaks_menqing():
    s, _ = scored("222p333s444s5z", "5z", melds=["kong_added 1111m<2"])
    assert "menqing" not in s.features


def test_dadiaoche_is_the_single_held_tile_pairing():
    s, _ = scored("5s", "5s", melds=["pong 111s<1", "pong 222s<2", "pong 333s<3", "pong 444s<1"])
    assert (s.pattern, s.features, s.value) == ("qingpeng", ("dadiaoche",), 20)
    s, _ = scored("1555z", "1z", melds=["pong 111s<1", "pong 222s<2", "pong 333s<3"])
    assert "dadiaoche" not in s.features


# --- §6 花 ---------------------------------------------------------------------------------------


def test_hua_suit_kongs_wind_kong_and_concealed_dragon_pong():
    melds = ["kong_exposed 1111m<1", "kong_concealed 2222m", "kong_exposed 1111z<2"]
    s, _ = scored("5557z", "7z", melds=melds, flowers="13f")
    # flowers 2 + exposed suit kong 1 + concealed suit kong 2 + exposed wind kong 2 + dragon pong 2
    assert (s.pattern, s.hua) == ("hunpeng", 9)


def test_hua_honour_kongs_and_added_kong():
    melds = ["kong_concealed 1111z", "kong_exposed 5555z<1", "kong_concealed 6666z"]
    s, _ = scored("2227z", "7z", melds=melds, win="self_draw")
    # concealed wind kong 3 + exposed dragon kong 3 + concealed dragon kong 4 + concealed wind pong 1
    assert (s.pattern, s.hua) == ("fengpeng", 11)
    s, _ = scored("2227z", "7z", melds=["kong_added 3333p<2", "pong 111p<1", "kong_added 6666z<3"])
    # added suit kong 1 + added dragon kong 3 + concealed wind pong 1
    assert s.hua == 5


def test_pong_completed_by_the_winning_discard_counts_as_a_pong():
    s, _ = scored("123456789m1155z", "5z")
    assert s.hua == 2


# --- §7 values -----------------------------------------------------------------------------------


def test_hunyise_value_is_base_plus_hua_capped_at_one_lezi():
    s, _ = scored("456789m111z5z", "5z", melds=["chow 123m<3"], flowers="12345678f")
    assert (s.hua, s.value) == (9, 10)  # 2 + 9 = 11, cap 1 勒子


def test_gangkai_floor_and_flower_replacement_is_gangkai():
    for win in ("kong_replacement", "flower_replacement"):
        s, _ = scored("222p333s444s5z", "5z", melds=["pong 111m<2"], win=win)
        assert (s.features, s.value) == (("gangkai",), 10)


def test_dadiaoche_floor():
    s, _ = scored("9m", "9m", melds=["chow 123m<3", "pong 555m<1", "pong 111z<2", "chow 789m<3"])
    assert (s.value, s.features) == (10, ("dadiaoche",))


def test_menqing_doubles_and_lifts_the_cap_to_two():
    # 混一色 with 3 花, 门清: (2 + 3) × 2 = 10 (seed worked check)
    s, _ = scored("123456789m1114z", "4z", flowers="12f")
    assert (s.pattern, s.hua, s.features, s.value) == ("hunyise", 3, ("menqing",), 10)
    s, _ = scored("123456789m1114z", "4z", flowers="12345678f")
    assert s.value == 20  # (2 + 9) × 2 = 22, cap 2 勒子


@pytest.mark.parametrize(
    ("dice", "kaibao"), [((3, 3), True), ((1, 4), True), ((4, 1), True), ((2, 5), False), ((1, 3), False)]
)
def test_kaibao_dice(dice, kaibao):
    s, _ = scored("2225558s", "8s", melds=["pong 111s<1", "pong 999s<2"], dice=dice)
    assert ("kaibao" in s.features) == kaibao
    assert s.value == (40 if kaibao else 20)  # 清碰 + 开宝 = 4 勒子 (seed worked check)


def test_huangfan_doubles_once_whatever_the_count():
    for count in (1, 3):
        s, _ = scored("6667z", "7z", melds=["pong 111z<1", "pong 222z<2", "pong 555z<3"], huangfan=count)
        assert (s.features, s.value) == (("huangfan",), 80)  # 风碰 + 荒番 = 8 勒子


def test_stake_multiplies_the_value():
    s, _ = scored("2225558s", "8s", melds=["pong 111s<1", "pong 999s<2"], stake=3)
    assert s.value == 60


def test_eight_flowers():
    s, c = scored("159m159p159s1234z", None, win="eight_flowers", flowers="12345678f", winner=2)
    assert (s.legal, s.pattern, s.value) == (True, "bahua", 20)
    assert settle([(c, s)], STD) == [-20, -20, 60, -20]
    s, _ = scored("159m159p159s1234z", None, win="eight_flowers", flowers="1234567f")
    assert not s.legal


# --- §11 house options ---------------------------------------------------------------------------


def test_menqing_lezi_option_is_a_floor():
    s, _ = scored("111m222p333s444s5z", "5z", win="self_draw", rules=Rules(menqing="lezi"))
    # pengpeng with no 花: P = 2, floor 1 勒子, the cap stays 1
    assert (s.features, s.value) == (("menqing",), 10)


def test_gangkai_double_option():
    s, _ = scored(
        "222p333s444s5z", "5z", melds=["pong 111m<2"], win="kong_replacement", rules=Rules(gangkai="double")
    )
    assert s.value == 4


def test_haidi_options():
    args = ("222p333s444s5z", "5z")
    kw = {"melds": ["pong 111m<2"], "win": "self_draw", "last_tile": True}
    s, _ = scored(*args, **kw)
    assert "haidi" not in s.features and s.value == 2
    s, _ = scored(*args, rules=Rules(haidi="double"), **kw)
    assert (s.features, s.value) == (("haidi",), 4)
    s, _ = scored(*args, rules=Rules(haidi="lezi"), **kw)
    assert s.value == 10
    s, _ = scored(*args, rules=Rules(haidi="lezi"), melds=["pong 111m<2"], last_tile=True)
    assert "haidi" not in s.features  # a discard is not 海底捞月


# --- who pays ------------------------------------------------------------------------------------

HUN = ("456789m111z5z", "5z")
HUN_MELDS = ["chow 123m<3"]  # 混一色, 花 1, V = 3


def test_discarder_pays_one_share():
    assert pays(*HUN, melds=HUN_MELDS, winner=1, frm=3) == [0, 3, 0, -3]


def test_self_draw_everyone_pays():
    assert pays(*HUN, melds=HUN_MELDS, winner=1, win="self_draw") == [-3, 9, -3, -3]


def test_rob_kong_konger_pays_three_shares():
    assert pays(*HUN, melds=HUN_MELDS, winner=1, win="rob_kong", frm=0) == [-9, 9, 0, 0]


def test_payment_options():
    assert pays(*HUN, melds=HUN_MELDS, winner=1, frm=3, rules=Rules(payment="chu_chong")) == [-3, 12, -3, -6]
    assert pays(*HUN, melds=HUN_MELDS, winner=1, frm=3, rules=Rules(payment="bao_chong")) == [0, 9, 0, -9]


def test_several_winners_on_one_discard_each_settle_with_the_discarder():
    a_s, a = scored(*HUN, melds=HUN_MELDS, winner=1, frm=0)
    b_s, b = scored("2225558s", "8s", melds=["pong 111s<1", "pong 999s<2"], winner=3, frm=0)
    assert settle([(a, a_s), (b, b_s)], STD) == [-23, 3, 0, 20]


def test_loss_cap_and_its_options():
    big = ("6667z", "7z")
    melds = ["pong 111z<1", "pong 222z<2", "pong 555z<3"]
    assert pays(*big, melds=melds, frm=1, huangfan=1) == [50, -50, 0, 0]
    assert pays(*big, melds=melds, frm=1, huangfan=1, rules=Rules(hand_loss_cap_lezi=None)) == [80, -80, 0, 0]
    assert pays(*big, melds=melds, frm=1, huangfan=1, rules=Rules(hand_loss_cap_lezi=7)) == [70, -70, 0, 0]
    assert pays(*big, melds=melds, frm=1, huangfan=1, stake=2) == [100, -100, 0, 0]


def test_loss_cap_over_two_winners_pays_the_nearest_first():
    melds = ["pong 111z<1", "pong 222z<2", "pong 555z<3"]
    a_s, a = scored("6667z", "7z", melds=melds, winner=2, frm=0)  # 40 each
    b_s, b = scored("2225558s", "8s", melds=["pong 111s<1", "pong 999s<2"], winner=1, frm=0)  # 20
    assert settle([(a, a_s), (b, b_s)], STD) == [-50, 20, 30, 0]


# --- 承包 ----------------------------------------------------------------------------------------

FEED_1_FROM_0 = ((0, 0, 0, 0), (3, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))


def test_feeds_below_three_are_not_partners():
    feeds = ((0, 0, 0, 0), (2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    assert pays(*HUN, melds=HUN_MELDS, winner=1, win="self_draw", feeds=feeds) == [-3, 9, -3, -3]


def test_chengbao_partner_deals_in_or_third_player_deals_in():
    kw = {"melds": HUN_MELDS, "winner": 1, "feeds": FEED_1_FROM_0}
    assert pays(*HUN, frm=0, **kw) == [-6, 6, 0, 0]
    assert pays(*HUN, frm=2, **kw) == [0, 6, -6, 0]
    assert pays(*HUN, frm=2, ready=(False, False, True, False), **kw) == [-3, 6, -3, 0]


def test_chengbao_self_draw_partner_pays_five_shares_and_partner_direction_either_way():
    assert pays(*HUN, melds=HUN_MELDS, winner=1, win="self_draw", feeds=FEED_1_FROM_0) == [-15, 15, 0, 0]
    fed = ((0, 3, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))  # the partner claimed from the winner
    assert pays(*HUN, melds=HUN_MELDS, winner=1, win="kong_replacement", feeds=fed) == [-50, 50, 0, 0]


def test_chengbao_rob_kong():
    kw = {"melds": HUN_MELDS, "winner": 1, "win": "rob_kong", "feeds": FEED_1_FROM_0}
    assert pays(*HUN, frm=2, **kw) == [-9, 18, -9, 0]
    assert pays(*HUN, frm=0, **kw) == [-9, 9, 0, 0]  # the partner is the konger: 3 shares once


def test_chengbao_twice_when_both_directions_reach_three():
    twice = ((0, 3, 0, 0), (3, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    kw = {"melds": HUN_MELDS, "winner": 1, "feeds": twice}
    assert pays(*HUN, win="self_draw", **kw) == [-30, 30, 0, 0]
    assert pays(*HUN, frm=2, ready=(False, False, True, False), **kw) == [-6, 12, -6, 0]


def test_chengbao_several_partners_each_settled_payer_charged_once():
    feeds = ((0, 0, 0, 0), (3, 0, 0, 3), (0, 0, 0, 0), (0, 0, 0, 0))
    kw = {"melds": HUN_MELDS, "winner": 1, "feeds": feeds}
    assert pays(*HUN, win="self_draw", **kw) == [-15, 30, 0, -15]
    assert pays(*HUN, frm=2, ready=(False, False, True, False), **kw) == [-3, 9, -3, -3]
    assert pays(*HUN, frm=2, **kw) == [0, 6, -6, 0]


def test_two_winners_who_are_partners_do_not_pay_each_other():
    feeds = ((0, 0, 0, 0), (0, 0, 0, 3), (0, 0, 0, 0), (0, 0, 0, 0))
    a_s, a = scored(*HUN, melds=HUN_MELDS, winner=1, frm=0, feeds=feeds)
    b_s, b = scored("2225558s", "8s", melds=["pong 111s<1", "pong 999s<2"], winner=3, frm=0, feeds=feeds)
    assert settle([(a, a_s), (b, b_s)], STD) == [-46, 6, 0, 40]
    ready = (True, False, False, False)
    a_s, a = scored(*HUN, melds=HUN_MELDS, winner=1, frm=0, feeds=feeds, ready=ready)
    b_s, b = scored(
        "2225558s", "8s", melds=["pong 111s<1", "pong 999s<2"], winner=3, frm=0, feeds=feeds, ready=ready
    )
    assert settle([(a, a_s), (b, b_s)], STD) == [-23, 3, 0, 20]


@settings(max_examples=200, deadline=None)
@given(
    winner=st.integers(0, 3),
    other=st.integers(1, 3),
    win=st.sampled_from(["discard", "self_draw", "rob_kong", "kong_replacement", "flower_replacement"]),
    feeds=st.lists(st.lists(st.integers(0, 4), min_size=4, max_size=4), min_size=4, max_size=4),
    ready=st.lists(st.booleans(), min_size=4, max_size=4),
    payment=st.sampled_from(["discarder", "chu_chong", "bao_chong"]),
    cap=st.sampled_from([None, 1, 5]),
    huangfan=st.integers(0, 2),
)
def test_settle_always_sums_to_zero(winner, other, win, feeds, ready, payment, cap, huangfan):
    frm = (winner + other) % 4 if win in ("discard", "rob_kong") else None
    feeds = tuple(tuple(0 if a == b else x for b, x in enumerate(row)) for a, row in enumerate(feeds))
    rules = Rules(payment=payment, hand_loss_cap_lezi=cap)
    s, c = scored(
        *HUN,
        melds=HUN_MELDS,
        winner=winner,
        win=win,
        frm=frm,
        feeds=feeds,
        ready=tuple(ready),
        huangfan=huangfan,
        rules=rules,
    )
    got = settle([(c, s)], rules)
    assert sum(got) == 0
    assert got[winner] > 0 and all(p <= 0 for seat, p in enumerate(got) if seat != winner)
    if cap is not None:
        assert min(got) >= -cap * 10


# --- legality helpers for the turn machine -------------------------------------------------------


def counts(text):
    return to_counts(parse_tiles(text))


def test_is_legal_win_matches_score_win():
    assert is_legal_win(counts("456789m111z55z"), [Meld.parse("chow 123m<3")], STD)
    assert not is_legal_win(counts("123m456p789s234s11z"), [], STD)
    assert is_legal_win(counts("111m222p333s444s55z"), [], STD)
    assert not is_legal_win(counts("1234567z"), [Meld.parse("chow 123m<3"), Meld.parse("pong 444m<2")], STD)


def test_winning_tiles():
    assert winning_tiles(counts("123456789m1z"), [Meld.parse("pong 777z<3")], STD) == parse_tiles("1z")
    assert winning_tiles(counts("123m456p789s234s1z"), [], STD) == []
    assert winning_tiles(counts("111m222p333s44s55z"), [], STD) == parse_tiles("4s5z")


def test_winning_tiles_all_honours_and_no_fifth_copy_counting_melds():
    melds = [Meld.parse(m) for m in ("pong 222z<1", "pong 333z<2", "pong 444z<3")]
    assert winning_tiles(counts("1113z"), melds, STD) == parse_tiles("124567z")


# --- inputs: WinContext, Rules, Meld -------------------------------------------------------------


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"hand": "1111m23456789m5z", "tile": "1m"}, "more than 4"),
        ({"hand": "123m", "tile": "1m"}, "hand size"),
        ({"frm": 0}, "own discard"),
        ({"win": "tsumo"}, "win must be"),
        ({"dice": (0, 3)}, "dice"),
        ({"stake": 0}, "stake"),
    ],
)
def test_bad_win_context(kw, message):
    args = {"hand": "123456789m1234z", "tile": "1z"} | kw
    hand, tile = args.pop("hand"), args.pop("tile")
    with pytest.raises(ScoringError, match=message):
        ctx(hand, tile, **args)


def test_rules_round_trip_and_strict_json():
    rules = Rules(menqing="lezi", hand_loss_cap_lezi=None)
    assert Rules.from_json(rules.to_json()) == rules
    with pytest.raises(ValueError, match="unknown rules option"):
        Rules.from_json({"colour": "red"})
    with pytest.raises(ValueError, match="rules.payment"):
        Rules.from_json({"payment": "everyone"})
    with pytest.raises(ValueError, match="preset"):
        Rules(preset="riichi")


def test_meld_round_trips_and_refuses_impossible_melds():
    for text in ("pong 777z<3", "chow 123m<0", "kong_concealed 2222m", "kong_added 5555p<1"):
        meld = Meld.parse(text)
        assert str(meld) == text
        assert Meld.from_json(meld.to_json()) == meld
    assert Meld.parse("kong_concealed 2222m").is_kong and not Meld.parse("kong_concealed 2222m").is_exposed
    for bad in (
        "chow 124m<0",
        "chow 789z<1",
        "pong 778z<1",
        "kong_exposed 777z<1",
        "kong_concealed 2222m<1",
        "pong 777z<4",
        "bump 777z",
    ):
        with pytest.raises(MeldError):
            Meld.parse(bad)


# --- lazi (§8) -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "bonus"),
    [((1, 1), 2), ((4, 4), 2), ((1, 3), 1), ((2, 4), 1), ((3, 3), 1), ((2, 5), 0), ((5, 6), 0)],
)
def test_lazi_dice_huangfan(dice, bonus):
    assert dice_huangfan(dice) == bonus


def test_lazi_open_hand_value_and_fan():
    s, _ = scored(*HUN, melds=HUN_MELDS, rules=LAZI)
    assert (s.pattern, s.hua, s.value) == ("hunyise", 1, 4)  # 3 + 1 花
    s, _ = scored(*HUN, melds=HUN_MELDS, win="kong_replacement", rules=LAZI)
    assert (s.features, s.value) == (("gangkai",), 8)
    s, _ = scored("123456789m1114z", "4z", flowers="1234567f", win="flower_replacement", rules=LAZI)
    assert (s.features, s.value) == (("gangkai", "menqing"), 20)  # (3 + 8) × 4, capped at 1 喇


def test_lazi_fixed_hands_ignore_hua_and_fan():
    s, _ = scored("2225558s", "8s", melds=["pong 111s<1", "pong 999s<2"], flowers="1234f", rules=LAZI)
    assert (s.pattern, s.value) == ("qingpeng", 40)
    s, _ = scored("9m", "9m", melds=["chow 123m<3", "pong 555m<1", "pong 111z<2", "chow 789m<3"], rules=LAZI)
    assert (s.pattern, s.value) == ("dadiaoche", 20)


def test_lazi_tianhu_dihu_need_a_qualifying_hand():
    s, _ = scored("1112345678999m", "5m", win="self_draw", first_go_round=True, rules=LAZI)
    assert (s.pattern, s.value) == ("tianhu", 200)
    s, _ = scored(*HUN, melds=HUN_MELDS, winner=2, frm=1, first_go_round=True, rules=LAZI)
    assert (s.pattern, s.value) == ("dihu", 160)
    s, _ = scored("123m456p789s234s1z", "1z", win="self_draw", first_go_round=True, rules=LAZI)
    assert not s.legal


def test_lazi_huangfan_doubles_and_there_is_no_chengbao_or_loss_cap():
    melds = ["pong 111z<1", "pong 222z<2", "pong 555z<3"]
    s, _ = scored("6667z", "7z", melds=melds, dice=(1, 6), rules=LAZI)
    assert (s.features, s.value) == (("huangfan",), 160)
    feeds = ((0, 3, 3, 3), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    assert pays("6667z", "7z", melds=melds, win="self_draw", huangfan=1, feeds=feeds, rules=LAZI) == [
        480,
        -160,
        -160,
        -160,
    ]
    assert pays(*HUN, melds=HUN_MELDS, winner=1, win="rob_kong", frm=0, rules=LAZI) == [-12, 12, 0, 0]


# --- home (§9) -----------------------------------------------------------------------------------


def test_home_plain_hand_wins_and_counts_ten_without_flowers():
    s, _ = scored("123m456p789s234s1z", "1z", flowers="3f", rules=HOME)
    assert (s.legal, s.pattern, s.features, s.value) == (True, "pinghu", ("menqing",), 3)  # 1 × 2 + 1
    s, _ = scored("123m456p789s234s1z", "1z", rules=HOME)
    assert s.value == 20  # 10 × 2 + 1 = 21, capped at 20


def test_home_dragons_are_flowers():
    s, _ = scored("123m456p789s234s1z", "1z", flowers="5z6z7z3f", rules=HOME)
    assert (s.hua, s.value) == (4, 9)
    with pytest.raises(ScoringError, match="dragons"):
        score_win(ctx("123m456p789s234s5z", "5z"), HOME)
    with pytest.raises(ScoringError, match="dragons"):
        score_win(ctx("123m456p789s234s1z", "1z", flowers="5z"), STD)


def test_home_m_counts_wind_pongs_and_kongs():
    # 花 1 + wind pong (exposed) 1 + wind kong 1 + 1 + suit kong 1 = 5; 碰碰胡 × 2 -> 11
    melds = ["pong 111z<1", "kong_exposed 2222z<2", "kong_exposed 9999p<3"]
    s, _ = scored("1115m", "5m", melds=melds, flowers="1f", rules=HOME)
    assert (s.pattern, s.value) == ("pengpeng", 11)  # the concealed 111m is a suit pong: no M


def test_home_qidui_and_colour_multipliers():
    s, _ = scored("1133557799m224p", "4p", flowers="2f", win="self_draw", rules=HOME)
    assert (s.pattern, s.value) == ("qidui", 9)
    s, _ = scored("1111335577999m", "9m", win="self_draw", flowers="1f", rules=HOME)
    assert s.pattern == "qidui"  # four of a kind counts as two pairs; 1 × 2 × 4 × 4 + 1 -> 20
    assert s.value == 20


def test_home_payments_have_no_chengbao():
    feeds = ((0, 0, 0, 0), (3, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    got = pays("123m456p789s234s1z", "1z", flowers="3f", winner=1, frm=2, feeds=feeds, rules=HOME)
    assert got == [0, 3, -3, 0]
    got = pays("123m456p789s234s1z", "1z", flowers="3f", winner=1, win="rob_kong", frm=2, rules=HOME)
    assert got == [0, 15, -15, 0]  # 1 × 门清 2 × 抢杠 2 + 1 = 5, the konger pays for all three (§9)


def test_home_legality_and_waits():
    assert is_legal_win(counts("123m456p789s234s11z"), [], HOME)
    assert is_legal_win(counts("1133557799m2244p"), [], HOME)
    assert not is_legal_win(counts("1133557799m2244p"), [], STD)
    assert winning_tiles(counts("1133557799m224p"), [], HOME) == parse_tiles("4p")
    assert winning_tiles(counts("123m456p789s234s1z"), [], HOME) == parse_tiles("1z")


# --- the fast legality check agrees with full scoring --------------------------------------------


@st.composite
def random_wins(draw):
    """A 14-tile hand of sets and a pair (some declared as melds), sometimes with one tile swapped."""
    suits = draw(st.sampled_from([(0,), (0, 3), (0, 1), (0, 1, 2, 3), (3,)]))
    used = [0] * 34
    sets = []
    for _ in range(4):
        suit = draw(st.sampled_from(suits))
        if suit == 3 or draw(st.booleans()):
            tile = 27 + draw(st.integers(0, 6)) if suit == 3 else suit * 9 + draw(st.integers(0, 8))
            sets.append(("pong", (tile,) * 3))
        else:
            start = suit * 9 + draw(st.integers(0, 6))
            sets.append(("chow", (start, start + 1, start + 2)))
    suit = draw(st.sampled_from(suits))
    pair = 27 + draw(st.integers(0, 6)) if suit == 3 else suit * 9 + draw(st.integers(0, 8))
    n_melds = draw(st.integers(0, 4))
    melds = tuple(Meld(kind, tiles, 1) for kind, tiles in sets[:n_melds])
    concealed = [t for _, tiles in sets[n_melds:] for t in tiles] + [pair, pair]
    if draw(st.booleans()):
        concealed[draw(st.integers(0, len(concealed) - 1))] = draw(st.integers(0, 33))
    for t in concealed + [t for m in melds for t in m.tiles]:
        used[t] += 1
    if max(used) > 4:
        reject()
    winning = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    win = draw(st.sampled_from(["discard", "self_draw", "rob_kong", "kong_replacement"]))
    return WinContext(
        winner=0,
        win=win,
        concealed=tuple(concealed),
        winning_tile=winning,
        melds=melds,
        from_seat=2 if win in ("discard", "rob_kong") else None,
        dice=(draw(st.integers(1, 6)), draw(st.integers(1, 6))),
        huangfan=draw(st.integers(0, 2)),
    )


@settings(max_examples=400, deadline=None)
@given(random_wins(), st.sampled_from([STD, LAZI, HOME]))
def test_is_legal_win_agrees_with_score_win(c, rules):
    if rules is HOME and any(is_dragon(t) for t in c.all_tiles()):
        return
    s = score_win(c, rules)
    assert s.legal == is_legal_win(c.concealed_counts(), c.melds, rules)
    assert (s.pattern is None) == (not s.legal)
    assert (s.value > 0) == s.legal
    assert sum(settle([(c, s)], rules)) == 0
    if s.legal and rules is STD:
        assert s.value <= 16 * rules.lezi  # 风碰 with 开宝 and 荒番 is the largest share


@settings(max_examples=300, deadline=None)
@given(random_wins(), st.sampled_from([STD, HOME]))
def test_winning_tiles_are_exactly_the_legal_completions(c, rules):
    if rules is HOME and any(is_dragon(t) for t in c.all_tiles()):
        return
    hand13 = to_counts(c.concealed)
    used = to_counts(list(c.concealed) + [t for m in c.melds for t in m.tiles])
    expected = []
    for tile in range(34):
        if used[tile] < 4:
            hand13[tile] += 1
            if is_legal_win(hand13, c.melds, rules):
                expected.append(tile)
            hand13[tile] -= 1
    assert winning_tiles(to_counts(c.concealed), c.melds, rules) == expected


# --- rules clarified in §5, §7, §9, §11 -------------------------------------------------------------


def test_home_loose_honours_beside_suit_melds_never_win_and_are_no_wait():
    melds = [Meld.parse("pong 444s<1"), Meld.parse("chow 123m<3")]
    assert not is_legal_win(counts("11223344z"), melds, HOME)
    assert winning_tiles(counts("1122334z"), melds, HOME) == []
    s, _ = scored("1122334z", "4z", melds=["pong 444s<1", "chow 123m<3"], flowers="1f", rules=HOME)
    assert (s.legal, s.pattern) == (False, None)
    # the same loose winds beside wind melds are an all-honours hand
    assert is_legal_win(counts("11223344z"), [Meld.parse("pong 111z<1"), Meld.parse("pong 222z<3")], HOME)


def test_home_loose_honours_beside_a_kong_refused_concealed_only_accepted():
    s, _ = scored("1111222334z", "4z", melds=["kong_exposed 7777p<0"], win="self_draw", rules=HOME)
    assert not s.legal
    # loose winds beside a wind meld: all fourteen are honours
    assert is_legal_win(counts("11112223333z"), [Meld.parse("pong 444z<1")], HOME)


def test_home_rob_kong_konger_pays_for_all_three():
    got = pays("12346789m11144z", "5m", flowers="2f", winner=1, win="rob_kong", frm=3, rules=HOME)
    assert got == [0, 51, 0, -51]  # (1 + 1 wind) × 门清 2 × 混一色 2 × 抢杠 2 + 1 = 17, three times


def test_home_eight_flowers_pays_the_cap_from_each():
    s, c = scored("147m258p369s1234z", None, win="eight_flowers", flowers="12345678f6z", winner=3, rules=HOME)
    assert (s.pattern, s.value) == ("bahua", 20)
    assert settle([(c, s)], HOME) == [-20, -20, -20, 60]


def test_home_tie_between_readings_names_the_lower_pattern():
    # 111222333m: three pongs or three chows. With no flowers both readings reach the cap of 20
    # (pongs 10 × 2 + 1, chows 10 + 1 ... × 门清 2): the tie names 碰碰胡, below the plain hand.
    s, _ = scored("111222333m555p1z", "1z", rules=HOME)
    assert s.value == 20
    assert s.pattern == "pengpeng"


def test_home_qidui_named_over_a_set_reading_on_a_tie():
    # 112233m445566p77s: seven pairs or four chows and a pair; both capped at 20 with no flowers.
    s, _ = scored("112233m445566p7s", "7s", win="self_draw", rules=HOME)
    assert s.value == 20 and s.pattern == "qidui"


def test_chengbao_rob_kong_twice_partner_doubles_the_konger_too():
    twice = ((0, 3, 0, 0), (3, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    kw = {"melds": HUN_MELDS, "winner": 1, "win": "rob_kong", "feeds": twice}
    assert pays(*HUN, frm=2, **kw) == [-18, 36, -18, 0]  # every payment of the settlement twice
    assert pays(*HUN, frm=0, **kw) == [-18, 18, 0, 0]  # the twice partner is the konger


def test_chengbao_discarder_who_is_a_partner_pays_the_largest_once():
    feeds = ((0, 0, 3, 0), (0, 0, 0, 0), (0, 0, 0, 0), (3, 0, 0, 0))
    kw = {"melds": ["pong 222m<2", "pong 555p<2", "pong 888s<2"], "flowers": "3f", "feeds": feeds}
    got = pays("11z99s", "1z", winner=0, frm=3, ready=(False, False, False, True), **kw)
    assert got == [12, 0, -4, -8]  # seat 3 owes 2 shares as a partner and 1 as a ready discarder


def test_qingyise_9_bao_discarder_pays_three_shares():
    bao = Rules(qingyise_9_bao=True)
    kw = {"melds": ["chow 123p<0", "pong 555p<2", "pong 999p<3"], "winner": 1, "frm": 2}
    assert pays("7788p", "7p", rules=bao, **kw) == [0, 30, -30, 0]
    assert pays("7788p", "7p", **kw) == [0, 10, -10, 0]  # option off
    # a concealed kong does not count as shown
    kw2 = kw | {"melds": ["chow 123p<0", "pong 555p<2", "kong_concealed 9999p"]}
    assert pays("7788p", "7p", rules=bao, **kw2) == [0, 10, -10, 0]
    # self-draw: everyone pays one share as usual
    kw3 = kw | {"win": "self_draw", "frm": None}
    assert pays("7788p", "7p", rules=bao, **kw3) == [-10, 30, -10, -10]
    # 承包 comes first when the winner has partners
    feeds = ((0, 0, 0, 0), (0, 0, 0, 3), (0, 0, 0, 0), (0, 0, 0, 0))
    assert pays("7788p", "7p", rules=bao, feeds=feeds, **kw) == [0, 20, -20, 0]


def test_each_preset_lists_its_own_features():
    from games.engine.scoring import home, lazi, standard
    from games.engine.scoring.features import features_of

    def names(features):
        return {f.name for f in features}

    base = {"menqing", "gangkai", "dadiaoche", "qianggang"}
    assert names(standard.FEATURES) == base | {"haidi", "kaibao", "huangfan"}
    assert names(lazi.FEATURES) == base | {"huangfan"}
    assert names(home.FEATURES) == base
    c = ctx("123456789m1z", "1z", melds=["pong 222z<2"], win="self_draw", dice=(3, 3), huangfan=0)
    assert features_of(c, STD, standard.FEATURES) == ("kaibao",)
    assert features_of(c, LAZI, lazi.FEATURES) == ("huangfan",)  # 3-3 is a double: the dice bonus
    assert features_of(c, HOME, home.FEATURES) == ()
    eight = ctx("159m159p159s1234z", None, win="eight_flowers", flowers="12345678f", dice=(3, 3))
    assert features_of(eight, STD, standard.FEATURES) == ("kaibao",)  # 门清 does not reach 八花齐
