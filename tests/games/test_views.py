"""Lobby and table pages, and the seat forms: right status codes, no 500s, nothing changed on refusal."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from games import services
from games.models import Room, Table
from games.services.commands import Move

pytestmark = pytest.mark.django_db


def test_lobby_lists_rooms_tables_and_seats(client_for, room, alice):
    table = services.table_create(room_id=room.pk, user=alice)
    html = client_for().get("/").content.decode()
    assert room.name in html and f'data-table="{table.pk}"' in html and "alice" in html
    assert "/ws/lobby/" in html


def test_create_sit_fill_start_stand_through_forms(client_for, room, alice, bob):
    a, b = client_for(alice), client_for(bob)
    response = a.post(f"/rooms/{room.pk}/tables/new/")
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/table/{table.pk}/"
    assert b.post(f"/table/{table.pk}/sit/", {"seat": "2"}).status_code == 302
    assert table.seats.get(index=2).user == bob
    # The seat is taken: a message, nothing changed.
    carol = client_for(_user("carol"))
    carol.post(f"/table/{table.pk}/sit/", {"seat": "2"})
    assert table.seats.get(index=2).user == bob
    assert b.post(f"/table/{table.pk}/stand/").status_code == 302
    assert table.seats.get(index=2).user is None
    assert a.post(f"/table/{table.pk}/fill/").status_code == 302
    assert table.seats.filter(is_bot=True).count() == 3
    response = a.post(f"/table/{table.pk}/start/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["HX-Redirect"] == f"/table/{table.pk}/"
    table.refresh_from_db()
    assert table.status == "playing" and table.state is not None
    page = a.get(f"/table/{table.pk}/").content.decode()
    assert 'data-zone="hand"' in page and "ws-connect" in page and 'id="settlement"' in page


def _user(name):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=name, password="pw-123456")


def test_anonymous_can_watch_but_forms_need_login(client_for, bot_table):
    anon = client_for()
    page = anon.get(f"/table/{bot_table.pk}/")
    assert page.status_code == 200
    assert 'data-zone="hand"' not in page.content.decode()
    response = anon.post(f"/table/{bot_table.pk}/sit/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    "method, url, status",
    [
        ("get", "/table/999999/", 404),
        ("post", "/table/999999/sit/", 404),
        ("post", "/table/999999/start/", 404),
        ("post", "/rooms/999999/tables/new/", 404),
        ("get", "/table/abc/", 404),
        ("get", "/table/1/sit/", 405),
    ],
)
def test_bad_ids_and_methods(client_for, alice, method, url, status):
    assert getattr(client_for(alice), method)(url).status_code == status


def test_refusals_are_messages_or_403_never_500(client_for, room, alice, bob):
    table = services.table_create(room_id=room.pk, user=alice)
    b = client_for(bob)
    assert b.post(f"/table/{table.pk}/start/").status_code == 403  # not seated
    assert b.post(f"/table/{table.pk}/fill/").status_code == 403
    assert b.post(f"/table/{table.pk}/sit/", {"seat": "9"}).status_code == 404
    assert b.post(f"/table/{table.pk}/sit/", {"seat": "x"}).status_code == 404
    a = client_for(alice)
    response = a.post(f"/table/{table.pk}/start/", follow=True)  # seats empty: a message
    assert response.status_code == 200 and "空座位" in response.content.decode()
    table.refresh_from_db()
    assert table.status == "waiting"


def test_closed_room_refuses_new_tables(client_for, room, alice):
    room.is_open = False
    room.save()
    assert client_for(alice).post(f"/rooms/{room.pk}/tables/new/").status_code == 403
    assert not Table.objects.exists()


def test_settlement_page_after_a_hand(client_for, bot_table, alice):
    from .helpers import play_until_ended

    play_until_ended(bot_table, {0: alice})
    html = client_for(alice).get(f"/table/{bot_table.pk}/").content.decode()
    assert "结算" in html or "荒庄" in html
    assert 'data-testid="next-hand"' in html and 'data-zone="revealed"' in html


def test_ensure_demo_is_idempotent():
    call_command("ensure_demo")
    call_command("ensure_demo")
    assert Room.objects.count() == 1


def test_forms_pushed_over_the_socket_carry_a_working_csrf_token(room, alice):
    """A form rendered for the socket posts like the page's own form (checked with CSRF enforced)."""
    from games.presentation.rendering import render_lobby_fragment

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    client.get("/")  # sets the CSRF cookie
    cookie = client.cookies["csrftoken"].value
    html = render_lobby_fragment(alice, cookie)
    token = html.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert token and token != cookie  # masked, not the secret itself
    response = client.post(f"/rooms/{room.pk}/tables/new/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302 and Table.objects.count() == 1
    assert 'name="csrfmiddlewaretoken"' not in render_lobby_fragment(alice, None)
    assert client.post(f"/rooms/{room.pk}/tables/new/", {"csrfmiddlewaretoken": "x" * 64}).status_code == 403


def test_a_seated_player_can_leave_mid_hand_from_the_table_page(client_for, bot_table, alice):
    client = client_for(alice)
    page = client.get(f"/table/{bot_table.pk}/").content.decode()
    assert 'data-testid="leave"' in page and "hx-confirm" in page
    assert client.post(f"/table/{bot_table.pk}/stand/").status_code == 302
    assert not bot_table.seats.filter(user=alice).exists()
    assert 'data-testid="leave"' not in client.get(f"/table/{bot_table.pk}/").content.decode()


def test_leaving_mid_hand_tells_the_penalty_paid(client_for, bot_table, alice):
    from ledger.models import Penalty

    response = client_for(alice).post(f"/table/{bot_table.pk}/stand/", follow=True)
    penalty = Penalty.objects.get(user=alice)
    assert f"罚 {penalty.amount.normalize()} 分" in response.content.decode()
    assert penalty.amount > 0


def test_fill_with_a_chosen_bot_level(client_for, room, alice):
    from games.engine.bots import levels

    table = services.table_create(room_id=room.pk, user=alice)
    client = client_for(alice)
    assert 'data-testid="bot-level"' in client.get(f"/table/{table.pk}/").content.decode()
    level = levels()[-1]
    assert client.post(f"/table/{table.pk}/fill/", {"level": level}).status_code == 302
    assert set(table.seats.filter(is_bot=True).values_list("bot_level", flat=True)) == {level}


def test_fill_with_an_unknown_level_changes_nothing(client_for, room, alice):
    table = services.table_create(room_id=room.pk, user=alice)
    response = client_for(alice).post(f"/table/{table.pk}/fill/", {"level": "<b>god</b>"}, follow=True)
    assert response.status_code == 200 and "机器人等级" in response.content.decode()
    assert not table.seats.filter(is_bot=True).exists()


def test_commitment_shown_during_the_hand_and_verifiable_after(client_for, bot_table, alice):
    import hashlib

    from .helpers import play_until_ended

    hand = bot_table.matches.get().hands.get()
    assert hand.commitment[:10] in client_for(alice).get(f"/table/{bot_table.pk}/").content.decode()
    play_until_ended(bot_table, {0: alice})
    html = client_for(alice).get(f"/table/{bot_table.pk}/").content.decode()
    hand.refresh_from_db()
    wall = hand.result["wall"]
    assert hand.seed in html and wall in html
    assert hashlib.sha256(f"{hand.seed}:{wall}".encode()).hexdigest() == hand.commitment


def test_lobby_hides_tables_everyone_left(client_for, room, alice):
    table = services.table_create(room_id=room.pk, user=alice)
    assert f'data-table="{table.pk}"' in client_for().get("/").content.decode()
    services.table_stand(table_id=table.pk, user=alice)
    assert f'data-table="{table.pk}"' not in client_for().get("/").content.decode()


def test_countdown_only_for_the_person_being_waited_on(bot_table, alice, bob):
    from django.utils import timezone

    from games.presentation.rendering import table_context

    from .helpers import state_of

    seen = {"bot_turn": None, "alice_turn": None}
    for _ in range(500):
        state = state_of(bot_table)
        if state.phase == "ended" or all(v is not None for v in seen.values()):
            break
        if state.phase == "turn":
            key = "alice_turn" if state.current_seat == 0 else "bot_turn"
            if seen[key] is None:
                seen[key] = (
                    table_context(bot_table, alice)["deadline"],
                    table_context(bot_table, bob)["deadline"],
                )
        if 0 in state.pending_seats() and state.legal_actions(0):
            move = str(state.timeout_action(0))
            services.table_act(
                table_id=bot_table.pk, user=alice, action=Move.parse(move), version=bot_table.version
            )
        else:
            # Look at the bot's turn before it moves: the clock only plays it on the next tick.
            services.clock_tick(now=timezone.now())
    assert seen["alice_turn"] is not None and all(d is not None for d in seen["alice_turn"])
    if seen["bot_turn"] is not None:
        assert seen["bot_turn"] == (None, None)
