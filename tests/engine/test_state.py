"""The turn machine, rule line by rule line (games/engine/RULES.md §2–§4), on hands set up by hand."""

import json

import pytest

from games.engine import Action, GameState, Meld, RuleError, Rules
from games.engine.tiles import parse_tiles


def t(text: str) -> int:
    (code,) = parse_tiles(text)
    return code


def a(text: str) -> Action:
    return Action.parse(text)


def snapshot(state: GameState) -> str:
    return json.dumps([state.to_json(), state.view(None)] + [state.view(s) for s in range(4)], sort_keys=True)


def kinds(state: GameState, seat: int) -> list[str]:
    return [str(x) for x in state.legal_actions(seat)]


# Seat 1 can chow 5m (46m); seat 2 can pong it; seat 3 waits on any bamboo (九莲宝灯, 清一色).
CLAIMS = dict(
    hands=["159m159p159s1234z5z", "46m2468p2468s123z", "55m2357p2357s367z", "1112345678999s"],
    wall="3m7m8p6z",
)


def test_dealer_first_turn_has_no_draw_and_offers_only_the_dealers_moves():
    state = GameState.from_setup(**CLAIMS)
    assert state.phase == "turn" and state.current_seat == 0 and state.drawn_tile is None
    assert state.pending_seats() == [0]
    assert {x.kind for x in state.legal_actions(0)} == {"discard"}
    assert len(state.legal_actions(0)) == 14
    assert state.legal_actions(1) == [] and state.legal_actions(3) == []


def test_unclaimed_discard_passes_the_turn_to_the_next_seat_who_draws_from_the_head():
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:1p"))
    assert state.phase == "turn" and state.current_seat == 1
    assert state.drawn_tile == t("3m") and state.wall_remaining == 3
    assert [r.tile for r in state.rivers[0]] == [t("1p")]
    assert state.last_discard == t("1p")


def test_claim_window_offers_each_seat_exactly_its_actions():
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:5m"))
    assert state.phase == "claims"
    assert state.pending_seats() == [1, 2]
    assert kinds(state, 1) == ["1:chow:4m", "1:pass"]
    assert kinds(state, 2) == ["2:pong:5m", "2:pass"]
    assert state.legal_actions(3) == [] and state.legal_actions(0) == []


def test_chow_is_only_for_the_next_seat_and_lists_every_fitting_sequence():
    state = GameState.from_setup(
        hands=["5m159p159s1234z5z67m", "34679m2468p1234z", "46m2357p2357s367z", "1112345678999s"],
        wall="3p",
    )
    state.apply(a("0:discard:5m"))
    assert kinds(state, 1) == ["1:chow:3m", "1:chow:4m", "1:chow:5m", "1:pass"]
    assert state.legal_actions(2) == []  # 46m, but seat 2 is not seat 0's 下家


def test_pong_beats_chow_and_the_ponger_discards_without_drawing():
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:5m"))
    state.apply(a("1:chow:4m"))
    assert state.phase == "claims" and state.pending_seats() == [2]
    state.apply(a("2:pong:5m"))
    assert state.phase == "turn" and state.current_seat == 2 and state.drawn_tile is None
    assert state.melds[2] == [Meld("pong", (t("5m"),) * 3, 0, t("5m"))]
    assert state.melds[1] == []
    assert state.rivers[0][-1].claimed
    assert state.feeds[2][0] == 1 and sum(map(sum, state.feeds)) == 1
    assert {x.kind for x in state.legal_actions(2)} == {"discard"}
    assert state.wall_remaining == 4


def test_chow_when_nobody_else_claims():
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:5m"))
    state.apply(a("2:pass"))
    state.apply(a("1:chow:4m"))
    assert state.melds[1] == [Meld("chow", (t("4m"), t("5m"), t("6m")), 0, t("5m"))]
    assert state.current_seat == 1 and state.hands[1].count(t("4m")) == 0


def test_win_on_a_discard_beats_pong_and_ends_the_hand():
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:5s"))
    assert kinds(state, 3) == ["3:win:5s", "3:pass"]
    assert kinds(state, 1) == ["1:chow:4s", "1:pass"]
    state.apply(a("3:win:5s"))
    state.apply(a("1:chow:4s"))
    assert state.phase == "ended"
    result = state.result
    assert result.kind == "win" and [w.seat for w in result.winners] == [3]
    assert result.winners[0].win == "discard" and result.winners[0].from_seat == 0
    assert result.winners[0].pattern == "qingyise"
    assert sum(result.payments) == 0 and result.payments[3] > 0 and result.payments[0] < 0
    assert result.payments[1] == result.payments[2] == 0
    assert result.dealer_next == 3 and result.huangfan_next == 0


# Seats 1 and 3 both win on 4s; seat 1 could also chow it.
TWO = dict(
    hands=["4s159m159p1z5z6z7z258m", "23s111z222z333z44z", "2468m2468p3579p7z", "1112345678999s"],
    wall="3m3m",
)


def test_one_discard_two_winners_both_win_and_the_nearest_deals_next():
    state = GameState.from_setup(**TWO, huangfan=2)
    state.apply(a("0:discard:4s"))
    assert kinds(state, 1) == ["1:win:4s", "1:chow:2s", "1:pass"]
    state.apply(a("3:win:4s"))
    state.apply(a("1:win:4s"))
    result = state.result
    assert sorted(w.seat for w in result.winners) == [1, 3]
    assert {w.pattern for w in result.winners} == {"hunyise", "qingyise"}
    assert result.payments[2] == 0 and result.payments[0] < 0 and sum(result.payments) == 0
    assert result.dealer_next == 1
    assert result.huangfan_next == 1


def test_priority_waits_for_every_answer_and_a_lone_winner_takes_it():
    state = GameState.from_setup(**TWO)
    state.apply(a("0:discard:4s"))
    state.apply(a("3:win:4s"))
    assert state.phase == "claims" and state.pending_seats() == [1]
    state.apply(a("1:chow:2s"))
    assert state.phase == "ended" and [w.seat for w in state.result.winners] == [3]
    assert state.melds[1] == []


# Seat 3 waits on 1z / 2z (shanpon, 混一色) and holds 11z: it may pong 1z too.
MISSED = dict(
    hands=["1z159m159p159s34z5z6z", "1z2468m2468p3579p", "4567m4567p34567s", "123456789s11z22z"],
    wall="6z7z2z8m",
)


def test_missed_win_blocks_that_tile_until_the_seat_moves_its_hand():
    state = GameState.from_setup(**MISSED)
    state.apply(a("0:discard:1z"))
    assert kinds(state, 3) == ["3:win:1z", "3:pong:1z", "3:pass"]
    state.apply(a("3:pass"))
    assert state.missed[3] == {t("1z")}
    assert state.current_seat == 1 and state.drawn_tile == t("6z")
    state.apply(a("1:discard:1z"))
    assert kinds(state, 3) == ["3:pong:1z", "3:pass"]
    before = snapshot(state)
    with pytest.raises(RuleError) as err:
        state.apply(a("3:win:1z"))
    assert err.value.code == "missed_win"
    assert snapshot(state) == before
    state.apply(a("3:pass"))
    state.apply(a("2:discard:4m"))  # seat 2 drew 7z; seat 3 draws 2z, its other wait
    assert state.current_seat == 3 and state.drawn_tile == t("2z")
    assert state.missed[3] == set()
    assert "3:self_win" in kinds(state, 3)


def test_missed_win_leaves_other_waits_open():
    state = GameState.from_setup(
        hands=["1z159m159p159s34z5z6z", "2z2468m2468p3579p", "4567m4567p34567s", "123456789s11z22z"],
        wall="7z8m",
    )
    state.apply(a("0:discard:1z"))
    state.apply(a("3:pass"))
    state.apply(a("1:discard:2z"))
    assert kinds(state, 3) == ["3:win:2z", "3:pong:2z", "3:pass"]
    state.apply(a("3:win:2z"))
    assert state.result.winners[0].seat == 3 and state.result.winners[0].from_seat == 1


def test_self_draw_of_a_missed_tile_is_never_blocked():
    # seat 3 waits on 2s only (13s: 坎张); it passes 2s, then draws the next 2s
    state = GameState.from_setup(
        hands=["2s159m159p19s1234z5z", "2468m2468p3579p6z", "4567m45678p3456m", "13s456789s111z22z"],
        wall="7z7z2s",
    )
    state.apply(a("0:discard:2s"))
    assert kinds(state, 3) == ["3:win:2s", "3:pass"]
    state.apply(a("3:pass"))
    state.apply(a("1:discard:7z"))
    state.apply(a("2:discard:7z"))
    assert state.drawn_tile == t("2s") and "3:self_win" in kinds(state, 3)
    state.apply(a("3:self_win"))
    assert state.result.winners[0].win == "self_draw"


# Seat 1 pongs 5m, later draws the fourth 5m and adds it; seat 3 waits on 2m / 5m (混一色).
ROB_HANDS = ["5m9m159p159s1234z5z7z", "55m2468p2468s6z7z9m", "1m4467m4567p3456s", "34m111z222z333z44z"]
ROB_WALL = "8p8s9s5m7p"


def _to_added_kong():
    state = GameState.from_setup(hands=ROB_HANDS, wall=ROB_WALL)
    state.apply(a("0:discard:5m"))
    assert kinds(state, 3) == ["3:win:5m", "3:pass"]
    state.apply(a("3:pass"))
    state.apply(a("1:pong:5m"))
    state.apply(a("1:discard:9m"))
    state.apply(a("2:discard:8p"))  # drew 8p
    state.apply(a("3:discard:8s"))  # drew 8s: its draw also lifted its 漏胡 on 5m
    state.apply(a("0:discard:9s"))  # drew 9s
    assert state.current_seat == 1 and state.drawn_tile == t("5m")
    assert "1:added_kong:5m" in kinds(state, 1)
    state.apply(a("1:added_kong:5m"))
    return state


def test_an_added_kong_can_be_robbed_and_the_pong_stays_a_pong():
    state = _to_added_kong()
    assert state.phase == "rob" and state.pending_seats() == [3]
    assert kinds(state, 3) == ["3:win:5m", "3:pass"]
    assert sum(state.census()) == 14 + 3 * 13 + 5  # the tile being robbed is still counted
    remaining = state.wall_remaining
    state.apply(a("3:win:5m"))
    assert state.phase == "ended"
    winner = state.result.winners[0]
    assert (winner.seat, winner.win, winner.from_seat) == (3, "rob_kong", 1)
    assert state.melds[1][0].kind == "pong"
    assert state.wall_remaining == remaining
    assert state.result.payments[1] < 0 and state.result.payments[3] > 0 and sum(state.result.payments) == 0


def test_an_added_kong_not_robbed_becomes_a_kong_and_draws_from_the_tail():
    state = _to_added_kong()
    state.apply(a("3:pass"))
    assert state.melds[1][0].kind == "kong_added"
    assert state.current_seat == 1 and state.drawn_tile == t("7p") and state.wall_remaining == 0
    assert state.missed[3] == {t("5m")}


def test_concealed_kong_draws_from_the_tail_and_a_win_on_it_is_gangkai():
    state = GameState.from_setup(
        hands=["1111m234m567m11z22z", "2468m2468p3579p6z", "4567m4567p34567s", "123456789s33z44z"],
        wall="9p9p2z",
    )
    assert "0:concealed_kong:1m" in kinds(state, 0)
    state.apply(a("0:concealed_kong:1m"))
    assert state.melds[0] == [Meld("kong_concealed", (t("1m"),) * 4)]
    assert state.drawn_tile == t("2z") and state.wall_remaining == 2
    state.apply(a("0:self_win"))
    winner = state.result.winners[0]
    assert winner.win == "kong_replacement" and winner.pattern == "hunyise"
    assert "gangkai" in winner.features
    assert state.result.payments[0] > 0 and all(state.result.payments[s] < 0 for s in (1, 2, 3))


def test_exposed_kong_from_a_discard_draws_from_the_tail():
    state = GameState.from_setup(
        hands=["5p159m159s1234z5z67z", "2468m2468p3479p6z", "555p1m4567m3456s7s", "123456789s33z44z"],
        wall="9m8m",
    )
    state.apply(a("0:discard:5p"))
    assert kinds(state, 2) == ["2:pong:5p", "2:exposed_kong:5p", "2:pass"]
    state.apply(a("2:exposed_kong:5p"))
    state.apply(a("1:chow:3p"))  # kong beats chow
    assert state.melds[2] == [Meld("kong_exposed", (t("5p"),) * 4, 0, t("5p"))]
    assert state.current_seat == 2 and state.drawn_tile == t("8m") and state.wall_remaining == 1
    assert state.feeds[2][0] == 1


def test_flowers_at_the_deal_are_replaced_from_the_tail_dealer_first_until_none_remain():
    state = GameState.from_setup(
        hands=["1f159m159p159s1234z", "2f2468m2468p3579p", "4567m4567p34567s", "123456789s11z22z"],
        wall="9m8m7m3f6m",
    )
    assert state.flowers[0] == [t("1f")]
    assert state.flowers[1] == [t("2f"), t("3f")]
    assert t("6m") in state.hands[0]  # the dealer went first and took the last tile
    assert t("7m") in state.hands[1]  # seat 1 took 3f, set it aside, then took 7m
    assert state.wall_remaining == 2
    assert all(sum(state.counts[s]) == (14 if s == 0 else 13) for s in range(4))


def test_a_flower_drawn_in_play_is_replaced_and_a_win_on_the_replacement_is_gangkai():
    state = GameState.from_setup(
        hands=["159m159p159s1234z5z", "234m567m88m111z22z", "4567m4567p34567s", "123456789s3z444z"],
        wall="1f9p9p2z",
    )
    state.apply(a("0:discard:9s"))
    assert state.flowers[1] == [t("1f")] and state.drawn_tile == t("2z")
    state.apply(a("1:self_win"))
    winner = state.result.winners[0]
    assert winner.win == "flower_replacement" and "gangkai" in winner.features
    assert t("1f") in [f for f in state.flowers[1]]


def test_eight_flowers_win_at_once_when_the_eighth_is_drawn():
    state = GameState.from_setup(
        hands=["159m159p159s1234z5z", "1234567f234m567m", "4567m4567p34567s", "123456789s33z44z"],
        wall="8f1p1p2p2p3p3p7p",
    )
    assert state.phase == "turn"
    events = state.apply(a("0:discard:9s"))
    assert state.phase == "ended"
    winner = state.result.winners[0]
    assert (winner.seat, winner.win, winner.pattern) == (1, "eight_flowers", "bahua")
    assert any(e.kind == "win" for e in events)
    assert state.result.payments[1] > 0 and sum(state.result.payments) == 0


def test_a_wall_that_runs_out_during_the_deal_is_a_draw_with_every_tile_kept():
    state = GameState.from_setup(
        hands=["1f2f159m159p159s234z", "2468m2468p3579p6z", "4567m4567p34567s", "123456789s11z22z"],
        wall="9m",
    )
    assert state.phase == "ended" and state.result.kind == "draw"
    assert state.flowers[0] == [t("1f"), t("2f")] and t("9m") in state.hands[0]
    assert sum(state.census()) == 14 + 3 * 13 + 1


def test_eight_flowers_at_the_deal_win_before_anyone_moves():
    state = GameState.from_setup(
        hands=["159m159p159s1234z5z", "1234567f234m567m", "4567m4567p34567s", "123456789s33z44z"],
        wall="1p1p2p2p3p3p7p8f",
    )
    assert state.phase == "ended"
    assert state.result.winners[0].seat == 1 and state.result.winners[0].win == "eight_flowers"


def test_exhaustive_draw_when_a_draw_is_needed_and_the_wall_is_empty():
    state = GameState.from_setup(**dict(CLAIMS, wall=""), dealer=0, huangfan=1)
    state.apply(a("0:discard:1p"))
    assert state.phase == "ended"
    result = state.result
    assert result.kind == "draw" and result.winners == ()
    assert result.payments == (0, 0, 0, 0)
    assert result.dealer_next == 0 and result.huangfan_next == 2


def test_self_win_on_a_drawn_tile_and_last_tile():
    state = GameState.from_setup(
        hands=["159m159p159s1234z5z", "234m567m88m111z22z", "4567m4567p34567s", "123456789s3z444z"],
        wall="2z",
    )
    assert "1:self_win" not in kinds(state, 1)
    state.apply(a("0:discard:9s"))
    assert "1:self_win" in kinds(state, 1)
    state.apply(a("1:self_win"))
    winner = state.result.winners[0]
    assert winner.win == "self_draw" and winner.pattern == "hunyise"
    assert state.result.dealer_next == 1


def test_all_honours_win_on_an_honour_not_held():
    # 乱风向: fourteen honours in any arrangement; seat 1 holds no 7z and wins on it
    state = GameState.from_setup(
        hands=["7z159m159p159s2345m", "1112223334456z", "4567m4567p34567s", "123456789s7z66z5z"],
        wall="6z",
    )
    state.apply(a("0:discard:7z"))
    assert kinds(state, 1) == ["1:win:7z", "1:pass"]
    state.apply(a("1:win:7z"))
    assert state.result.winners[0].pattern == "fengyise"


def test_a_plain_hand_is_not_a_win():
    # seat 1 completes 123m456p789s234m11z on 1z, but 平胡 never wins in Shanghai
    state = GameState.from_setup(
        hands=["1z159m159p159s234z5z", "123m456p789s234m1z", "4567m4567p34567s", "123456789s33z44z"],
        wall="6z",
    )
    state.apply(a("0:discard:1z"))
    assert state.phase == "turn"
    assert state.current_seat == 1


# ------------------------------------------------------------------ refusals leave the state unchanged


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("1:discard:4m", "not_your_turn"),
        ("0:discard:8m", "tile_not_in_hand"),
        ("0:self_win", "not_a_win"),
        ("0:added_kong:1m", "illegal_action"),
        ("0:added_kong:8m", "tile_not_in_hand"),
        ("0:concealed_kong:1m", "illegal_action"),
        ("2:pong:5m", "claim_window_closed"),
        ("0:pass", "illegal_action"),
    ],
)
def test_refusals_in_a_turn(action, code):
    state = GameState.from_setup(**CLAIMS)
    before = snapshot(state)
    with pytest.raises(RuleError) as err:
        state.apply(a(action))
    assert err.value.code == code
    assert snapshot(state) == before


@pytest.mark.parametrize(
    ("setup", "action", "code"),
    [
        ([], "3:pong:5m", "claim_window_closed"),  # seat 3 has no claim
        ([], "0:discard:1m", "not_your_turn"),  # the discarder waits
        ([], "1:pong:5m", "illegal_action"),  # seat 1 only holds one 5m
        ([], "2:pong:6m", "claim_window_closed"),  # stale: an earlier tile
        ([], "1:chow:7m", "claim_window_closed"),  # a sequence without 5m: stale
        ([], "1:chow:5m", "illegal_action"),  # 567m holds 5m but seat 1 has no 7m
        ([], "2:win:5m", "not_a_win"),
        (["2:pass"], "2:pong:5m", "already_answered"),
        (["2:pass"], "2:pass", "already_answered"),
    ],
)
def test_refusals_in_a_claim_window(setup, action, code):
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:5m"))
    for step in setup:
        state.apply(a(step))
    before = snapshot(state)
    with pytest.raises(RuleError) as err:
        state.apply(a(action))
    assert err.value.code == code
    assert snapshot(state) == before


def test_actions_after_the_end_are_refused():
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:5s"))
    state.apply(a("3:win:5s"))
    state.apply(a("1:pass"))
    before = snapshot(state)
    for action in ("1:discard:4m", "3:pass", "0:self_win"):
        with pytest.raises(RuleError) as err:
            state.apply(a(action))
        assert err.value.code == "hand_over"
    assert snapshot(state) == before


@pytest.mark.parametrize(
    "text", ["", "x", "5:discard:1m", "1:fly:1m", "1:discard", "1:pass:1m", "1:discard:0m"]
)
def test_malformed_actions_are_bad_action(text):
    with pytest.raises(RuleError) as err:
        Action.parse(text)
    assert err.value.code == "bad_action"


def test_apply_refuses_non_actions():
    state = GameState.from_setup(**CLAIMS)
    before = snapshot(state)
    for junk in ("0:discard:1m", None, Action("discard", 9, 1)):
        with pytest.raises(RuleError) as err:
            state.apply(junk)
        assert err.value.code == "bad_action"
    assert snapshot(state) == before


def test_action_text_round_trip():
    for text in ("2:chow:3m", "0:self_win", "1:pass", "3:win:7z", "0:added_kong:5p"):
        action = Action.parse(text)
        assert str(action) == text and Action.from_json(action.to_json()) == action


def test_timeout_discards_the_drawn_tile_else_the_last_and_passes_claims():
    state = GameState.from_setup(**CLAIMS)
    assert state.timeout_action(0) == a("0:discard:5z")
    state.apply(a("0:discard:5m"))
    assert state.timeout_action(2) == a("2:pass")
    state.apply(a("1:pass"))
    state.apply(a("2:pass"))
    assert state.timeout_action(1) == Action("discard", 1, state.drawn_tile)


# ------------------------------------------------------------------ views


def test_view_shows_own_tiles_and_public_information_only():
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:5m"))
    state.apply(a("1:pass"))
    state.apply(a("2:pong:5m"))
    view = state.view(1)
    assert view["hand"] == ["4m", "6m", "2p", "4p", "6p", "8p", "2s", "4s", "6s", "8s", "1z", "2z", "3z"]
    assert view["legal_actions"] == []
    for seat_info in view["seats"]:
        assert "hand" not in seat_info
    assert view["seats"][2]["melds"] == [{"kind": "pong", "tiles": "555m", "from": 0, "claimed": "5m"}]
    assert view["seats"][2]["concealed_count"] == 11
    assert view["seats"][0]["river"] == [{"tile": "5m", "claimed": True}]
    assert [s["wind"] for s in view["seats"]] == ["1z", "2z", "3z", "4z"]
    spectator = state.view(None)
    assert "hand" not in spectator and "legal_actions" not in spectator
    json.dumps(view)


def test_view_does_not_tell_who_may_claim():
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:5m"))
    assert state.view(1)["pending"] == [1] and state.view(2)["pending"] == [2]
    assert state.view(3)["pending"] == [] and state.view(None)["pending"] == []
    assert state.view(0)["phase"] == "claims"


def test_home_preset_sets_dragons_aside_like_flowers():
    state = GameState.from_setup(
        hands=["5z159m159p159s234z9m", "6z2468m2468p3579p", "4567m4567p34567s", "123456789s11z22z"],
        wall="7z8m3m4m",
        rules=Rules(preset="home"),
    )
    assert state.flowers[0] == [t("5z")] and state.flowers[1] == [t("6z")]
    assert t("4m") in state.hands[0] and t("3m") in state.hands[1]
    state.apply(a("0:discard:9m"))
    assert state.flowers[1] == [t("6z"), t("7z")] and state.drawn_tile == t("8m")
    assert state.census()[t("5z")] == 1


def test_view_keeps_the_drawn_tile_apart_and_gives_waits():
    state = GameState.from_setup(
        hands=["159m159p159s1234z5z", "234m567m88m111z22z", "4567m4567p34567s", "123456789s3z444z"],
        wall="9p",
    )
    assert state.view(1)["waits"] == ["8m", "2z"]
    state.apply(a("0:discard:9s"))
    view = state.view(1)
    assert view["drawn"] == "9p" and "9p" not in view["hand"]
    assert view["waits"] == []  # 14 tiles: no wait until it discards


def test_view_after_the_end_reveals_every_hand_and_the_wall():
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:5s"))
    state.apply(a("3:win:5s"))
    state.apply(a("1:pass"))
    view = state.view(0)
    assert view["seats"][3]["hand"] == [
        "1s",
        "1s",
        "1s",
        "2s",
        "3s",
        "4s",
        "5s",
        "6s",
        "7s",
        "8s",
        "9s",
        "9s",
        "9s",
    ]
    assert view["result"]["kind"] == "win"
    assert view["reveal"]["wall"] == "37m8p6z"


def test_json_round_trip_and_replay_are_exact():
    state = GameState.from_setup(**CLAIMS)
    state.apply(a("0:discard:5m"))
    state.apply(a("1:chow:4m"))
    state.apply(a("2:pong:5m"))
    data = json.loads(json.dumps(state.to_json()))
    again = GameState.from_json(data)
    assert snapshot(again) == snapshot(state)
    assert again.to_json() == state.to_json()


def test_from_json_refuses_junk():
    for junk in (None, {}, {"rules": {}, "dealer": 0}, "x"):
        with pytest.raises(RuleError) as err:
            GameState.from_json(junk)
        assert err.value.code == "bad_action"


def test_from_setup_refuses_impossible_hands():
    with pytest.raises(RuleError):
        GameState.from_setup(hands=["11111m", "", "", ""], wall="")
    with pytest.raises(RuleError):
        GameState.from_setup(hands=CLAIMS["hands"][:3], wall="")


@pytest.mark.parametrize(
    "kwargs",
    [{"seed": "nothex"}, {"dealer": 4}, {"dealer": "0"}, {"huangfan": -1}, {"stake": 0}, {"stake": 1.5}],
)
def test_new_refuses_bad_arguments_with_a_rule_error(kwargs):
    with pytest.raises(RuleError) as err:
        GameState.new(**kwargs)
    assert err.value.code == "bad_action"


LAST = dict(hands=["159m159p159s1234z5z", "234m567m88m111z22z", "4567m4567p34567s", "123456789s3z444z"])


@pytest.mark.parametrize(("wall", "haidi"), [("2z", True), ("2z9p", False)])
def test_a_self_draw_on_the_last_wall_tile_is_haidi(wall, haidi):
    state = GameState.from_setup(**LAST, wall=wall, rules=Rules(haidi="double"))
    state.apply(a("0:discard:9s"))
    state.apply(a("1:self_win"))
    assert ("haidi" in state.result.winners[0].features) is haidi


def test_first_go_round_wins_are_tianhu_and_dihu_in_lazi():
    dealer = GameState.from_setup(
        hands=["123m456m789m111z22z", "2468m2468p3579p6z", "4567p3456s34567s", "123456789s33z44z"],
        wall="9p",
        rules=Rules(preset="lazi"),
    )
    dealer.apply(a("0:self_win"))
    assert dealer.result.winners[0].pattern == "tianhu"
    two = GameState.from_setup(**TWO, rules=Rules(preset="lazi"))
    two.apply(a("0:discard:4s"))
    two.apply(a("1:win:4s"))
    two.apply(a("3:win:4s"))
    assert {w.pattern for w in two.result.winners} == {"dihu"}


def test_a_win_after_a_claim_is_not_in_the_first_go_round():
    state = GameState.from_setup(**CLAIMS, rules=Rules(preset="lazi"))
    state.apply(a("0:discard:5m"))
    state.apply(a("1:pass"))
    state.apply(a("2:pong:5m"))
    state.apply(a("2:discard:5s"))  # seat 3 waits on every bamboo
    assert "3:win:5s" in kinds(state, 3)
    state.apply(a("3:win:5s"))
    for seat in state.pending_seats():
        state.apply(a(f"{seat}:pass"))
    assert state.result.winners[0].pattern != "dihu"


def test_three_claims_from_one_discarder_make_partners_and_the_partner_pays_double():
    """承包: seat 2 pongs three of seat 0's discards, then wins on seat 0's 7m."""
    state = GameState.from_setup(
        hands=["1z2z3z7m2468m2468p13s", "139m13579p13579s", "11z22z33z555m7m9p9s1s", "2223334445556p"],
        wall="4z5z6z7z4z5z",
    )
    script = [
        "0:discard:1z", "2:pong:1z", "2:discard:9p", "3:discard:4z",
        "0:discard:2z", "2:pong:2z", "2:discard:9s", "3:discard:6z",
        "0:discard:3z", "2:pong:3z", "2:discard:1s", "3:discard:4z",
        "0:discard:7m", "2:win:7m",
    ]  # fmt: skip
    for step in script:
        state.apply(a(step))
    assert state.feeds[2][0] == 3
    winner = state.result.winners[0]
    assert (winner.seat, winner.pattern) == (2, "hunpeng")
    assert state.result.payments == (-2 * winner.value, 0, 2 * winner.value, 0)


def test_when_another_ready_player_deals_in_the_partner_shares_the_payment():
    """承包: the same partners, but seat 3 (ready: 2223334445556p waits) deals in the 7m."""
    state = GameState.from_setup(
        hands=["1z2z3z7m2468m2468p13s", "139m13579p13579s", "11z22z33z555m7m9p9s1s", "2223334445556p"],
        wall="4z5z6z7z4z5z7z6z7m",
    )
    script = [
        "0:discard:1z", "2:pong:1z", "2:discard:9p", "3:discard:4z",
        "0:discard:2z", "2:pong:2z", "2:discard:9s", "3:discard:6z",
        "0:discard:3z", "2:pong:3z", "2:discard:1s", "3:discard:4z",
        "0:discard:5z", "1:discard:7z", "2:discard:6z", "3:discard:7m", "2:win:7m", "0:pass",
    ]  # fmt: skip
    for step in script:
        state.apply(a(step))
    value = state.result.winners[0].value
    assert state.winning_tiles(3)  # seat 3 was ready after its discard
    assert state.result.payments == (-value, 0, 2 * value, -value)
