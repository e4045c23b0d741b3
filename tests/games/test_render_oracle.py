"""Oracle for the move to one Jinja2 template per region: every region renders what the old Django
partials rendered (whitespace and entity spelling aside), over whole hands, for four players and a
spectator."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import Profile
from games import fragments, rendering, services
from games.models import Seat, Table

from .helpers import start_match, state_of


@pytest.fixture(autouse=True)
def _one_clock_reading(monkeypatch):
    now = timezone.now()
    monkeypatch.setattr(rendering.timezone, "now", lambda: now)


def norm(text: str) -> str:
    text = html.unescape(str(text))
    text = re.sub(r">\s+<", "><", text)
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture
def four(room, make_user):
    users = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    Profile.objects.create(user=users[1], display_name='<b>Ben</b> & "co"')
    table = services.table_create(room_id=room.pk, user=users[0])
    for user in users[1:]:
        services.table_sit(table_id=table.pk, user=user)
    return table, users


def compare(table_id, user, token, seen):
    table, seats = rendering._load_table(table_id)
    ctx = rendering.table_context(table, user, seats)
    ctx.update(oob=True, user=user, csrf_token=token)
    for name in ("error", "board", "controls", "settlement"):
        old = render_to_string(f"games/_table_before_jinja.html#{name}", ctx)
        new = rendering.render_region(name, ctx)
        assert norm(new) == norm(old), (name, table.version, user)
        assert "<b>Ben" not in new
        seen.add(name)
        for mark in (
            "countdown",
            "discard-drawn",
            "choice-",
            "claim-tile",
            "cancel-autoplay",
            "&lt;b&gt;Ben",
            "settlement open",
            "sit-",
            "add-bot",
        ):
            if mark in new:
                seen.add(mark)
    has_state = ctx["state"] is not None
    for seat in ctx["seats"]:
        old = render_to_string("games/_table_before_jinja.html#seatblock", {"s": seat, "state": has_state})
        assert norm(ctx["seat_html"][seat.position]) == norm(old)
        assert norm(fragments.seat_block(seat, has_state)) == norm(old)


def test_jinja_regions_match_the_django_partials_over_whole_hands(four):
    table, users = four
    viewers = [(u, t) for u, t in zip(users, ["NOTPROVIDED", "a" * 64, "", "b" * 64], strict=True)]
    viewers.append((AnonymousUser(), "NOTPROVIDED"))
    seen = set()
    for user, token in viewers:
        compare(table.pk, user, token, seen)
    start_match(table.pk)
    Seat.objects.filter(table_id=table.pk, index=3).update(autoplay=True)
    hands = 0
    for _ in range(3000):
        for user, token in viewers:
            compare(table.pk, user, token, seen)
        state = state_of(table)
        if state.phase == "ended":
            hands += 1
            if hands == 2:
                break
            services.table_next_hand(table_id=table.pk, user=users[0])
            continue
        seat = next(s for s in state.pending_seats() if state.legal_actions(s))
        move = str(state.timeout_action(seat))
        version = Table.objects.get(pk=table.pk).version
        services.table_act(table_id=table.pk, user=users[seat], action=move, version=version)
    assert hands == 2
    print(sorted(seen))
    assert {
        "board",
        "controls",
        "settlement",
        "countdown",
        "discard-drawn",
        "choice-",
        "cancel-autoplay",
    } <= seen
    assert {"&lt;b&gt;Ben", "settlement open"} <= seen


def test_the_waiting_room_matches(room, make_user):
    owner, other = make_user("ann"), make_user("zed")
    table = services.table_create(room_id=room.pk, user=owner)
    seen = set()
    for user, token in ((owner, "a" * 64), (other, "b" * 64), (AnonymousUser(), "NOTPROVIDED")):
        compare(table.pk, user, token, seen)
    assert {"sit-", "add-bot"} <= seen
