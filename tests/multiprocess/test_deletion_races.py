"""Account deletion racing a sit-down on PostgreSQL never leaves a seat held by a deleted user
(issue 24 item 2): 200 races, each two threads with their own connections released together."""

from __future__ import annotations

RACES = 200


def test_a_deleted_user_never_holds_a_seat(cluster):
    report = cluster.seed("deletion_races", count=RACES, timeout=600)
    print(f"deletion vs sit-down, {RACES} races: {report['outcomes']}; ghost seats: {report['ghosts']}")
    assert sum(report["outcomes"].values()) == RACES
    assert report["ghosts"] == 0, report
    # Each race ends one way or the other, never both.
    assert set(report["outcomes"]) <= {"deleted / sit refused: login_required", "deletion refused / seated"}
