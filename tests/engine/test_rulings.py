"""The rulings added to the rules text on 2026-12-03 (RULES.md §3, §5, §7, §10, §11), engine side:
one test per ruling, hands in tile notation. Scoring cases for them are in tests/engine/cases/."""

from __future__ import annotations

import pytest

from games.engine import Action, GameState, Rules
from games.engine.garden import Garden
from games.engine.melds import Meld
from games.engine.scoring import WinContext, explain, net, score_win, settle, transfers
from games.engine.tiles import parse_tiles

STD = Rules()
LAZI = Rules(preset="lazi")
HOME = Rules(preset="home")


def a(text: str) -> Action:
    return Action.parse(text)


def play(state: GameState, *moves: str) -> GameState:
    for move in moves:
        state.apply(a(move))
    return state


def t(text: str) -> int:
    return parse_tiles(text)[0]


def win(hand, tile, melds=(), winner=0, frm=None, win="discard", **kw) -> WinContext:
    return WinContext(
        winner=winner,
        win=win,
        concealed=tuple(parse_tiles(hand)),
        winning_tile=t(tile),
        melds=tuple(Meld.parse(m) for m in melds),
        from_seat=frm,
        **kw,
    )


def scored(rules, *contexts):
    return [(c, score_win(c, rules)) for c in contexts]


# 混一色 with one 花 (an east pong): V = 3 in `standard`. 清碰 on 8s: V = 20.
HUN = ("456789m111z5z", "5z", ["chow 123m<3"])
QINGPENG = ("2225558s", "8s", ["pong 111s<1", "pong 999s<2"])


# --- §7 Shortfall: each payer pays its own creditors from its 下家; money is never pooled -------


def test_the_rulings_example_a_short_payer_pays_its_own_creditors_only():
    """Stacks 5 / 1000 / 1000 / 1000; seat 0 owes seats 2 and 3 20 each, seat 1 owes seat 3 10."""
    made, garden = Garden((5, 1000, 1000, 1000)).pay([(0, 2, 20), (0, 3, 20), (1, 3, 10)])
    assert made == (-5, -10, 5, 10)
    assert garden.stacks == (0, 990, 1005, 1010)


def test_a_partners_money_reaches_its_own_winner_under_the_garden():
    """One discard of seat 0, two winners: seat 2 (清碰, 20) and seat 3 (混一色, 3) whose partner
    seat 1 pays a share beside the ready discarder (承包). Seat 0 has 5 left: it pays seat 2, the
    first of its creditors from its 下家; seat 1's 3 goes to seat 3, never to seat 2."""
    feeds = ((0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 3, 0, 0))
    ready = (True, False, False, False)
    qingpeng = win(*QINGPENG, winner=2, frm=0, feeds=feeds, ready=ready)
    hun = win(*HUN, winner=3, frm=0, feeds=feeds, ready=ready)
    wins = scored(STD, qingpeng, hun)
    moves = transfers(wins, STD)
    assert moves == [(0, 2, 20), (0, 3, 3), (1, 3, 3)]
    assert settle(wins, STD) == [-23, -3, 20, 6]
    made, _ = Garden((5, 1000, 1000, 1000)).pay(moves)
    assert made == (-5, -3, 5, 3)


def test_the_loss_cap_comes_first_then_the_stack_in_the_same_order():
    """Seat 1 owes seat 2 (nearest from its 下家) and seat 0 far beyond the 50-point cap."""
    big = ("6667z", "7z", ["pong 111z<1", "pong 222z<2", "pong 555z<3"])  # 风碰: 40 a share
    wins = scored(STD, win(*big, winner=2, frm=1), win(*big, winner=0, frm=1))
    assert transfers(wins, STD) == [(1, 2, 40), (1, 0, 10)]
    made, _ = Garden((1000, 45, 1000, 1000)).pay(transfers(wins, STD))
    assert made == (5, -45, 40, 0)


def test_a_gengfeng_comes_first_in_the_transfers():
    """`home` 跟风 (the dealer's 1z, then three more) is settled when it happens: before any win, so
    a stack it fills can pay later in the hand."""
    hands = ["1z123456789m1122p", "1z123456789s112p", "1z2468m2468p3579p", "1z147m358p369s147s"]
    state = GameState.from_setup(hands=hands, wall="9p9p9s9s1s1s", rules=HOME)
    for seat in range(4):
        state.apply(a(f"{seat}:discard:1z"))
    while state.phase != "ended":
        state.apply(state.timeout_action(state.pending_seats()[0]))
    assert state.result.transfers[:3] == ((0, 1, 1), (0, 2, 1), (0, 3, 1))
    assert list(state.result.payments) == net(state.result.transfers)


# --- §11: `payment` and 清一色九张包 are `standard` only; 出冲 with several winners ------------


NINE_DOWN = ("78p11z", "9p", ["chow 123p<1", "chow 456p<1", "pong 999p<2"])  # 混一色, three p melds
WINDS_HUN = ("456789m111z2z", "2z", ["chow 123m<3"])  # 混一色 with winds only (dragons are `home` flowers)


@pytest.mark.parametrize("rules", [LAZI, HOME])
@pytest.mark.parametrize(
    "options", [{"payment": "chu_chong"}, {"payment": "bao_chong"}, {"qingyise_9_bao": True}]
)
def test_outside_standard_the_discarder_alone_pays_whatever_the_options(rules, options):
    ruled = Rules.of_preset(rules.preset, options)
    for hand in (WINDS_HUN, NINE_DOWN):
        c = win(*hand, winner=1, frm=3)
        plain = settle(scored(rules, c), rules)
        assert settle(scored(ruled, c), ruled) == plain
        assert plain[0] == plain[2] == 0 and plain[3] < 0 < plain[1]
        (item,) = explain(scored(ruled, c), ruled)
        assert item.reason == "discard" and item.shares == (0, 0, 0, 1)


def test_in_standard_the_options_still_apply():
    c = win(*NINE_DOWN, winner=1, frm=3)
    (item,) = explain(scored(Rules(qingyise_9_bao=True), c), Rules(qingyise_9_bao=True))
    assert (item.reason, item.shares) == ("qingyise_9_bao", (0, 0, 0, 3))


def test_chu_chong_with_two_winners_winners_pay_each_other_nothing():
    """Seat 0 deals in to seats 1 (3 a share) and 3 (20 a share): seat 0 pays each 2 shares, seat 2
    (the one non-winner) 1 share each, and seats 1 and 3 nothing to each other."""
    rules = Rules(payment="chu_chong")
    wins = scored(rules, win(*HUN, winner=1, frm=0), win(*QINGPENG, winner=3, frm=0))
    assert [(s.winner, s.shares) for s in explain(wins, rules)] == [(1, (2, 0, 1, 0)), (3, (2, 0, 1, 0))]
    assert settle(wins, rules) == [-46, 9, -23, 60]


# --- §7 承包: two robbers of one kong who are each other's partners ------------------------------


def test_robbers_who_are_partners_are_each_paid_three_shares_by_the_konger_alone():
    feeds = ((0, 0, 0, 0), (0, 0, 0, 3), (0, 0, 0, 0), (0, 0, 0, 0))  # seat 1 claimed 3 of seat 3's
    one = win(*HUN, winner=1, frm=0, win="rob_kong", feeds=feeds)
    three = win(
        "789p5z",
        "5z",
        ["chow 123p<2", "chow 456p<2", "pong 777z<2"],
        winner=3,
        frm=0,
        win="rob_kong",
        feeds=feeds,
    )
    wins = scored(STD, one, three)
    values = [s.value for _, s in wins]
    assert [(s.winner, s.reason, s.shares) for s in explain(wins, STD)] == [
        (1, "chengbao", (3, 0, 0, 0)),
        (3, "chengbao", (3, 0, 0, 0)),
    ]
    assert settle(wins, STD) == [-3 * sum(values), 3 * values[0], 0, 3 * values[1]]


# --- §3: the next dealer after two players rob one kong -------------------------------------------

# Seat 2 pongs the dealer's 5m and later draws the fourth; seats 1 and 3 both wait on 5m.
ROB_TWO = dict(
    hands=["1m5m9m258s7s369p777z4z", "46m111z222z333z44z", "55m147p258p369s14s", "123m46m789m666z55z"],
    wall="1p8p2p5m3s3s",
)


def _two_robbers() -> GameState:
    state = GameState.from_setup(**ROB_TWO)
    state.apply(a("0:discard:5m"))
    for seat in (1, 3):
        assert f"{seat}:win:5m" in [str(x) for x in state.legal_actions(seat)]
        state.apply(a(f"{seat}:pass"))
    state.apply(a("2:pong:5m"))
    return state


def test_two_robbers_of_one_kong_the_nearest_after_the_konger_deals_next():
    state = _two_robbers()
    play(state, "2:discard:1s", "3:discard:1p", "0:discard:8p", "1:discard:2p")
    assert state.drawn_tile == t("5m")
    state.apply(a("2:added_kong:5m"))
    assert state.phase == "rob" and sorted(state.pending_seats()) == [1, 3]
    play(state, "1:win:5m", "3:win:5m")
    result = state.result
    assert [(w.seat, w.win, w.from_seat) for w in result.winners] == [(3, "rob_kong", 2), (1, "rob_kong", 2)]
    assert result.dealer_next == 3  # from the konger (seat 2): seat 3 before seat 1; not the dealer's order


# --- §10: the timeout discard ---------------------------------------------------------------------


def test_a_timeout_discards_the_drawn_tile_else_the_last_of_the_sorted_hand():
    state = _two_robbers()  # seat 2 has ponged: no drawn tile
    assert state.timeout_action(2) == a("2:discard:9s")  # 147p258p369s14s: 万, 筒, 条, then honours
    state.apply(a("2:discard:1s"))
    assert state.drawn_tile == t("1p") and state.timeout_action(3) == a("3:discard:1p")
    play(state, "3:discard:1p", "0:discard:8p", "1:discard:2p", "2:added_kong:5m", "1:pass", "3:pass")
    assert state.drawn_tile == t("3s")  # the kong's replacement, from the tail
    assert state.timeout_action(2) == a("2:discard:3s")


# --- §5: the 地胡 window (`lazi`) ----------------------------------------------------------------

# Seat 1 waits on 3z / 4z. Seat 1 has made its own first discard (1m) before seat 3's 3z, the
# hand's fourth discard; the dealer's 4z would be the fifth.
FOURTH = dict(
    hands=["159m159p159s124z57z", "123456789s33z44z", "2468m2468p3579p6z", "4567p3456s3456s3z"],
    wall="1m9m8s2m9s9s",
    rules=LAZI,
)


def _three_discards() -> GameState:
    state = GameState.from_setup(**FOURTH)
    play(state, "0:discard:5z", "1:discard:1m", "2:discard:9m")
    return state


def test_dihu_on_the_fourth_discard_after_the_winners_own_first_discard():
    state = _three_discards()
    play(state, "3:discard:3z", "1:win:3z")
    (winner,) = state.result.winners
    assert (winner.seat, winner.pattern, winner.value) == (1, "dihu", 160)


def test_no_dihu_on_the_fifth_discard():
    state = _three_discards()
    play(state, "3:discard:8s", "0:discard:4z", "1:win:4z")
    (winner,) = state.result.winners
    assert winner.pattern == "hunyise"


def test_a_dealers_win_on_the_second_discard_is_neither_tianhu_nor_dihu():
    hands = ["123456789m11z22z7z", "2468p2468s3579s7z", "13579p13579s44z5z", "468m468m66z33z9p1p8p"]
    state = GameState.from_setup(hands=hands, wall="2z9s", rules=LAZI)
    play(state, "0:discard:7z", "1:discard:2z", "0:win:2z")
    (winner,) = state.result.winners
    assert (winner.seat, winner.pattern) == (0, "hunyise")


# --- §11 敲: no kong once declared; a winning draw let go is 漏胡 ---------------------------------

# `home` (no minimum hand): the dealer declares with 2z, waiting on 9p / 1z, holding 111m and 222p;
# it draws the fourth 2p, then a winning 9p that it lets go (a timeout discards the drawn tile).
DECLARED = dict(
    hands=["111m222p567m99p11z2z", "1m9p3456789s3344z", "1z2468m2468s1346p", "23579m1357p12s88p"],
    wall="8m9s8s2p1p9m5s9p2s3m4s4s",
    rules=Rules(preset="home", declare_ready=True),
)


def test_a_declared_seat_may_not_pong_or_kong_a_discard_nor_kong_its_draw():
    state = GameState.from_setup(**DECLARED)
    state.apply(a("0:declare:2z"))
    state.apply(a("1:discard:1m"))  # the dealer holds 111m: no pong, no exposed kong
    assert state.phase == "turn" and state.current_seat == 2
    play(state, "2:discard:9s", "3:discard:8s")
    assert state.drawn_tile == t("2p")  # the fourth 2p: no concealed kong
    assert state.legal_actions(0) == [a("0:discard:2p")]


def test_a_declared_seat_that_lets_its_winning_draw_go_is_in_louhu_for_that_tile():
    state = GameState.from_setup(**DECLARED)
    for text in ("0:declare:2z", "1:discard:1m", "2:discard:9s", "3:discard:8s", "0:discard:2p"):
        state.apply(a(text))
    for text in ("1:discard:1p", "2:discard:9m", "3:discard:5s"):
        state.apply(a(text))
    assert state.drawn_tile == t("9p") and a("0:self_win") in state.legal_actions(0)
    state.apply(state.timeout_action(0))  # the drawn 9p goes
    state.apply(a("1:discard:9p"))  # the fourth 9p: the dealer may not win on it
    assert state.missed[0] == {t("9p")} and state.current_seat == 2
    state.apply(a("2:discard:1z"))  # its other wait is unaffected
    assert state.legal_actions(0) == [a("0:win:1z"), a("0:pass")]
