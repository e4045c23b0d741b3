"""The end-of-hand hook: a hand played through the services is recorded and rated once."""

from __future__ import annotations

from games import services
from games.models import Hand
from history.models import HandRecord, Player, Rating
from tests.games.helpers import play_until_ended


def test_a_hand_played_through_the_services_is_recorded(room, alice):
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_fill_bots(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    assert table.status == "playing"
    state = play_until_ended(table, {0: alice})
    hand = Hand.objects.get(match__table=table)
    rows = list(HandRecord.objects.filter(hand=hand).order_by("seat").select_related("player"))
    assert [r.payment for r in rows] == list(state.result.payments)
    assert rows[0].player == Player.objects.get(user=alice)
    assert {r.player.key for r in rows[1:]} == {"bot-easy"}
    assert Rating.objects.get(player__user=alice, room=None).hands == 1
