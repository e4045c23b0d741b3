"""The string-built fragments (games/fragments.py) are byte for byte what the template renders.

Whole hands are played by four people; at every version each of them and a spectator get every
fragment both ways (the template partial and the string builder), and every seat block is compared
as well. A player's display name carries markup characters (escaping), one plays on auto-play
(the cancel bar and badge), and the frames go through claims, turns with a countdown and a drawn
tile, the end of the hand, and the next hand.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe

from accounts.models import Profile
from games import fragments, rendering, services, store
from games.models import Seat, Table

from .helpers import start_match, state_of


@pytest.fixture(autouse=True)
def _one_clock_reading(monkeypatch):
    now = timezone.now()
    monkeypatch.setattr(rendering.timezone, "now", lambda: now)


@pytest.fixture
def four(room, make_user):
    users = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    Profile.objects.create(user=users[1], display_name='<b>Ben</b> & "co"')
    table = services.table_create(room_id=room.pk, user=users[0])
    for user in users[1:]:
        services.table_sit(table_id=table.pk, user=user)
    return table, users


def compare_frame(table_id: int, user, csrf_token: str, seen: set[str]) -> None:
    table, seats = store.table_with_seats(table_id)
    ctx = rendering.table_context(table, user, seats)
    ctx.update(oob=True, user=user, csrf_token=csrf_token)
    for name, covered, build in rendering._PARTS:
        expected = render_to_string(f"games/table.html#{name}", ctx)
        if covered(ctx):
            assert build(ctx) == expected, (name, table.version, user)
            seen.add(name)
        for mark in (
            "countdown",
            "discard-drawn",
            "choice-",
            "claim-tile",
            "cancel-autoplay",
            "&lt;b&gt;Ben",
        ):
            if mark in expected:
                seen.add(mark)
    has_state = ctx["state"] is not None
    for seat in ctx["seats"]:
        expected = render_to_string("games/table.html#seatblock", {"s": seat, "state": has_state})
        assert fragments.seat_block(seat, has_state) == expected, (seat, table.version)
        assert ctx["seat_html"][seat.position] == expected
        seen.update(f"block-{flag}" for flag in ("revealed", "melds", "flowers") if getattr(seat, flag))


def test_string_fragments_match_the_template_over_whole_hands(four):
    table, users = four
    viewers = [
        (user, token) for user, token in zip(users, ["NOTPROVIDED", "a" * 64, "", "b" * 64], strict=True)
    ]
    viewers.append((AnonymousUser(), "NOTPROVIDED"))
    seen: set[str] = set()
    for user, token in viewers:
        compare_frame(table.pk, user, token, seen)  # waiting: seat blocks without a state
    start_match(table.pk)
    Seat.objects.filter(table_id=table.pk, index=3).update(autoplay=True)
    hands = 0
    for _ in range(3000):
        for user, token in viewers:
            compare_frame(table.pk, user, token, seen)
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
    assert {"board", "controls", "settlement", "countdown", "discard-drawn", "choice-"} <= seen
    assert {"cancel-autoplay", "&lt;b&gt;Ben", "block-revealed"} <= seen


@pytest.mark.parametrize(
    "value",
    [None, True, False, 0, -7, 2.5, Decimal("1.50"), "<a href='x'>&\"", mark_safe("<b>ok</b>"), "空座 empty"],
)
def test_a_value_is_written_as_the_template_writes_it(value):
    expected = Template("{% load l10n %}{% localize off %}{{ v }}{% endlocalize %}").render(
        Context({"v": value})
    )
    assert fragments._text(value) == expected


def test_a_datetime_is_written_as_the_template_writes_it():
    moment = timezone.now()
    expected = Template("{% load l10n %}{% localize off %}{{ v }}|{{ v|date:'U' }}{% endlocalize %}").render(
        Context({"v": moment})
    )
    assert f"{fragments._text(moment)}|{fragments._timestamp(moment)}" == expected
