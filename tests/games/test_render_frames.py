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
from games.services.commands import Move
from tests.framepage import INSIDE, Page, top_elements

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
            table_id=table.pk,
            user=users[seat],
            action=Move.of(state.timeout_action(seat)),
            version=table.version,
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
    for old_index, new_index in pairs:
        for old, new in zip(screens[old_index], screens[new_index], strict=True):
            diff = rendering.frame(old, new)
            if not diff:  # a version that changes nothing this viewer shows (a claim passed by another seat)
                assert shows(rendering.frame(None, old)) == shows(rendering.frame(None, new))
                continue
            assert frame_from(diff) == old.version and frame_version(diff) == new.version
            assert shows(rendering.frame(None, old), diff) == shows(rendering.frame(None, new)), (
                old_index,
                new_index,
            )
            # Only what changed travels: every region of the frame differs from what the socket showed.
            before, fresh = shows(rendering.frame(None, old)), shows(rendering.frame(None, new))
            # (#controls-bar, sent alone, changes the #controls a page shows)
            for element_id, _ in top_elements(diff):
                if element_id not in ("frame-stamp", "board"):
                    name = INSIDE.get(element_id, element_id)
                    assert before.get(name) != fresh[name], element_id
    # Whether a deal gives such a version is up to the deal; nothing to send is always nothing.
    assert all(rendering.frame(screen, screen) == "" for screen in screens[-1])


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


def test_a_version_that_changes_nothing_of_a_seats_choices_sends_it_no_controls(four):
    """The forms do not carry the version (the browser adds the frame stamp's): another seat's 托管
    moves the table on, and the seat whose turn it is gets a frame (the other seat's badge, the stamp)
    without its #controls, which it already shows as they are."""
    table, users = four
    state = state_of(table)
    turn = next(s for s in state.pending_seats() if state.legal_actions(s))
    other = next(i for i in range(3) if i != turn)  # seat 3 is already in 托管
    [(before, _)] = rendering.render_for_viewers(table.pk, [(users[turn], "NOTPROVIDED", None)])
    assert 'data-testid="discard' in before.regions["controls"]
    services.table_request_autoplay(table_id=table.pk, user=users[other])
    table.refresh_from_db()
    assert table.version > before.version
    [(after, frame)] = rendering.render_for_viewers(table.pk, [(users[turn], "NOTPROVIDED", None, before)])
    assert after.version == table.version and frame_version(frame) == table.version
    assert after.regions["controls"] == before.regions["controls"]
    assert 'id="controls"' not in frame and 'id="controls-bar"' not in frame
    assert f'id="seat-{other}-head"' in frame  # the 托管 badge
