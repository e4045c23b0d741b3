"""The new-table form and the invite link (issue 14): GET/POST, clear errors for bad input (never a
500, nothing created), a private table's link and page, and the room admin's option fields."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from games.models import Room, Table
from games.services.room_settings import table_rules, table_timers

pytestmark = pytest.mark.django_db


def form_data(**changes) -> dict:
    data = {
        "preset": "lazi",
        "stake": "5",
        "discard_timeout": "25",
        "claim_timeout": "12",
        "private": "on",
        "opt_payment": "bao_chong",
        "opt_declare_ready": "on",
        "opt_swap_tiles": "on",
        "opt_menqing": "lezi",
        "opt_gangkai": "floor",
        "opt_haidi": "off",
        "opt_hand_loss_cap_lezi": "5",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_the_form_lists_presets_and_every_option_with_its_names(client_for, room, alice):
    response = client_for(alice).get(f"/rooms/{room.pk}/tables/choose/")
    html = response.content.decode()
    assert response.status_code == 200
    for text in ("上海清混碰", "喇子", "家规", "敲", "换牌", "逛花园", "清一色九张落地包输"):
        assert text in html
    assert 'name="opt_garden"' in html and 'name="private"' in html and 'name="discard_timeout"' in html
    assert "埋五张" in html


def test_the_form_names_the_options_in_english_for_an_english_reader(client_for, room, alice):
    client = client_for(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(f"/rooms/{room.pk}/tables/choose/").content.decode()
    for text in (
        "Standard",
        "Lazi",
        "Home",
        "Ready",
        "Garden (chip stacks)",
        "bury five tiles",
        "at least 1 lezi",
    ):
        assert text in html
    assert "逛花园" not in html and "埋五张" not in html


def test_the_form_needs_a_login(client_for, room):
    response = client_for().get(f"/rooms/{room.pk}/tables/choose/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_posting_the_form_opens_a_private_table_with_the_choices(client_for, room, alice, bob):
    a = client_for(alice)
    response = a.post(f"/rooms/{room.pk}/tables/choose/", form_data(preset="standard"))
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/table/{table.pk}/"
    rules = table_rules(table)
    assert (rules.preset, rules.payment, rules.declare_ready, rules.swap_tiles, rules.menqing) == (
        "standard",
        "bao_chong",
        True,
        True,
        "lezi",
    )
    assert (rules.garden, rules.qingyise_9_bao, table_timers(table), table.stake) == (
        "off",
        False,
        (25, 12),
        5,
    )
    assert table.private and re.fullmatch(r"[A-Z2-9]{14}", table.invite_code)

    page = a.get(f"/table/{table.pk}/").content.decode()
    assert f"/join/{table.invite_code}/" in page and 'data-option="declare_ready"' in page
    assert f'data-table="{table.pk}"' not in client_for(bob).get("/").content.decode()  # not listed

    b = client_for(bob)  # one browser: the invite it opened lets it sit
    invite = b.get(f"/join/{table.invite_code.lower()}/")
    html = invite.content.decode()
    assert invite.status_code == 200
    assert "上海清混碰" in html and "包冲" in html and 'data-testid="invite-sit"' in html
    assert b.post(f"/table/{table.pk}/sit/").status_code == 302
    assert table.seats.filter(user=bob).exists()
    assert 'data-testid="invite-sit"' not in b.get(f"/join/{table.invite_code}/").content.decode()
    assert 'data-testid="invite-sit"' not in client_for().get(f"/join/{table.invite_code}/").content.decode()


def test_a_private_table_cannot_be_reached_by_guessing_its_address(client_for, room, alice, bob, make_user):
    client_for(alice).post(f"/rooms/{room.pk}/tables/choose/", form_data())
    table = Table.objects.get()
    for stranger in (client_for(bob), client_for()):
        assert stranger.get(f"/table/{table.pk}/").status_code == 404
    b = client_for(bob)
    assert b.post(f"/table/{table.pk}/sit/").status_code == 404
    assert not table.seats.filter(user=bob).exists()

    assert b.get(f"/join/{table.invite_code}/").status_code == 200
    assert b.get(f"/table/{table.pk}/").status_code == 200  # the link opened the table to this browser
    assert client_for(alice).get(f"/table/{table.pk}/").status_code == 200  # seated
    staff = make_user("referee")
    staff.is_staff = True
    staff.save()
    assert client_for(staff).get(f"/table/{table.pk}/").status_code == 200


def test_an_unknown_invite_code_is_a_404(client_for, alice):
    assert client_for(alice).get("/join/ZZZZZZ/").status_code == 404


def test_a_public_table_shows_its_choices_in_the_lobby(client_for, room, alice, bob):
    client_for(alice).post(
        f"/rooms/{room.pk}/tables/choose/", form_data(private=None, opt_garden="40", preset="home")
    )
    table = Table.objects.get()
    assert table.invite_code is None
    html = client_for(bob).get("/").content.decode()
    assert f'data-table="{table.pk}"' in html and "家规" in html and "逛花园" in html and "40" in html


@pytest.mark.parametrize(
    ("room_changes", "changes", "field"),
    [
        ({"allowed_presets": ["standard", "home"]}, {}, "preset"),
        ({}, {"preset": "mahjong"}, "preset"),
        ({}, {"discard_timeout": "2"}, "discard_timeout"),
        ({}, {"discard_timeout": "soon"}, "discard_timeout"),
        ({"timer_max": 20}, {}, "discard_timeout"),
        ({}, {"opt_payment": "everyone"}, "opt_payment"),
        ({}, {"opt_garden": "-1"}, "opt_garden"),
        ({}, {"stake": "3"}, "stake"),
    ],
)
def test_bad_choices_get_a_clear_error_and_create_nothing(
    client_for, room, alice, room_changes, changes, field
):
    Room.objects.filter(pk=room.pk).update(**room_changes)
    response = client_for(alice).post(f"/rooms/{room.pk}/tables/choose/", form_data(**changes))
    assert response.status_code == 400
    form = response.context["form"]
    assert field in form.errors
    html = response.content.decode()
    assert 'role="alert"' in html
    assert not Table.objects.exists()


def test_an_option_the_room_does_not_allow_is_not_offered_and_not_taken(client_for, room, alice):
    Room.objects.filter(pk=room.pk).update(allowed_options=["payment"])
    html = client_for(alice).get(f"/rooms/{room.pk}/tables/choose/").content.decode()
    assert 'name="opt_payment"' in html and 'name="opt_declare_ready"' not in html
    client_for(alice).post(f"/rooms/{room.pk}/tables/choose/", form_data(preset="standard"))
    table = Table.objects.get()
    assert table.options == {"payment": "bao_chong"} and not table_rules(table).declare_ready


def test_a_closed_room_has_no_form(client_for, room, alice):
    Room.objects.filter(pk=room.pk).update(is_open=False)
    assert client_for(alice).get(f"/rooms/{room.pk}/tables/choose/").status_code == 404
    assert client_for(alice).post(f"/rooms/{room.pk}/tables/choose/", form_data()).status_code == 404


@pytest.fixture
def staff_client(make_user) -> Client:
    staff = make_user("staffer")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client(raise_request_exception=False)
    client.force_login(staff)
    return client


def test_the_room_admin_has_a_field_per_option_and_no_raw_json(staff_client, room):
    html = staff_client.get(f"/admin/games/room/{room.pk}/change/").content.decode()
    assert 'name="rules_options"' not in html
    for key in ("menqing", "payment", "declare_ready", "swap_tiles", "garden", "qingyise_9_bao"):
        assert f'name="opt_{key}"' in html and f'name="allowed_options" value="{key}"' in html
    assert 'name="allowed_presets" value="lazi"' in html and 'name="timer_max"' in html


def test_the_room_admin_saves_limits_through_the_service(staff_client, room, alice):
    data = {
        "name": "Limits",
        "preset": "lazi",
        "discard_timeout": "20",
        "claim_timeout": "20",
        "bot_delay": "0",
        "claim_pause": "1",
        "bot_level": "easy",
        "stakes": "[2, 4]",
        "ready_timeout": "15",
        "grace_period": "60",
        "is_open": "on",
        "allowed_presets": ["lazi", "standard"],
        "allowed_options": ["garden"],
        "timer_min": "10",
        "timer_max": "40",
        "opt_payment": "chu_chong",
        "opt_hand_loss_cap_lezi": "5",
    }
    assert staff_client.post("/admin/games/room/add/", data).status_code == 302
    new = Room.objects.get(name="Limits")
    assert (new.allowed_presets, new.allowed_options, new.timer_min, new.timer_max, new.stakes) == (
        ["standard", "lazi"],
        ["garden"],
        10,
        40,
        [2, 4],
    )
    assert new.rules_options == {"payment": "chu_chong"}
    html = Client().get("/").content.decode()  # the room's choices show up for a new table's form
    a = Client()
    a.force_login(alice)
    form = a.get(f"/rooms/{new.pk}/tables/choose/").content.decode()
    assert 'name="opt_garden"' in form and 'name="opt_payment"' not in form and 'value="home"' not in form
    assert "Limits" in html
    refused = staff_client.post("/admin/games/room/add/", {**data, "name": "Bad", "preset": "home"})
    assert refused.status_code == 200 and "allowed_presets" in refused.context["adminform"].form.errors
    assert not Room.objects.filter(name="Bad").exists()


# --- options only the standard preset uses (RULES.md §11) --------------------------------------------


def test_standard_only_options_are_marked_for_the_page_to_show_only_with_that_preset(client_for, room, alice):
    html = client_for(alice).get(f"/rooms/{room.pk}/tables/choose/").content.decode()
    marked = re.findall(r'<p class="field field-opt_(\w+)" data-standard-only', html)
    assert sorted(marked) == sorted(
        ["menqing", "gangkai", "haidi", "payment", "qingyise_9_bao", "hand_loss_cap_lezi"]
    )
    assert '<p class="field field-opt_garden">' in html and "js/table_new.js" in html


def test_a_lazi_table_leaves_out_payment_and_nine_down_with_a_note(client_for, room, alice):
    """Posted anyway (a browser without the script): the table is opened without them, and the
    person is told which of their choices the preset does not use."""
    client = client_for(alice)
    response = client.post(
        f"/rooms/{room.pk}/tables/choose/",
        form_data(preset="lazi", opt_payment="chu_chong", opt_qingyise_9_bao="on", opt_menqing="double"),
        follow=True,
    )
    table = Table.objects.get()
    assert table.options == {"declare_ready": True, "swap_tiles": True, "garden": "off"}
    rules = table_rules(table)
    assert (rules.payment, rules.qingyise_9_bao) == ("discarder", False)
    page = response.content.decode()
    assert "放冲、清一色九张落地包输只用于上海清混碰，这张桌子不用。" in page
    assert 'data-option="payment"' not in page and 'data-option="qingyise_9_bao"' not in page
    assert 'data-option="declare_ready"' in page


def test_choices_left_as_offered_bring_no_note(client_for, room, alice):
    response = client_for(alice).post(
        f"/rooms/{room.pk}/tables/choose/",
        form_data(preset="home", opt_payment="discarder", opt_menqing="double", opt_hand_loss_cap_lezi="5"),
        follow=True,
    )
    assert response.status_code == 200 and "只用于上海清混碰" not in response.content.decode()
    assert "payment" not in Table.objects.get().options


def test_a_room_without_the_standard_preset_refuses_its_options_beside_the_field(staff_client):
    data = {
        "name": "Lazi only",
        "preset": "lazi",
        "discard_timeout": "20",
        "claim_timeout": "20",
        "bot_delay": "0",
        "claim_pause": "1",
        "bot_level": "easy",
        "stakes": "[1]",
        "ready_timeout": "15",
        "grace_period": "60",
        "is_open": "on",
        "allowed_presets": ["lazi"],
        "allowed_options": ["garden"],
        "timer_min": "10",
        "timer_max": "40",
        "opt_payment": "chu_chong",
        "opt_hand_loss_cap_lezi": "5",  # the default (an empty field would turn the cap off)
    }
    refused = staff_client.post("/admin/games/room/add/", data)
    assert refused.status_code == 200
    errors = refused.context["adminform"].form.errors
    assert "opt_payment" in errors and "只用于上海清混碰" in str(errors["opt_payment"])
    assert not Room.objects.filter(name="Lazi only").exists()
    del data["opt_payment"]
    assert staff_client.post("/admin/games/room/add/", data).status_code == 302
