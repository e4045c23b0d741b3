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


def test_hard_plays_whole_hands_against_normal():
    # hard's edge over normal is within the noise of a run this small (see the bench): only check
    # that it plays a full run legally and that the table stays zero-sum.
    summary = simulate(100, "bots-direction-2", ["hard", "normal", "normal", "normal"])
    rows = summary["per_level"]
    assert rows["hard"]["seat_hands"] == 100 and rows["normal"]["seat_hands"] == 300
    total = rows["hard"]["avg_gain"] * 100 + rows["normal"]["avg_gain"] * 300
    assert abs(total) < 1
