"""The §11 options in the turn machine, one state-machine test each: 敲 (`declare_ready`), 换牌
(`swap_tiles`), `qingyise_9_bao` in the settlement's explanation, and 逛花园 (`garden`)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Action, GameState, RuleError, Rules
from games.engine.garden import Garden, GardenError
from games.engine.melds import Meld
from games.engine.scoring import WinContext, explain, score_win
from games.engine.tiles import N_FLOWERS, N_KINDS, parse_tiles

FULL = [4] * N_KINDS + [1] * N_FLOWERS
DECLARE = Rules(declare_ready=True)
SWAP = Rules(swap_tiles=True)


def a(text: str) -> Action:
    return Action.parse(text)


def kinds(state: GameState, seat: int) -> list[str]:
    return [str(x) for x in state.legal_actions(seat)]


# --- 敲 declare_ready ------------------------------------------------------------------------------

# Seat 1 is ready on 3z/4z (混一色) and holds 33z; nobody else can use the tiles that pass.
READY = ["159m159p159s1234z5z", "123456789s33z44z", "2468m2468p3579p6z", "4567p3456s34567s"]


def test_declare_ready_a_full_hand():
    state = GameState.from_setup(hands=READY, wall="1m9p3z2m8m4z", rules=DECLARE)
    state.apply(a("0:discard:5z"))
    # seat 1 drew 1m: only discarding 1m keeps it ready, so that is the one declare offered
    assert [x for x in kinds(state, 1) if ":declare:" in x] == ["1:declare:1m"]
    assert all(x["declared"] is False for x in state.view(None)["seats"])
    events = state.apply(a("1:declare:1m"))
    assert [e.kind for e in events][:2] == ["declare", "discard"]
    for viewer in (None, 0, 1, 2, 3):  # public
        assert [x["declared"] for x in state.view(viewer)["seats"]] == [False, True, False, False]
    state.apply(a("2:discard:9p"))
    state.apply(a("3:discard:3z"))
    # declared: a win (seat 1 waits on 3z) but no pong of the 33z it holds
    assert kinds(state, 1) == ["1:win:3z", "1:pass"]
    with pytest.raises(RuleError):
        state.apply(a("1:pong:3z"))
    state.apply(a("1:pass"))
    state.apply(a("0:discard:2m"))
    # each drawn tile is discarded unless it wins: 8m is the only move
    assert state.drawn_tile == parse_tiles("8m")[0]
    assert kinds(state, 1) == ["1:discard:8m"]
    assert state.timeout_action(1) == a("1:discard:8m")
    with pytest.raises(RuleError) as err:
        state.apply(a("1:discard:9s"))
    assert err.value.code == "illegal_action"
    state.apply(a("1:discard:8m"))
    state.apply(a("2:discard:4z"))
    state.apply(a("1:win:4z"))
    assert state.result.kind == "win" and state.result.winners[0].seat == 1


def test_only_a_declared_seat_may_win():
    state = GameState.from_setup(hands=READY, wall="3z1m", rules=DECLARE)
    state.apply(a("0:discard:5z"))
    assert state.drawn_tile == parse_tiles("3z")[0]  # completes the hand, but seat 1 has not declared
    assert "1:self_win" not in kinds(state, 1)
    plain = GameState.from_setup(hands=READY, wall="3z1m")
    plain.apply(a("0:discard:5z"))
    assert "1:self_win" in kinds(plain, 1)
    # and an undeclared seat is offered no win on a discard either
    other = GameState.from_setup(hands=READY, wall="1m9p3z", rules=DECLARE)
    other.apply(a("0:discard:5z"))
    other.apply(a("1:discard:1m"))  # a plain discard: seat 1 stays undeclared
    other.apply(a("2:discard:9p"))
    other.apply(a("3:discard:3z"))
    assert kinds(other, 1) == ["1:pong:3z", "1:pass"]  # seat 1 waits on 3z but may only pong it


def test_declare_is_refused_when_the_option_is_off():
    state = GameState.from_setup(hands=READY, wall="1m9p3z2m8m4z")
    state.apply(a("0:discard:5z"))
    assert not [x for x in kinds(state, 1) if ":declare:" in x]
    with pytest.raises(RuleError):
        state.apply(a("1:declare:1m"))
    assert "declared" not in state.view(None)["seats"][1]


# --- 换牌 swap_tiles ----------------------------------------------------------------------------


def test_swap_window_bury_five_draw_five_skip_and_conservation():
    state = GameState.new(rules=SWAP, dealer=1, seed="5a" * 32)
    assert state.phase == "swap" and state.pending_seats() == [1, 2, 3, 0]
    hand = list(state.hands[1])
    assert kinds(state, 1)[-1] == "1:skip" and len(state.legal_actions(1)) == len(set(hand)) + 1
    assert state.timeout_action(1) == a("1:skip")
    wall_before = state.wall_remaining
    for n, tile in enumerate(hand[:5], start=1):
        state.apply(Action.of("bury", 1, tile))
        assert state.census() == FULL
        if n < 5:
            assert "1:skip" not in kinds(state, 1)  # exactly five once started
            assert state.timeout_action(1).kind == "bury"
    assert sum(state.counts[1]) == 14 and state.buried[1] == hand[:5]
    assert state.wall_remaining <= wall_before - 5  # five drawn (more when flowers were replaced)
    assert state.legal_actions(1) == []
    with pytest.raises(RuleError) as err:
        state.apply(Action.of("bury", 1, state.hands[1][0]))
    assert err.value.code == "already_answered"
    with pytest.raises(RuleError) as err:
        state.apply(Action.of("discard", 2, state.hands[2][0]))
    assert err.value.code == "illegal_action"
    absent = next(t for t in range(N_KINDS) if not state.counts[2][t])
    with pytest.raises(RuleError) as err:
        state.apply(Action.of("bury", 2, absent))
    assert err.value.code == "tile_not_in_hand"
    # what is public: how many each seat buried; the buried tiles only to their owner
    assert state.view(0)["seats"][1]["swap"] == {"buried": 5, "done": True}
    assert state.view(0)["buried"] == [] and "buried" not in state.view(None)
    assert len(state.view(1)["buried"]) == 5
    for seat in (2, 3, 0):
        state.apply(a(f"{seat}:skip"))
    assert state.phase == "turn" and state.current_seat == 1 and state.drawn_tile is None
    assert state.census() == FULL
    again = GameState.from_json(state.to_json())
    assert again.hands == state.hands and again.buried == state.buried and again.phase == "turn"


def test_no_swap_window_without_the_option():
    assert GameState.new(seed="5a" * 32).phase == "turn"


# --- every option together, random legal play: tiles conserved, zero-sum, replay deterministic ----

OPTIONS = st.builds(
    Rules,
    preset=st.sampled_from(["standard", "lazi", "home"]),
    declare_ready=st.booleans(),
    swap_tiles=st.booleans(),
    qingyise_9_bao=st.booleans(),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=32, max_size=32).map(bytes.hex), rules=OPTIONS, data=st.data())
def test_options_keep_tiles_payments_and_replay(seed, rules, data):
    state = GameState.new(rules=rules, seed=seed)
    while state.phase != "ended":
        seat = state.pending_seats()[0]
        legal = state.legal_actions(seat)
        wins = [x for x in legal if x.kind in ("win", "self_win", "declare")]
        if wins and data.draw(st.booleans()):
            action = wins[0]
        else:
            action = legal[data.draw(st.integers(0, len(legal) - 1))]
        state.apply(action)
        assert state.census() == FULL
        if rules.declare_ready:
            for s in range(4):
                if state.declared[s] and state.phase == "claims":
                    assert {x.kind for x in state.legal_actions(s)} <= {"win", "pass"}
    assert sum(state.result.payments) == 0
    if rules.declare_ready:
        assert all(state.declared[w.seat] for w in state.result.winners if w.win != "eight_flowers")
    again = GameState.from_json(state.to_json())
    assert again.result == state.result and again.hands == state.hands


# --- qingyise_9_bao in the settlement's explanation -------------------------------------------------


def test_settlement_explains_qingyise_9_bao_and_other_reasons():
    melds = tuple(Meld.parse(m) for m in ("chow 123p<0", "pong 555p<2", "pong 999p<3"))
    ctx = WinContext(1, "discard", tuple(parse_tiles("7788p")), parse_tiles("7p")[0], melds, from_seat=2)
    bao = Rules(qingyise_9_bao=True)
    (item,) = explain([(ctx, score_win(ctx, bao))], bao)
    assert (item.winner, item.reason, item.shares, item.value) == (1, "qingyise_9_bao", (0, 0, 3, 0), 10)
    (plain,) = explain([(ctx, score_win(ctx, Rules()))], Rules())
    assert (plain.reason, plain.shares) == ("discard", (0, 0, 1, 0))
    chu = Rules(qingyise_9_bao=False, payment="chu_chong")
    assert explain([(ctx, score_win(ctx, chu))], chu)[0].shares == (1, 0, 2, 1)


def test_hand_result_carries_the_settlements():
    state = GameState.from_setup(
        hands=["123m456m789m111z22z", "2468m2468p3579p6z", "4567p3456s34567s", "123456789s33z44z"], wall=""
    )
    state.apply(a("0:self_win"))
    (item,) = state.result.settlements
    assert (item.reason, item.shares) == ("self_draw", (0, 1, 1, 1))
    assert state.result.to_json()["settlements"] == [item.to_json()]


# --- 逛花园 garden --------------------------------------------------------------------------------


def test_garden_partial_payment_and_a_player_at_zero_still_collects():
    garden = Garden.start(Rules(garden=100), stake=2)
    assert garden.stacks == (200, 200, 200, 200)
    made, garden = garden.pay([(0, 1, 150)])
    assert made == (-150, 150, 0, 0) and garden.stacks == (50, 350, 200, 200)
    made, garden = garden.pay([(0, 2, 120), (1, 2, 120)])  # seat 0 covers only its 50
    assert made == (-50, -120, 170, 0) and garden.stacks == (0, 230, 370, 200)
    made, garden = garden.pay([(0, 3, 30), (2, 3, 30)])  # at 0: pays nothing more
    assert made == (0, 0, -30, 30) and garden.stacks == (0, 230, 340, 230)
    made, garden = garden.pay([(1, 0, 20), (2, 0, 20), (3, 0, 20)])  # and still collects
    assert made == (60, -20, -20, -20) and garden.stacks == (60, 210, 320, 210)
    assert sum(garden.stacks) == 800


def test_garden_a_short_payer_pays_its_own_creditors_from_its_xiajia():
    """§7 Shortfall: seat 0 (stack 10) owes seats 1 and 3; from seat 0's 下家 seat 1 comes first."""
    garden = Garden((10, 500, 500, 500))
    made, _ = garden.pay([(0, 1, 20), (0, 3, 20)])
    assert made == (-10, 10, 0, 0)


def test_garden_match_ends_at_the_sixteenth_change_of_dealer():
    garden = Garden.start(Rules(garden=1000))
    dealer = 0
    for change in range(1, 17):
        garden = garden.after_hand(dealer, dealer)  # a draw: the deal stays
        garden = garden.after_hand(dealer, (dealer + 1) % 4)
        dealer = (dealer + 1) % 4
        assert garden.dealer_changes == change
        assert garden.over is (change == 16)
    assert garden.rounds_played == 4
    assert Garden.from_json(garden.to_json()) == garden


@pytest.mark.parametrize(
    "bad",
    [
        lambda: Garden.start(Rules()),
        lambda: Garden((1, 2, 3)),
        lambda: Garden((1, 2, 3, -4)),
        lambda: Garden((1, 1, 1, 1)).pay([(0, 0, 1)]),
        lambda: Garden((1, 1, 1, 1)).pay([(0, 1, 0)]),
        lambda: Garden((1, 1, 1, 1)).pay([(0, 4, 1)]),
        lambda: Garden((1, 1, 1, 1)).pay([[1, 0, 0, 0]]),
        lambda: Garden.from_json([]),
    ],
)
def test_garden_refuses_what_cannot_be(bad):
    with pytest.raises(GardenError):
        bad()


def test_qingyise_9_bao_in_a_played_hand():
    """Seat 1 pongs 1p, 5p and 9p (nine tiles of one suit down), then seat 2 deals in its 7p."""
    hands = ["2346789m1p234678s", "11p55p99p7788p123z", "115599m115599s4z", "15m3377s5566774z"]
    bao = Rules(qingyise_9_bao=True)
    uncapped = Rules(qingyise_9_bao=True, hand_loss_cap_lezi=None)
    for rules, paid in ((uncapped, 60), (bao, 50), (Rules(), 20)):  # 3 shares of 20; the loss cap is 50
        state = GameState.from_setup(hands=hands, wall="5p9p7p2m", rules=rules)
        for text in ["0:discard:1p", "1:pong:1p", "1:discard:1z", "2:discard:5p", "1:pong:5p", "1:discard:2z",
                     "2:discard:9p", "1:pong:9p", "1:discard:3z", "2:discard:7p", "1:win:7p"]:  # fmt: skip
            for seat in state.pending_seats():  # anyone else offered a claim passes
                if seat != a(text).seat and state.phase == "claims":
                    state.apply(a(f"{seat}:pass"))
            state.apply(a(text))
        (win,) = state.result.winners
        assert (win.seat, win.pattern, win.value) == (1, "qingpeng", 20)
        assert list(state.result.payments) == [0, paid, -paid, 0]
        reason = state.result.settlements[0].reason
        assert reason == ("qingyise_9_bao" if rules.qingyise_9_bao else "discard")
