"""Difference frames converge: a socket that missed frames shows exactly what a fresh render shows.

Four people play a hand and a half through the services (one in 托管, so bots answer too) and every
version is rendered for a seated viewer and a spectator. For pairs of versions (a version to the
next, and across gaps of several versions, through the claim windows, the settlement and the next
deal), the page a browser shows after the full frame of the older version and then the difference
frame to the newer one must be the page of a fresh full frame of the newer version (region by
region, the board's regions included), and a difference frame carries only regions that changed.
A page served over HTTP shows the same regions as a socket's full frame (but for the CSRF token and
the clock's `data-now`).
"""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games import services
from games.models import Seat, Table
from games.presentation import rendering
from tests.framepage import Page, top_elements

from .helpers import press_next_hand_for_all, start_match, state_of
from .wsclient import frame_from, frame_version

NOW = re.compile(r'data-now="\d+"')
TOKEN = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')


@pytest.fixture
def four(room, make_user):
    users = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    table = services.table_create(room_id=room.pk, user=users[0])
    for user in users[1:]:
        services.table_sit(table_id=table.pk, user=user)
    start_match(table.pk)
    Seat.objects.filter(table_id=table.pk, index=3).update(autoplay=True)
    return table, users


def screens_of_every_version(table: Table, users: list, viewers: list, versions: int) -> list[list]:
    """Per version, each viewer's `Screen` (rendered afresh)."""
    out = []
    hands = 0
    while len(out) < versions and hands < 2:
        out.append(
            [rendering.render_for_viewers(table.pk, [(v, "NOTPROVIDED", None)])[0][0] for v in viewers]
        )
        state = state_of(table)
        if state.phase == "ended":
            hands += 1
            press_next_hand_for_all(table.pk)
            continue
        seat = next(s for s in state.pending_seats() if state.legal_actions(s))
        services.table_act(
            table_id=table.pk, user=users[seat], action=str(state.timeout_action(seat)), version=table.version
        )
        table.refresh_from_db()
    return out


def test_a_socket_that_missed_frames_shows_what_a_fresh_render_shows(four):
    table, users = four
    viewers = [users[0], AnonymousUser()]
    screens = screens_of_every_version(table, users, viewers, versions=200)
    assert len(screens) > 60
    pairs = [(i, i + 1) for i in range(len(screens) - 1)]
    rng = random.Random(25)
    pairs += [tuple(sorted(rng.sample(range(len(screens)), 2))) for _ in range(80)]
    empty = 0
    for old_index, new_index in pairs:
        for old, new in zip(screens[old_index], screens[new_index], strict=True):
            diff = rendering.frame(old, new)
            if not diff:
                empty += 1
                assert shows(rendering.frame(None, old)) == shows(rendering.frame(None, new))
                continue
            assert frame_from(diff) == old.version and frame_version(diff) == new.version
            assert shows(rendering.frame(None, old), diff) == shows(rendering.frame(None, new)), (
                old_index,
                new_index,
            )
            # Only what changed travels: every region of the frame differs from what the socket showed.
            before, fresh = shows(rendering.frame(None, old)), shows(rendering.frame(None, new))
            for element_id, _ in top_elements(diff):
                if element_id not in ("frame-stamp", "board"):
                    assert before.get(element_id) != fresh[element_id], element_id
    assert empty > 0  # some versions change nothing a viewer shows (a claim passed by another seat)


def shows(*frames: str) -> dict[str, str]:
    """The regions a page shows after `frames`, but for the stamp (which says where a frame came from)."""
    page = Page()
    for frame in frames:
        page = page.after(frame)
    return {name: html for name, html in page.regions.items() if name != "frame-stamp"}


def test_the_page_shows_what_a_full_frame_shows(four, client: Client):
    table, users = four
    client.force_login(users[1])
    page = client.get(f"/table/{table.pk}/").content.decode()
    _, frame = rendering.render_table_fragments(table.pk, users[1])
    from_page = Page().after("".join(html for _, html in top_elements(_regions_of(page))))
    from_frame = Page().after(frame)
    assert set(from_frame.regions) <= set(from_page.regions)
    for name, html in from_frame.regions.items():
        assert _settled(from_page.regions[name]) == _settled(html), name


def _regions_of(page: str) -> str:
    """The table's regions of a page: the children of #table-root."""
    return page[page.index(">", page.index('id="table-root"')) + 1 :]


def _settled(html: str) -> str:
    return TOKEN.sub("", NOW.sub("", html))
