"""The staff pages (Django admin): each action as staff, refused for non-staff, logged, through services."""

from __future__ import annotations

import html
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Hand, Table
from ledger.models import Ban, Journal, LedgerEntry, Penalty
from ledger.services import balance_of, journal_total

from .helpers import play_until_ended

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser(username="boss", password="pw-123456", email="b@x.cn")


@pytest.fixture
def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def player_client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def ended_hand(bot_table, alice) -> Hand:
    play_until_ended(bot_table, {0: alice})
    return Hand.objects.get(match__table=bot_table)


def logged(obj, flag) -> bool:
    return LogEntry.objects.filter(object_id=str(obj.pk), action_flag=flag).exists()


# --- refused for non-staff -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/admin/",
        "/admin/ledger/penalty/",
        "/admin/ledger/penalty/add/",
        "/admin/ledger/ledgerentry/",
        "/admin/ledger/ban/add/",
        "/admin/games/room/",
        "/admin/games/table/",
    ],
)
def test_non_staff_cannot_open_the_admin(player_client, url):
    response = player_client.get(url)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_non_staff_cannot_issue_a_penalty_or_ban(player_client, ended_hand, alice, bob):
    response = player_client.post(
        "/admin/ledger/penalty/add/", {"hand": ended_hand.pk, "seat": 0, "reason": "x"}
    )
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    response = player_client.post("/admin/ledger/ban/add/", {"user": bob.pk, "reason": "x"})
    assert response.status_code == 302
    assert not Penalty.objects.exists() and not Ban.objects.exists()


def test_staff_without_permissions_is_refused(django_user_model, ended_hand):
    clerk = django_user_model.objects.create_user(username="clerk", password="pw-123456", is_staff=True)
    client = Client()
    client.force_login(clerk)
    assert client.get("/admin/ledger/penalty/add/").status_code == 403
    response = client.post("/admin/ledger/penalty/add/", {"hand": ended_hand.pk, "seat": 0, "reason": "x"})
    assert response.status_code == 403
    assert not Penalty.objects.exists()


# --- penalties -----------------------------------------------------------------------------------


def test_staff_issue_a_penalty_by_hand(staff_client, staff, ended_hand, alice):
    before = balance_of(alice)
    response = staff_client.post(
        "/admin/ledger/penalty/add/", {"hand": ended_hand.pk, "seat": 0, "reason": "slow play"}
    )
    assert response.status_code == 302, response.content[:2000]
    penalty = Penalty.objects.get()
    assert (penalty.user, penalty.kind, penalty.issued_by, penalty.reason) == (
        alice,
        "admin",
        staff,
        "slow play",
    )
    assert journal_total(penalty.journals.get()) == 0
    assert balance_of(alice) == before - Decimal("2.00")
    assert logged(penalty, ADDITION)
    assert staff_client.get("/admin/ledger/penalty/").status_code == 200
    assert staff_client.get(f"/admin/ledger/penalty/{penalty.pk}/change/").status_code == 200


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"seat": 0, "reason": ""}, "reason"),
        ({"seat": 0, "reason": "   "}, "reason"),
        ({"seat": 7, "reason": "x"}, "seat"),
    ],
)
def test_penalty_form_errors_write_nothing(staff_client, ended_hand, data, field):
    response = staff_client.post("/admin/ledger/penalty/add/", {"hand": ended_hand.pk, **data})
    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    assert not Penalty.objects.exists() and not Journal.objects.filter(kind="penalty").exists()


def test_a_bot_seat_cannot_be_penalised(staff_client, ended_hand):
    response = staff_client.post(
        "/admin/ledger/penalty/add/", {"hand": ended_hand.pk, "seat": 2, "reason": "x"}
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors()
    assert not Penalty.objects.exists()


def test_staff_reverse_a_penalty_with_a_reason(staff_client, staff, ended_hand, alice):
    before = balance_of(alice)
    services_penalty = staff_client.post(
        "/admin/ledger/penalty/add/", {"hand": ended_hand.pk, "seat": 0, "reason": "mistake"}
    )
    assert services_penalty.status_code == 302
    penalty = Penalty.objects.get()
    url = reverse("admin:ledger_penalty_reverse", args=[penalty.pk])
    assert staff_client.post(url, {"reason": ""}).status_code == 200  # reason required
    assert not penalty.is_reversed
    assert staff_client.post(url, {"reason": "appeal"}).status_code == 302
    assert penalty.is_reversed and balance_of(alice) == before
    reversal = Journal.objects.get(kind="reversal")
    assert journal_total(reversal) == 0 and reversal.created_by == staff
    assert logged(penalty, CHANGE)
    staff_client.post(url, {"reason": "again"})
    assert Journal.objects.filter(kind="reversal").count() == 1


def test_penalty_cannot_be_edited_or_deleted_in_the_admin(staff_client, ended_hand):
    staff_client.post("/admin/ledger/penalty/add/", {"hand": ended_hand.pk, "seat": 0, "reason": "x"})
    penalty = Penalty.objects.get()
    assert staff_client.get(f"/admin/ledger/penalty/{penalty.pk}/delete/").status_code == 403
    staff_client.post(f"/admin/ledger/penalty/{penalty.pk}/change/", {"reason": "edited"})
    assert Penalty.objects.get().reason == "x"


def test_ledger_entries_are_read_only(staff_client, ended_hand):
    entry = LedgerEntry.objects.first()
    assert staff_client.get("/admin/ledger/ledgerentry/").status_code == 200
    assert staff_client.get(f"/admin/ledger/ledgerentry/{entry.pk}/change/").status_code == 200
    assert staff_client.get("/admin/ledger/ledgerentry/add/").status_code == 403
    assert staff_client.get(f"/admin/ledger/ledgerentry/{entry.pk}/delete/").status_code == 403
    amount = entry.amount
    staff_client.post(f"/admin/ledger/ledgerentry/{entry.pk}/change/", {"amount": "999"})
    assert LedgerEntry.objects.get(pk=entry.pk).amount == amount


# --- players -------------------------------------------------------------------------------------


def test_ban_stands_a_waiting_player_up_and_unban_lets_them_sit(staff_client, room, alice, bob):
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_sit(table_id=table.pk, user=bob)
    response = staff_client.post("/admin/ledger/ban/add/", {"user": bob.pk, "reason": "cheating"})
    assert response.status_code == 302
    ban = Ban.objects.get()
    assert logged(ban, ADDITION)
    assert not table.seats.filter(user=bob).exists()
    with pytest.raises(services.ServiceError):
        services.table_sit(table_id=table.pk, user=bob)
    response = staff_client.post("/admin/ledger/ban/", {"action": "lift_bans", "_selected_action": [ban.pk]})
    assert response.status_code == 302
    ban.refresh_from_db()
    assert ban.lifted is not None and logged(ban, CHANGE)
    services.table_sit(table_id=table.pk, user=bob)
    assert table.seats.filter(user=bob).exists()


def test_ban_needs_a_reason(staff_client, bob):
    assert staff_client.post("/admin/ledger/ban/add/", {"user": bob.pk, "reason": ""}).status_code == 200
    assert not Ban.objects.exists()


def test_a_banned_player_in_a_hand_is_stood_up_after_it(staff_client, bot_table, alice):
    staff_client.post("/admin/ledger/ban/add/", {"user": alice.pk, "reason": "abuse"})
    seat = bot_table.seats.get(index=0)
    assert seat.user == alice and seat.leave_after_hand  # the hand goes on
    play_until_ended(bot_table, {0: alice})
    seat.refresh_from_db()
    assert seat.user is None and seat.is_bot
    assert not Penalty.objects.exists()  # removed by staff, not a leaver


# --- rooms and tables ----------------------------------------------------------------------------


def room_form(room, **changes) -> dict:
    data = {
        "name": room.name,
        "preset": room.preset,
        "discard_timeout": room.discard_timeout,
        "claim_timeout": room.claim_timeout,
        "bot_delay": str(room.bot_delay),
        "claim_pause": str(room.claim_pause),
        "bot_level": room.bot_level,
        "stakes": "[1, 2, 5]",
        "ready_timeout": room.ready_timeout,
        "grace_period": room.grace_period,
        "is_open": "on",
        "allowed_presets": ["standard", "lazi", "home"],
        "allowed_options": ["menqing", "declare_ready"],
        "timer_min": 5,
        "timer_max": 120,
        "opt_hand_loss_cap_lezi": 5,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_staff_edit_room_settings(staff_client, room):
    url = f"/admin/games/room/{room.pk}/change/"
    response = staff_client.post(url, room_form(room, stakes="[10, 2]", ready_timeout=30, grace_period=90))
    assert response.status_code == 302
    room.refresh_from_db()
    assert (room.stakes, room.ready_timeout, room.grace_period) == ([2, 10], 30, 90)
    assert logged(room, CHANGE)


@pytest.mark.parametrize("stakes", ["[]", "[0]", "[1.5]", '["a"]', "5", "[true]"])
def test_bad_stakes_are_refused(staff_client, room, stakes):
    response = staff_client.post(f"/admin/games/room/{room.pk}/change/", room_form(room, stakes=stakes))
    assert response.status_code == 200
    room.refresh_from_db()
    assert room.stakes == [1, 2, 5, 10]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"opt_menqing": "triple"}, "opt_menqing"),
        ({"opt_garden": "-3"}, "opt_garden"),
        ({"allowed_presets": []}, "allowed_presets"),
        ({"timer_min": 30, "timer_max": 10}, "timer_max"),
        ({"bot_level": "grandmaster"}, "bot_level"),
    ],
)
def test_bad_house_options_and_bot_levels_are_refused(staff_client, room, changes, field):
    response = staff_client.post(f"/admin/games/room/{room.pk}/change/", room_form(room, **changes))
    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    room.refresh_from_db()
    assert (room.rules_options, room.bot_level) == ({}, "easy")


def test_good_house_options_are_saved(staff_client, room):
    response = staff_client.post(f"/admin/games/room/{room.pk}/change/", room_form(room, opt_menqing="lezi"))
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.rules_options == {"menqing": "lezi"}


def test_closing_a_room_closes_its_tables_after_the_current_hand(staff_client, room, bot_table, alice, bob):
    waiting = services.table_create(room_id=room.pk, user=bob)
    response = staff_client.post(f"/admin/games/room/{room.pk}/change/", room_form(room, is_open=None))
    assert response.status_code == 302
    room.refresh_from_db()
    waiting.refresh_from_db()
    bot_table.refresh_from_db()
    assert not room.is_open
    assert waiting.status == Table.Status.FINISHED
    assert bot_table.status == Table.Status.PLAYING and bot_table.closing
    play_until_ended(bot_table, {0: alice})
    bot_table.refresh_from_db()
    assert bot_table.status == Table.Status.FINISHED and bot_table.deadline is None
    assert bot_table.matches.get().ended is not None
    with pytest.raises(services.ServiceError) as err:
        services.table_next_hand(table_id=bot_table.pk, user=alice)
    assert err.value.code == "table_not_playing"


def test_staff_view_a_table_and_close_it(staff_client, bot_table, alice):
    page = staff_client.get(f"/admin/games/table/{bot_table.pk}/change/")
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert '"wall_remaining"' in text and '"concealed_count"' in text
    assert '"hand":' not in text and '"wall":' not in text  # the public view only
    staff_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = staff_client.post(
        "/admin/games/table/", {"action": "close_tables", "_selected_action": [bot_table.pk]}
    )
    assert response.status_code == 302
    told = html.unescape(staff_client.get(response["Location"]).content.decode())
    assert "Closed (a table in a hand closes when the hand ends)." in told and "已关闭" not in told
    bot_table.refresh_from_db()
    assert bot_table.closing and logged(bot_table, CHANGE)
    play_until_ended(bot_table, {0: alice})
    bot_table.refresh_from_db()
    assert bot_table.status == Table.Status.FINISHED
    assert bot_table.matches.get().ended <= timezone.now()


def test_room_settings_changed_in_the_admin_reach_the_waiting_tables_and_the_lobby(
    staff_client, room, bot_table, bob, monkeypatch, django_capture_on_commit_callbacks
):
    """Through `room_save`: a waiting table's screen (its stake choices) is pushed again; a table in
    play keeps its version, so nobody's click goes stale."""
    from games.services import broadcast

    sent = []
    monkeypatch.setattr(broadcast, "_send", lambda group, message: sent.append((group, message)))
    waiting = services.table_create(room_id=room.pk, user=bob)
    waiting.refresh_from_db()
    bot_table.refresh_from_db()
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(f"/admin/games/room/{room.pk}/change/", room_form(room, stakes="[3, 6]"))
    assert response.status_code == 302
    assert Table.objects.get(pk=waiting.pk).version == waiting.version + 1
    assert Table.objects.get(pk=bot_table.pk).version == bot_table.version
    updates = {m.get("table_id"): m.get("version") for _, m in sent if m["type"] == "table.update"}
    assert updates == {waiting.pk: waiting.version + 1}
    assert any(m["type"] == "lobby.update" for _, m in sent)
