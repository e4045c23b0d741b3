"""A table's real status where tables are listed (issue 26): a playing table that nobody seated there
is connected to is not shown as 进行中 in the lobby, and a hand left without a result by a closed
table is not shown as 进行中 in its match's history."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from games import services
from games.models import Seat

from .helpers import started_table


def lobby_status(client, table_id: int) -> tuple[str, str]:
    text = client.get("/").content.decode()
    row = re.search(rf'data-table="{table_id}".*?data-status="(\w+)">([^<]*)<', text, re.S)
    return row.group(1), row.group(2)


@pytest.fixture
def playing(room, alice, bob):
    return started_table(room, alice, bob)


def test_a_playing_table_with_someone_there_is_in_progress(playing, client_for, alice):
    Seat.objects.filter(table=playing, user=alice).update(connected=True)
    assert lobby_status(client_for(alice), playing.pk) == ("playing", "进行中")


def test_a_playing_table_nobody_is_connected_to_says_so_in_both_languages(playing, client_for, alice):
    Seat.objects.filter(table=playing).update(connected=False)
    client = client_for(alice)
    assert lobby_status(client, playing.pk) == ("idle", "暂停：没有人在线")
    client.cookies["django_language"] = "en"
    assert lobby_status(client, playing.pk) == ("idle", "Paused: nobody online")


def test_a_table_closing_after_this_hand_says_so(playing, client_for, alice):
    Seat.objects.filter(table=playing, user=alice).update(connected=True)
    services.table_close(table_id=playing.pk)
    assert lobby_status(client_for(alice), playing.pk) == ("closing", "本局后关闭")


def test_history_tells_a_hand_being_played_from_one_left_unfinished(playing, client_for, alice):
    client = client_for(alice)
    match_id = playing.hand.match_id
    page = client.get(f"/history/matches/{match_id}/").content.decode()
    assert re.search(r'data-testid="hand-status">进行中<', page)
    assert "结束后才能回放" in client.get(f"/history/hands/{playing.hand_id}/").content.decode()
    # The table closes while nobody plays on: the hand stays without a result.
    playing.refresh_from_db()
    playing.status = playing.Status.FINISHED
    playing.save(update_fields=["status"])
    playing.matches.update(ended=timezone.now())
    page = client.get(f"/history/matches/{match_id}/").content.decode()
    assert re.search(r'data-testid="hand-status">未打完<', page)
    assert "进行中" not in page
    replay = client.get(f"/history/hands/{playing.hand_id}/")
    assert replay.status_code == 409 and "这局没有打完（牌桌已关闭），不能回放。" in replay.content.decode()


def test_the_lobby_names_a_rooms_preset_as_its_tables_do(room, client_for, alice):
    text = client_for(alice).get("/").content.decode()
    heading = re.search(rf'data-room="{room.pk}">\s*<h2>[^<]*<small>([^·<]+)·', text).group(1).strip()
    assert heading == "上海清混碰"
