"""Bots are named for their seat, with their level, wherever a table names them (issues 13 and 16)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import names, services

from .helpers import play_until_ended


def test_each_seat_gets_its_own_name_and_the_level_in_both_languages():
    with translation.override("zh-hans"):
        zh = [names.bot_name(seat, "normal") for seat in range(4)]
        assert (names.bot_name(1, "hard"), names.bot_name(None, "easy")) == (
            "机器人·乙（困难）",
            "机器人（简单）",
        )
        assert names.bot_name(2, "easy") == "机器人·丙（简单）"
    assert zh == ["机器人·甲（普通）", "机器人·乙（普通）", "机器人·丙（普通）", "机器人·丁（普通）"]
    with translation.override("en"):
        assert (names.bot_name(1, "hard"), names.bot_name(None, "easy")) == ("Bot B (hard)", "Bot (easy)")
        assert names.bot_name(2, "easy") == "Bot C (easy)"


def test_names_follow_the_seat_and_stay_when_other_bots_leave(client_for, room, alice):
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_fill_bots(table_id=table.pk, user=alice, level="hard")
    page = client_for(alice).get(f"/table/{table.pk}/").content.decode()
    for mark in ("乙", "丙", "丁"):
        assert f"机器人·{mark}（困难）" in page and "Bot " not in page
    services.table_remove_bot(table_id=table.pk, user=alice, seat=1)
    page = client_for(alice).get(f"/table/{table.pk}/").content.decode()
    assert "机器人·乙" not in page and "机器人·丙（困难）" in page and "机器人·丁（困难）" in page


def test_a_started_table_frame_and_its_settlement_name_each_bot_with_its_level(client_for, bot_table, alice):
    with translation.override("zh-hans"):  # the page is in Chinese
        expected = {seat: names.bot_name(seat, "easy") for seat in (1, 2, 3)}
    client = client_for(alice)
    page = client.get(f"/table/{bot_table.pk}/").content.decode()
    assert all(name in page for name in expected.values())
    for _ in range(6):  # until a settlement names a bot (a bot wins, pays in, or deals next)
        state = play_until_ended(bot_table, {0: alice})
        response = client.get(f"/table/{bot_table.pk}/")
        settlement = re.search(
            r'<section id="settlement".*?</section>', response.content.decode(), re.S
        ).group(0)
        result = state.result
        named = {w.seat for w in result.winners} | {result.dealer_next}
        named |= {w.from_seat for w in result.winners if w.from_seat is not None}
        for seat in named - {0}:
            assert expected[seat] in settlement
        if named - {0}:
            return
        bot_table.refresh_from_db()
        services.table_next_hand(table_id=bot_table.pk, user=alice)
        bot_table.refresh_from_db()
    pytest.fail("no settlement named a bot in six hands")


def test_the_owner_adds_a_bot_of_a_chosen_level_to_one_seat(client_for, room, alice):
    table = services.table_create(room_id=room.pk, user=alice)
    client = client_for(alice)
    page = client.get(f"/table/{table.pk}/").content.decode()
    assert 'data-testid="add-bot-2"' in page and 'data-testid="bot-level-2"' in page
    assert ">困难</option>" in page and ">简单</option>" in page and ">hard</option>" not in page
    assert client.post(f"/table/{table.pk}/fill/", {"seat": "2", "level": "hard"}).status_code == 302
    assert client.post(f"/table/{table.pk}/fill/", {"seat": "3", "level": "normal"}).status_code == 302
    bots = dict(table.seats.filter(is_bot=True).values_list("index", "bot_level"))
    assert bots == {2: "hard", 3: "normal"}
    page = client.get(f"/table/{table.pk}/").content.decode()
    assert "机器人·丙（困难）" in page and "机器人·丁（普通）" in page


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"seat": "1", "level": "grandmaster"}, 200),  # a message on the table page
        ({"seat": "0", "level": "easy"}, 404),  # alice's own seat
        ({"seat": "9", "level": "easy"}, 404),
        ({"seat": "x", "level": "easy"}, 404),
    ],
)
def test_a_bad_seat_or_level_is_refused_and_changes_nothing(client_for, room, alice, data, status):
    table = services.table_create(room_id=room.pk, user=alice)
    response = client_for(alice).post(f"/table/{table.pk}/fill/", data, follow=True)
    assert response.status_code == status
    if status == 200:
        assert "没有这个机器人等级" in response.content.decode()
    assert not table.seats.filter(is_bot=True).exists()


def test_the_service_refuses_a_taken_seat_and_an_unknown_level(room, alice):
    from games.services import ServiceError

    table = services.table_create(room_id=room.pk, user=alice)
    assert services.table_fill_bots(table_id=table.pk, user=alice, seat=1, level="easy") == 1
    for kwargs, code in (
        ({"seat": 1, "level": "easy"}, "no_such_seat"),
        ({"seat": 0}, "no_such_seat"),
        ({"seat": 2, "level": "<b>god</b>"}, "bad_bot_level"),
    ):
        with pytest.raises(ServiceError) as error:
            services.table_fill_bots(table_id=table.pk, user=alice, **kwargs)
        assert error.value.code == code
    assert dict(table.seats.filter(is_bot=True).values_list("index", "bot_level")) == {1: "easy"}
