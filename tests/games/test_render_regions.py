"""The table's regions (templates/jinja2/games/table/) over whole hands, for every kind of viewer.

Four people play two whole hands (one on auto-play, one with markup in their display name) while a
spectator watches; at every version each of them gets a frame, and the frame's structure is checked
against what the engine lets that viewer see: one board, controls and settlement section each, swapped
out of band, after the stamp with its version; four seat blocks, the viewer's own at the bottom; in the controls, exactly the viewer's
concealed tiles, a discard button for exactly the discards the engine allows, and one button per other
legal action; nothing but public information for the spectator. The frames go through turns with a
countdown and a drawn tile, claims, the settlement and the next hand.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template
from django.utils import timezone

from accounts.models import Profile
from games import services
from games.models import Seat, Table
from games.presentation import rendering, viewmodels
from games.presentation.jinja import csrf_field, timestamp
from games.services.commands import Move

from .helpers import press_next_hand_for_all, start_match, state_of

SECTION = re.compile(r'<section id="(\w+)"[^>]*hx-swap-oob="morph"')
SEAT_BLOCK = re.compile(r'<div id="seat-\d" class="seat seat-(\w+)[^"]*" data-seat="(\d)">')


@pytest.fixture
def four(room, make_user):
    users = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    Profile.objects.create(user=users[1], display_name='<b>Ben</b> & "co"')
    table = services.table_create(room_id=room.pk, user=users[0])
    for user in users[1:]:
        services.table_sit(table_id=table.pk, user=user)
    return table, users


def region(html: str, name: str) -> str:
    start = html.index(f'<section id="{name}"')
    return html[start : html.index("</section>", start)]


def check_frame(table_id: int, seat: int | None, user, seen: set[str]) -> None:
    version, html = rendering.render_table_fragments(table_id, user)
    state = state_of(Table.objects.get(pk=table_id))
    view = state.view(seat)
    assert SECTION.findall(html) == ["board", "controls", "settlement"]
    assert "<b>Ben" not in html
    board, controls = region(html, "board"), region(html, "controls")
    blocks = SEAT_BLOCK.findall(board)
    assert sorted(int(index) for _, index in blocks) == [0, 1, 2, 3]
    assert sorted(position for position, _ in blocks) == ["bottom", "left", "right", "top"]
    assert (str(seat if seat is not None else 0)) == dict(blocks)["bottom"]
    assert f'<i id="frame-stamp" hidden data-from="" data-version="{version}" hx-swap-oob="morph">' in html
    if 'data-zone="revealed"' in board:
        seen.add("block-revealed")
    if view["phase"] != "ended":
        assert 'class="settlement"' in html and "settlement open" not in html
    else:
        seen.add("settlement open")
        assert html.count("data-payment=") == 4
    if seat is None:
        assert 'data-zone="hand"' not in controls and "ws-send" not in controls
        assert "观战中" in controls
        return
    if view["phase"] == "ended":
        assert 'data-zone="hand"' not in controls
        return
    hand = controls[
        controls.index('data-zone="hand"') : controls.index("</div>", controls.index('data-zone="hand"'))
    ]
    shown = re.findall(r'data-tile="(\w+)"', hand)
    expected = sorted(view["hand"], key=viewmodels.tile_order) + ([view["drawn"]] if view["drawn"] else [])
    assert shown == expected
    legal = view["legal_actions"]
    discards = re.findall(rf'name="action" value="({seat}:discard:\w+)"', hand)
    assert sorted(set(discards)) == sorted(a for a in legal if ":discard:" in a)
    buttons = re.findall(r'<button name="action" value="([^"]+)" class="choice ', controls)
    assert sorted(buttons) == sorted(a for a in legal if ":discard:" not in a)
    for mark in ("countdown", "discard-drawn", "choice-", "claim-tile", "cancel-autoplay", "&lt;b&gt;Ben"):
        if mark in html:
            seen.add(mark)


def test_whole_hands_render_for_every_viewer(four):
    table, users = four
    viewers = [*enumerate(users), (None, AnonymousUser())]
    seen: set[str] = set()
    start_match(table.pk)
    Seat.objects.filter(table_id=table.pk, index=3).update(autoplay=True)
    hands = 0
    for _ in range(3000):
        for seat, user in viewers:
            check_frame(table.pk, seat, user, seen)
        state = state_of(table)
        if state.phase == "ended":
            hands += 1
            if hands == 2:
                break
            press_next_hand_for_all(table.pk)
            continue
        seat = next(s for s in state.pending_seats() if state.legal_actions(s))
        move = str(state.timeout_action(seat))
        version = Table.objects.get(pk=table.pk).version
        services.table_act(table_id=table.pk, user=users[seat], action=Move.parse(move), version=version)
    assert hands == 2
    assert {"countdown", "discard-drawn", "choice-", "cancel-autoplay", "&lt;b&gt;Ben"} <= seen
    assert {"settlement open", "block-revealed"} <= seen


def test_the_waiting_room_offers_what_each_viewer_may_do(room, make_user):
    owner, other = make_user("ann"), make_user("zed")
    table = services.table_create(room_id=room.pk, user=owner)
    _, mine = rendering.render_table_fragments(table.pk, owner, "a" * 32)
    _, theirs = rendering.render_table_fragments(table.pk, other)
    _, anonymous = rendering.render_table_fragments(table.pk, AnonymousUser())
    assert 'data-testid="add-bot-1"' in mine and 'data-testid="sit-1"' not in mine
    assert 'name="csrfmiddlewaretoken"' in mine  # the owner's browser cookie was known
    assert 'data-testid="sit-1"' in theirs and 'data-testid="add-bot-1"' not in theirs
    assert "csrfmiddlewaretoken" not in theirs
    assert "登录后入座" in anonymous and 'data-testid="add-bot-1"' not in anonymous


@pytest.mark.parametrize(
    "moment", [datetime(2026, 12, 2, 0, 30, 15, 900000, tzinfo=UTC), timezone.now(), datetime(2026, 1, 1, 12)]
)
def test_timestamp_is_what_the_date_filter_writes(moment):
    assert timestamp(moment) == Template("{{ v|date:'U' }}").render(Context({"v": moment}))


@pytest.mark.parametrize("token", ["", None, "NOTPROVIDED"])
def test_no_token_no_hidden_field(token):
    assert csrf_field(token) == ""


def test_a_token_is_written_escaped():
    assert csrf_field('a"b') == '<input type="hidden" name="csrfmiddlewaretoken" value="a&quot;b">'
