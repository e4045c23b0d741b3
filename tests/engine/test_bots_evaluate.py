"""Pattern-aware distance and useful-tile counts (games/engine/bots/evaluate.py)."""

import random

import pytest

from games.engine.bots import evaluate as ev
from games.engine.tiles import parse_tiles, to_counts


def counts(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def tile(text: str) -> int:
    return parse_tiles(text)[0]


FULL_UNSEEN = [4] * 34


@pytest.mark.parametrize(
    ("plan", "hand", "expected"),
    [
        (ev.HUN[0], "11123456789999m", -1),  # 清一色 shape, complete
        (ev.QING[0], "1112345678999m", 0),  # nine-sided wait
        (ev.HUN[0], "111234567899m1z", 1),  # a lone honour still needs its pair
        (ev.HUN[0], "123456789m1234z", 2),  # three runs, four lone honours
        (ev.HUN[1], "123456789m1234z", 9),  # the wrong suit: nine tiles to replace
        (ev.QING[0], "123m456m789m11z22z", 4),  # honours are worthless to 清一色
        (ev.QING[0], "123m456m789m111m5z", 1),  # four sets, but the single is off-plan
        (ev.PENG, "111m222p333s44z55z", 0),
        (ev.PENG, "111m222p333s4z5z6z7z", 2),
        (ev.HUNPENG[2], "111m222p333s44z55z", 6),
        (ev.FENG, "11223344556677z", -1),
        (ev.FENG, "1122334455667z1m", 0),
        (ev.FENG, "1234567z1234567z", -1),  # 乱风向: any arrangement of honours
    ],
)
def test_plan_distance(plan, hand, expected):
    assert ev.shanten(plan, counts(hand)) == expected


def test_ordinary_mixed_hand_is_far_from_every_plan():
    # Ready in the ordinary sense (平胡), but no qualifying pattern is close.
    hand = counts("123m456p789s11z23s")
    assert min(ev.shanten(plan, hand) for plan in ev.ALL_PLANS) >= 3


def test_distance_after_declared_melds_counts_fewer_sets():
    # Two melds declared: seven concealed tiles need two sets and a pair.
    assert ev.shanten(ev.HUN[0], counts("1234567m")) == 0
    assert ev.shanten(ev.HUN[0], counts("12345m7z8m")) == 1


def test_useful_tiles_counts_unseen_copies_only():
    hand = counts("1112345678999m")
    unseen = [4 - n for n in hand]
    assert ev.useful_tiles(ev.QING[0], hand, unseen) == 1 + 7 * 3 + 1  # all nine ranks complete it
    unseen[tile("5m")] = 0
    assert ev.useful_tiles(ev.QING[0], hand, unseen) == 1 + 6 * 3 + 1


def test_useful_tiles_when_junk_dominates_counts_every_plan_tile():
    # Four sets and an off-suit single: any 清一色 tile drawn (then the 5z dropped) makes it ready.
    hand = counts("123m456m789m111m5z")
    unseen = [4 - n for n in hand]
    assert ev.useful_tiles(ev.QING[0], hand, unseen) == sum(unseen[:9])


def test_useful_tiles_leaves_counts_unchanged():
    hand = counts("1112345678999m")
    before = list(hand)
    ev.useful_tiles(ev.HUN[0], hand, FULL_UNSEEN)
    assert hand == before


def test_open_plans_follow_the_melds():
    chow_p = ev.MeldShape(tile("3p"), is_chow=True)
    pong_east = ev.MeldShape(tile("1z"), is_chow=False)
    pong_m = ev.MeldShape(tile("5m"), is_chow=False)
    assert set(ev.open_plans([])) == set(ev.ALL_PLANS)
    assert set(ev.open_plans([chow_p])) == {ev.HUN[1], ev.QING[1]}
    assert set(ev.open_plans([chow_p, pong_east])) == {ev.HUN[1]}
    assert set(ev.open_plans([pong_east])) == {*ev.HUN, *ev.HUNPENG, ev.PENG, ev.FENG}
    assert set(ev.open_plans([pong_m, pong_east])) == {ev.HUN[0], ev.HUNPENG[0], ev.PENG}
    # Two suits among the melds: only all-pongs is left.
    assert ev.open_plans([pong_m, ev.MeldShape(tile("7s"), is_chow=False)]) == [ev.PENG]


def test_discard_sheds_the_stray_suit_tile():
    options = ev.evaluate_discards(counts("123456m789m11z22z5s"), ev.ALL_PLANS, FULL_UNSEEN)
    assert options[0].tile == tile("5s")
    assert options[0].plan == ev.HUN[0]
    assert options[0].shanten == 0


def test_discard_prefers_the_more_useful_of_equal_distances():
    # 4z and 5z are both lone honours; the one whose copies are all gone is the one to drop.
    hand = counts("1223456789m11z4z5z")
    unseen = [4 - n for n in hand]
    unseen[tile("4z")] = 0
    assert ev.evaluate_discards(hand, [ev.HUN[0]], unseen)[0].tile == tile("4z")
    unseen[tile("4z")], unseen[tile("5z")] = 3, 0
    assert ev.evaluate_discards(hand, [ev.HUN[0]], unseen)[0].tile == tile("5z")


def test_discard_that_reaches_ready_beats_a_wider_one_shanten():
    options = ev.evaluate_discards(counts("13m45m789m99m111z22z"), ev.ALL_PLANS, FULL_UNSEEN)
    assert (options[0].tile, options[0].shanten) == (tile("1m"), 0)  # 345m 789m 99m 111z 22z


def test_discard_toward_pongs_drops_the_single():
    options = ev.evaluate_discards(counts("111m222p333s44z55z6s"), ev.ALL_PLANS, FULL_UNSEEN)
    assert options[0].tile == tile("6s")
    assert options[0].plan == ev.PENG
    assert options[0].shanten == 0


def test_value_weights_choose_the_richer_plan_at_equal_distance():
    # Keeping the 1z pair (混一色) leaves more useful tiles; 清一色 pays more, so weighted, drop 1z.
    hand = counts("113444556778p11z")
    unseen = [4 - n for n in hand]
    plain = ev.evaluate_discards(hand, ev.ALL_PLANS, unseen)
    weighted = ev.evaluate_discards(hand, ev.ALL_PLANS, unseen, weights={ev.QING[1]: 4.0})
    assert plain[0].plan == ev.HUN[1] and plain[0].tile != tile("1z")
    assert (weighted[0].tile, weighted[0].plan) == (tile("1z"), ev.QING[1])
    assert plain[0].shanten == weighted[0].shanten == 1


def test_evaluate_discards_rejects_wrong_tile_count():
    with pytest.raises(ValueError, match="3n\\+2"):
        ev.evaluate_discards(counts("1112345678999m"), ev.ALL_PLANS, FULL_UNSEEN)


def test_fast_discard_path_agrees_with_plain_definitions():
    """The incremental evaluator must give the same distance and useful-tile count as the
    straightforward per-plan functions, on many random hands."""
    rng = random.Random(20261129)
    full = [code for code in range(34) for _ in range(4)]
    for _ in range(300):
        hand = to_counts(rng.sample(full, 14))
        unseen = [rng.randint(0, 4 - hand[k]) for k in range(34)]
        before = list(hand)
        leading = ev.evaluate_discards(hand, ev.ALL_PLANS, unseen)
        complete = ev.evaluate_discards(hand, ev.ALL_PLANS, unseen, breadth=99)
        assert [o for o in leading if o.shanten == leading[0].shanten] == [
            o for o in complete if o.shanten == complete[0].shanten
        ]
        for option in complete:
            hand[option.tile] -= 1
            best = min(ev.shanten(plan, hand) for plan in ev.ALL_PLANS)
            assert option.shanten == best
            assert ev.shanten(option.plan, hand) == best
            assert option.useful == ev.useful_tiles(option.plan, hand, unseen)
            hand[option.tile] += 1
        assert hand == before
        for plan in (ev.HUN[rng.randrange(3)], ev.PENG, ev.FENG):
            alone = ev.evaluate_discards(hand, [plan], unseen, claims=True)
            for option in alone:
                hand[option.tile] -= 1
                assert (option.plan, option.shanten) == (plan, ev.shanten(plan, hand))
                assert option.useful == ev.useful_tiles(plan, hand, unseen)
                hand[option.tile] += 1


def test_junk_tiles_are_the_ones_no_closest_plan_uses():
    hand = counts("123456m789m11z22z5s")
    assert ev.junk_tiles(hand, ev.ALL_PLANS) == [tile("5s")]
    assert ev.junk_tiles(counts("123456m789m11z22z5m"), ev.ALL_PLANS) == []


def test_discarding_junk_matches_the_best_ranked_discard():
    rng = random.Random(7)
    full = [code for code in range(34) for _ in range(4)]
    checked = 0
    for _ in range(400):
        hand = to_counts(rng.sample(full, 14))
        junk = ev.junk_tiles(hand, ev.ALL_PLANS)
        if not junk:
            continue
        checked += 1
        unseen = [4 - n for n in hand]
        best = ev.evaluate_discards(hand, ev.ALL_PLANS, unseen)[0]
        junk_option = next(o for o in ev.evaluate_discards(hand, ev.ALL_PLANS, unseen) if o.tile == junk[0])
        assert junk_option.shanten == best.shanten
    assert checked > 20


def test_best_shanten_agrees_with_plain_distance_for_every_hand_size():
    rng = random.Random(7)
    wall = [k for k in range(34) for _ in range(4)]
    for _ in range(400):
        n = rng.choice([1, 2, 4, 5, 7, 8, 10, 11, 13, 14])
        rng.shuffle(wall)
        hand = to_counts(wall[:n])
        plans = rng.sample(ev.ALL_PLANS, rng.randint(1, len(ev.ALL_PLANS)))
        expected = min(ev.shanten(plan, hand, n) for plan in plans)
        assert ev.best_shanten(hand, plans)[0] == expected
