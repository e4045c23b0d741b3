"""The per-process render caches (games/rendering.py) change nothing anyone sees.

A frame rendered from warm caches equals the frame rendered from cold ones, for a seated person and
for a spectator; a seat block taken from the memo equals the block rendered straight from the
template; and a saved state that differs at the same version is never served from the cache.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils import timezone

from games import rendering, services
from games.models import Table

from .helpers import state_of


def clear_caches() -> None:
    rendering._versions.clear()
    rendering._seat_blocks.clear()
    rendering._loaded.clear()


@pytest.fixture
def mid_hand(bot_table):
    for _ in range(12):
        services.clock_tick(now=timezone.now())
    bot_table.refresh_from_db()
    return bot_table


@pytest.mark.parametrize("who", ["alice", "spectator"])
def test_warm_and_cold_frames_are_the_same(mid_hand, alice, who):
    viewer = alice if who == "alice" else AnonymousUser()
    clear_caches()
    cold = rendering.render_table_fragments(mid_hand.pk, viewer, None)
    warm = rendering.render_table_fragments(mid_hand.pk, viewer, None)
    shared = rendering.render_table_fragments(mid_hand.pk, viewer, None, cold[0], mid_hand.created)
    assert cold == warm == shared
    assert cold[0] == mid_hand.version and 'data-tile="' in cold[1]


def test_seat_blocks_match_the_template(mid_hand, alice):
    clear_caches()
    table = Table.objects.get(pk=mid_hand.pk)
    for viewer in (alice, AnonymousUser()):
        ctx = rendering.table_context(table, viewer)
        for seat in ctx["seats"]:
            direct = render_to_string("games/table.html#seatblock", {"s": seat, "state": True})
            assert ctx["seat_html"][seat.position] == direct
            assert f"seat-{seat.position}" in direct


def test_a_different_state_at_the_same_version_is_not_reused(mid_hand, alice):
    clear_caches()
    table = Table.objects.get(pk=mid_hand.pk)
    before = rendering._version_data(table)
    state = state_of(mid_hand)
    if 0 in state.pending_seats() and state.legal_actions(0):
        action = str(state.timeout_action(0))
        services.table_act(table_id=table.pk, user=alice, action=action, version=table.version)
    else:
        assert services.clock_tick(now=timezone.now()) > 0
    changed = Table.objects.get(pk=mid_hand.pk)
    assert changed.state != table.state
    changed.version = table.version  # as if a writer had forgotten to bump it
    after = rendering._version_data(changed)
    assert after is not before
    assert after.state.to_json() == changed.state
