"""Seating a round: no repeated opponents where the numbers allow it, winds rotating."""

import random

import pytest

from tournaments.seating import repeated_pairs, seat_round


def _rounds(players: int, rounds: int, seed: int = 1):
    rng = random.Random(seed)
    done = []
    for _ in range(rounds):
        done.append(seat_round(list(range(1, players + 1)), done, rng))
    return done


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_sixteen_players_three_rounds_meet_nobody_twice(seed):
    rounds = _rounds(16, 3, seed)
    assert repeated_pairs(rounds) == 0
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(1, 17))
        assert all(len(t) == 4 for t in tables)


def test_thirty_two_players_four_rounds_meet_nobody_twice():
    assert repeated_pairs(_rounds(32, 4)) == 0


def test_winds_rotate_nobody_keeps_a_seat_in_the_second_round():
    first, second = _rounds(16, 2)
    seat_before = {p: s for t in first for s, p in enumerate(t)}
    assert all(seat_before[p] != s for t in second for s, p in enumerate(t))


def test_repeated_pairs_counts_each_meeting_again():
    assert repeated_pairs([[[1, 2, 3, 4]], [[1, 2, 3, 4]]]) == 6
    assert repeated_pairs([[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 5, 6, 7], [2, 3, 4, 8]]]) == 3 + 3


def test_a_field_not_a_multiple_of_four_is_refused():
    with pytest.raises(ValueError):
        seat_round([1, 2, 3, 4, 5], [], random.Random(0))
