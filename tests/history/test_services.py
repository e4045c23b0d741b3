"""Recording finished hands: one record per seat from the result, idempotent; ratings move by rank."""

from __future__ import annotations

import pytest

from games.engine.scoring.core import SELF_DRAWN
from games.services import current_hand
from history.models import HandRecord, Player, Rating, RatingChange
from history.services import Sitter, backfill, ranks_of, record_hand


def test_ranks_share_ties():
    assert ranks_of([8, -4, -4, 0]) == [1, 3, 3, 2]
    assert ranks_of([0, 0, 0, 0]) == [1, 1, 1, 1]


def test_every_seat_of_every_hand_is_recorded_from_the_result(played, alice, bob):
    _, _, hands = played
    assert HandRecord.objects.count() == 4 * len(hands)
    for hand in hands:
        rows = {r.seat: r for r in HandRecord.objects.filter(hand=hand).select_related("player")}
        assert [rows[s].payment for s in range(4)] == hand.result["payments"]
        assert rows[0].player.user == alice and rows[2].player.user == bob
        assert rows[1].player.key == rows[3].player.key == "bot-easy"
        winners = {w["seat"]: w for w in hand.result["winners"]}
        for seat, row in rows.items():
            assert row.won == (seat in winners)
            assert row.drawn == (hand.result["kind"] == "draw")
            assert row.is_dealer == (seat == hand.dealer)
            if seat in winners:
                assert row.pattern == winners[seat]["pattern"]
                assert row.value == winners[seat]["value"]
                assert row.self_drawn == (winners[seat]["win"] in SELF_DRAWN)
            feeders = {w["from_seat"] for w in winners.values() if w["win"] in ("discard", "rob_kong")}
            assert row.dealt_in == (seat in feeders and seat not in winners)


def test_stored_hands_leave_the_table_on_its_latest_hand(played):
    """Like the services (`Table.hand`), so a simulated table renders its last hand."""
    table, _, hands = played
    table.refresh_from_db()
    assert table.hand == hands[-1] and current_hand(table) == hands[-1]


def test_recording_twice_changes_nothing(played, room):
    _, _, hands = played
    before = (HandRecord.objects.count(), RatingChange.objects.count())
    ratings = list(Rating.objects.values_list("mu", "sigma", "hands"))
    assert record_hand(hand=hands[0], sitters=[Sitter(None, "easy")] * 4, room_id=room.pk) is False
    assert (HandRecord.objects.count(), RatingChange.objects.count()) == before
    assert list(Rating.objects.values_list("mu", "sigma", "hands")) == ratings


def test_unfinished_hand_is_refused(played, room):
    _, match, _ = played
    hand = match.hands.create(number=99, commitment="0" * 64, dealer=0)
    with pytest.raises(ValueError, match="finished"):
        record_hand(hand=hand, sitters=[Sitter(None, "easy")] * 4, room_id=room.pk)
    assert not HandRecord.objects.filter(hand=hand).exists()


def test_ratings_overall_and_per_room_follow_the_rated_hands(played, alice, room):
    _, _, hands = played
    player = Player.objects.get(user=alice)
    overall = Rating.objects.get(player=player, room=None)
    in_room = Rating.objects.get(player=player, room=room)
    rated = [h for h in hands if len(set(h.result["payments"])) > 1]
    assert overall.hands == in_room.hands == len(hands)
    assert overall.rated_hands == in_room.rated_hands == len(rated)
    assert overall.changes.count() == len(rated)
    last = overall.changes.order_by("-id").first()
    assert (last.mu, last.sigma) == (overall.mu, overall.sigma)
    assert overall.sigma < 25 / 3  # uncertainty shrinks as hands are rated
    assert abs(overall.ordinal - (overall.mu - 3 * overall.sigma)) < 1e-9


def test_a_winner_gains_and_payers_lose(room, alice, bob, make_user):
    from history.simulation import seated_table

    carol, dave = make_user("carol"), make_user("dave")
    _, match = seated_table(room, [alice, bob, carol, dave])
    hand = match.hands.create(
        number=1,
        commitment="0" * 64,
        dealer=0,
        result={
            "kind": "win",
            "winners": [
                {"seat": 1, "win": "discard", "from_seat": 3, "pattern": "pinghu", "features": [], "value": 4}
            ],
            "payments": [0, 4, 0, -4],
        },
    )
    sitters = [Sitter(u.pk) for u in (alice, bob, carol, dave)]
    assert record_hand(hand=hand, sitters=sitters, room_id=room.pk)
    mu = {
        r.player.user.username: r.mu for r in Rating.objects.filter(room=None).select_related("player__user")
    }
    assert mu["bob"] > mu["alice"] == mu["carol"] > mu["dave"]
    assert HandRecord.objects.get(hand=hand, seat=3).dealt_in


def test_backfill_records_hands_that_ended_before_the_app(played):
    _, _, hands = played
    HandRecord.objects.filter(hand=hands[-1]).delete()
    assert backfill() == 1
    assert HandRecord.objects.filter(hand=hands[-1]).count() == 4
    assert backfill() == 0


def test_statistics_include_the_ledger_balance_and_penalties(played, alice, bob):
    import games.services  # noqa: F401  (loaded before ledger.services, which it imports in turn)
    from history.stats import player_stats
    from ledger.services import issue_penalty

    table, match, hands = played
    before = player_stats(Player.objects.get(user=alice))
    assert before.ledger_balance == before.total and before.ledger_extra == 0
    seat_users = [alice, None, bob, None]
    penalty = issue_penalty(hand=hands[-1], seat=0, reason="left the table", seat_users=seat_users)
    after = player_stats(Player.objects.get(user=alice))
    assert after.ledger_extra == -penalty.amount
    assert after.ledger_balance == after.total - penalty.amount
    assert after.total == before.total  # hand statistics are about hands, not penalties
    assert player_stats(Player.objects.get(key="bot-easy")).ledger_balance is None
