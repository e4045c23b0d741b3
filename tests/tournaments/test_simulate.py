"""`tournament_simulate`: a whole all-bot tournament through the services, as one JSON object."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.models import HandScore
from tournaments.selectors import seat_scores
from tournaments.standings import duplicate_scores

pytestmark = pytest.mark.django_db


def _simulate(*args) -> dict:
    out = StringIO()
    call_command("tournament_simulate", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_sixteen_players_three_rounds():
    report = _simulate("--players", "16", "--rounds", "3", "--hands", "2", "--bots", "normal,easy")
    assert report["status"] == "finished"
    assert len(report["standings"]) == 16
    assert {row["id"] for row in report["standings"]} == set(range(1, 17))
    assert report["repeated_pairs"] == 0
    assert len(report["rounds"]) == 3
    for round_ in report["rounds"]:
        assert len(round_["tables"]) == 4
        assert sorted(p for t in round_["tables"] for p in t["players"]) == list(range(1, 17))
        # every table of the round was dealt the walls committed at its start, in order
        assert all(t["commitments"] == round_["commitments"] for t in round_["tables"])
        assert len(set(round_["commitments"])) == 2
        assert round_["seeds"] is not None  # revealed at the end of the round
    pairs = set()
    for round_ in report["rounds"]:
        for table in round_["tables"]:
            players = table["players"]
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    assert frozenset((a, b)) not in pairs
                    pairs.add(frozenset((a, b)))


def test_duplicate_scores_sum_to_zero_per_deal_and_standings_add_up():
    report = _simulate("--players", "8", "--rounds", "2", "--hands", "2", "--bots", "normal,easy")
    scores = seat_scores(report["tournament"])
    assert len(scores) == HandScore.objects.count() == 8 * 2 * 2
    sums = {}
    for s, dup in duplicate_scores(scores).items():
        sums[(s.round, s.deal, s.seat)] = sums.get((s.round, s.deal, s.seat), 0) + dup
    assert len(sums) == 2 * 2 * 4 and set(sums.values()) == {0}
    assert report["max_deal_sum"] == 0
    assert sum(row["raw"] for row in report["standings"]) == 0  # each hand's payments sum to zero
    assert abs(sum(row["duplicate"] for row in report["standings"])) < 1e-9
    ordered = [(-r["duplicate"], -r["raw"], r["deal_ins"]) for r in report["standings"]]
    assert ordered == sorted(ordered)


def test_identical_bots_on_identical_walls_score_no_duplicate_points():
    """The walls really are the same: deterministic bots play each deal identically at every table."""
    report = _simulate("--players", "8", "--rounds", "1", "--hands", "2", "--bots", "normal")
    assert {row["duplicate"] for row in report["standings"]} == {0.0}


def test_a_field_not_a_multiple_of_four_is_refused():
    with pytest.raises(CommandError):
        _simulate("--players", "6")
