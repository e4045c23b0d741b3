"""Duplicate scores: against the same seat of the same deal at the other tables; zero-sum per deal."""

from fractions import Fraction

from tournaments.standings import SeatScore, duplicate_scores, standings


def test_duplicate_score_is_score_minus_the_mean_of_the_same_seat_elsewhere():
    a = SeatScore(round=1, deal=0, table=1, seat=0, entry=1, score=30)
    b = SeatScore(round=1, deal=0, table=2, seat=0, entry=5, score=-6)
    c = SeatScore(round=1, deal=0, table=3, seat=0, entry=9, score=0)
    other_seat = SeatScore(round=1, deal=0, table=1, seat=1, entry=2, score=-30)
    dup = duplicate_scores([a, b, c, other_seat])
    assert dup[a] == 30 - Fraction(-6 + 0, 2)
    assert dup[b] == -6 - Fraction(30 + 0, 2)
    assert dup[a] + dup[b] + dup[c] == 0
    assert dup[other_seat] == 0  # nobody else held seat 1 of this deal yet


def test_standings_order_duplicate_then_raw_then_fewest_deal_ins():
    scores = [
        SeatScore(1, 0, 1, 0, entry=1, score=10, dealt_in=True),
        SeatScore(1, 0, 2, 0, entry=2, score=10),
        SeatScore(1, 0, 1, 1, entry=3, score=4),
        SeatScore(1, 0, 2, 1, entry=4, score=-4),
    ]
    rows = standings([1, 2, 3, 4, 5], scores)
    assert [r.entry for r in rows] == [3, 2, 1, 5, 4]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert rows[0].duplicate == 8 and rows[1].duplicate == 0 and rows[1].deal_ins == 0


def test_equal_players_share_a_rank():
    rows = standings([1, 2], [])
    assert [r.rank for r in rows] == [1, 1]
