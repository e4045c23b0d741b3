"""Self-play direction of the strength targets, on small fixed-seed runs (seats rotate).

The full targets (4000 hands: win rate ≥ 1.5× the weaker seats', positive average gain) are measured
by `bench/bots_bench.py`; these runs are only big enough to show the direction.
"""

from games.engine.simulate import simulate

HANDS = 300


def test_normal_beats_easy():
    summary = simulate(HANDS, "bots-direction-1", ["normal", "easy", "easy", "easy"])
    normal, easy = summary["per_level"]["normal"], summary["per_level"]["easy"]
    assert normal["win_rate"] > easy["win_rate"]
    assert normal["avg_gain"] > 0
    assert normal["deal_in_rate"] < easy["deal_in_rate"]


def test_hard_beats_normal():
    # hard's edge is small (about 1.08× a normal seat's win rate over 4000 hands, see the bench), so
    # this run is larger than the one above. (`simulate` itself stops on a hand that is not zero-sum.)
    hands = 1000
    summary = simulate(hands, "bots-direction-2", ["hard", "normal", "normal", "normal"])
    hard, normal = summary["per_level"]["hard"], summary["per_level"]["normal"]
    assert hard["seat_hands"] == hands and normal["seat_hands"] == 3 * hands
    assert hard["win_rate"] > normal["win_rate"]
    assert hard["avg_gain"] > 0
