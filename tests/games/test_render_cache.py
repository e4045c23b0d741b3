"""The per-process render caches (games/presentation/rendering.py) change nothing anyone sees.

A frame rendered from warm caches equals the frame rendered from cold ones, for a seated person and
for a spectator; a seat block taken from the memo equals the block rendered straight from the
template (templates/jinja2/games/table/seat.html); a saved state that differs at the same version is never served from the cache; a state
handed over by the service after its commit renders like one read back; and the viewers of one
version rendering at the same moment read the table once.
"""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from accounts.models import Profile
from games import selectors, services, store
from games.engine.state import GameState
from games.models import Room, Seat, Table
from games.presentation import rendering
from games.services import current_hand
from games.services.commands import Move

from .helpers import state_of


def clear_caches() -> None:
    store.forget_all()
    rendering._parts.clear()


@pytest.fixture(autouse=True)
def _one_clock_reading(monkeypatch):
    """Frames carry the clock (`data-now`, in seconds): renders compared here must not straddle a
    second boundary (a cold first render can take that long)."""
    now = timezone.now()
    monkeypatch.setattr(rendering.timezone, "now", lambda: now)


@pytest.fixture
def mid_hand(bot_table, alice):
    """A hand with tiles in the rivers: the bots play, and alice (seat 0) discards when it is her turn
    (she may be the dealer, and then nothing moves until she does)."""
    for _ in range(200):
        state = state_of(bot_table)
        if sum(len(river) for river in state.rivers) >= 3 or state.phase == "ended":
            break
        if 0 in state.pending_seats() and state.legal_actions(0):
            services.table_act(
                table_id=bot_table.pk,
                user=alice,
                action=Move.of(state.timeout_action(0)),
                version=bot_table.version,
            )
        else:
            services.clock_tick(now=timezone.now())
    bot_table.refresh_from_db()
    assert state_of(bot_table).phase != "ended", "the hand ended before any test could look"
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


def test_seat_parts_match_the_templates(mid_hand, alice):
    """The memoised parts of every seat block are what their templates render for that seat, and the
    board puts them in the block of the seat at its position."""
    clear_caches()
    table = Table.objects.get(pk=mid_hand.pk)
    for viewer in (alice, AnonymousUser()):
        ctx = rendering.table_context(table, viewer)
        board = rendering._screen_of({**ctx, "user": viewer, "csrf_token": "NOTPROVIDED"}).board_html()
        for seat in ctx["seats"]:
            names = ctx["seat_regions"][seat.index]
            assert names == [f"seat-{seat.index}-{part}" for part in ("head", "hand", "open", "river")]
            for name in names:
                part = name.rsplit("-", 1)[1]
                direct = rendering.render_region(f"seat_{part}", {"s": seat}).strip()
                assert ctx["seat_units"][name] == direct
            block = f'<div id="seat-{seat.index}" class="seat seat-{seat.position}'
            assert block in board
            assert board.index(block) < board.index(f'id="seat-{seat.index}-river"')


def test_a_different_state_at_the_same_version_is_not_reused(mid_hand, alice):
    clear_caches()
    table = Table.objects.get(pk=mid_hand.pk)
    before = rendering._version_data(table)
    state = state_of(mid_hand)
    if 0 in state.pending_seats() and state.legal_actions(0):
        action = str(state.timeout_action(0))
        services.table_act(table_id=table.pk, user=alice, action=Move.parse(action), version=table.version)
    else:
        assert services.clock_tick(now=timezone.now()) > 0
    changed = Table.objects.get(pk=mid_hand.pk)
    assert changed.state != table.state
    changed.version = table.version  # as if a writer had forgotten to bump it
    after = rendering._version_data(changed)
    assert after is not before
    assert store.state_json(after.state) == changed.state


def test_a_handed_over_state_renders_like_a_read_one(
    mid_hand, alice, django_capture_on_commit_callbacks, monkeypatch
):
    clear_caches()
    cold = rendering.render_table_fragments(mid_hand.pk, alice, None)
    clear_caches()
    state = state_of(mid_hand)
    assert store.state_json(state) == mid_hand.state  # what the snapshot compares with the saved state
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        committed = store.lock(mid_hand.pk)  # the service's table and seats, as it commits them
        store.save(committed, state)  # the same progress again: the row does not change
    kept = store._snapshots.get(mid_hand.pk, mid_hand.version)
    assert kept.state is state and kept.hand_number == current_hand(mid_hand).number

    def no_replay(*args, **kwargs):
        raise AssertionError("the handed-over state was rebuilt")

    with monkeypatch.context() as patched:
        # monkeypatch puts the classmethod itself back: a plain reassignment would leave from_json
        # bound to GameState, and every subclass (DuplicateState) would then build a GameState.
        patched.setattr(GameState, "from_json", no_replay)
        seeded = rendering.render_table_fragments(
            mid_hand.pk, alice, None, mid_hand.version, mid_hand.created
        )
    assert seeded == cold


def _one_move(table: Table, alice) -> None:
    """Alice's timeout move when she is asked, else the clock's (bots, or the end of a claim pause)."""
    state = state_of(table)
    if 0 in state.pending_seats() and state.legal_actions(0):
        action = str(state.timeout_action(0))
        services.table_act(table_id=table.pk, user=alice, action=Move.parse(action), version=table.version)
    else:
        services.clock_tick(now=timezone.now() + timedelta(minutes=1))


def test_a_version_committed_in_this_process_renders_without_reading_the_table(
    mid_hand, alice, django_capture_on_commit_callbacks, django_assert_num_queries
):
    clear_caches()
    rendering.render_table_fragments(mid_hand.pk, alice, None)  # the sockets' last read
    with django_capture_on_commit_callbacks(execute=True):
        _one_move(mid_hand, alice)
    after = Table.objects.get(pk=mid_hand.pk)
    assert after.version > mid_hand.version
    with django_assert_num_queries(0):
        warm = rendering.render_table_fragments(mid_hand.pk, alice, None, after.version, after.created)
    clear_caches()
    assert warm == rendering.render_table_fragments(mid_hand.pk, alice, None)


def test_a_committed_table_is_not_handed_over_when_someone_new_sits(
    mid_hand, alice, django_capture_on_commit_callbacks, django_assert_num_queries
):
    clear_caches()
    rendering.render_table_fragments(mid_hand.pk, alice, None)
    read, seats = store._snapshots.newest(mid_hand.pk).rows
    seats[1].user_id = alice.pk  # as if another person had sat there when the sockets last read
    with django_capture_on_commit_callbacks(execute=True):
        _one_move(mid_hand, alice)
    after = store._snapshots.newest(mid_hand.pk)
    assert after.version > mid_hand.version and after.state is not None
    assert after.rows is None  # the render of the new version reads


def test_a_handed_over_table_is_not_used_for_another_version(
    mid_hand, alice, django_capture_on_commit_callbacks
):
    clear_caches()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        committed = store.lock(mid_hand.pk)
        store.save(committed, state_of(mid_hand))
        committed.version += 1  # changed after the save: not what was committed at its version
    # The table moved on after the save (its state may have been played on): nothing of it is kept.
    assert store._snapshots.get(mid_hand.pk, mid_hand.version) is None
    assert store._snapshots.get(mid_hand.pk, committed.version) is None
    found = store.render_snapshot(mid_hand.pk, mid_hand.version, mid_hand.created)
    assert found.rows[0] is not committed and found.rows[0].version == mid_hand.version
    assert not found.saved and found.state.to_json() == state_of(mid_hand).to_json()


def test_a_handed_over_state_is_not_used_for_another_saved_state(mid_hand, alice):
    clear_caches()
    state = state_of(mid_hand)
    other = state_of(mid_hand)
    move = other.legal_actions(other.pending_seats()[0])[0]
    other.apply(move)
    table, _ = selectors.table_with_seats(mid_hand.pk)
    table.state = store.state_json(other)  # as if mis-saved at the same version
    store._snapshots.put(store.Snapshot(table, state=other))
    data = rendering._version_data(Table.objects.get(pk=mid_hand.pk))
    assert data.state is not other and data.raw == store.state_json(state)


def test_concurrent_renders_of_one_version_read_the_table_once(mid_hand, monkeypatch):
    """Four viewers' renders start together: the first reads, the others wait for its read."""
    clear_caches()
    table, seats = selectors.table_with_seats(mid_hand.pk)
    rendering._version_data(table)
    viewers = 4
    checked = threading.Semaphore(0)
    reads = []

    def fresh(*args):
        found = original_fresh(*args)
        checked.release()
        return found

    def load(table_id):
        reads.append(table_id)
        if len(reads) == 1:  # hold the first read until every viewer has looked for a shared one
            for _ in range(viewers):
                assert checked.acquire(timeout=10)
        return table, seats

    original_fresh = store._fresh
    monkeypatch.setattr(store, "_fresh", fresh)
    monkeypatch.setattr(store, "table_with_seats", load)
    results = []
    threads = [
        threading.Thread(
            target=lambda: results.append(store.render_snapshot(table.pk, table.version, table.created).rows)
        )
        for _ in range(viewers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert reads == [table.pk]
    assert len(results) == viewers and all(r[0] is table for r in results)


def test_the_prepared_seats_query_reads_what_the_orm_reads(mid_hand, alice):
    Profile.objects.create(user=alice, display_name="爱丽丝")
    for _ in range(2):  # compiled on the first call in a thread, reused on the second
        table, seats = selectors.table_with_seats(mid_hand.pk)
        expected = list(Seat.objects.filter(table=mid_hand).order_by("index"))
        assert [model_to_dict(s) for s in seats] == [model_to_dict(s) for s in expected]
        assert all(s.table is table for s in seats)
        assert model_to_dict(table) == model_to_dict(Table.objects.get(pk=mid_hand.pk))
        assert model_to_dict(table.room) == model_to_dict(Room.objects.get(pk=mid_hand.room_id))
        assert model_to_dict(seats[0].user) == model_to_dict(alice)
        assert seats[0].user.profile.display_name == "爱丽丝"
        assert all(s.user is None for s in seats[1:])
    assert selectors.table_with_seats(999999) == (None, None)


def test_every_viewer_gets_the_same_public_seats_from_the_engine(bot_table, alice):
    """What `_seat_parts` shares between the viewers of a version: the engine's per-seat public data
    (flowers, melds, river, counts; every hand once ended) does not depend on who looks."""
    checked = set()
    for _ in range(400):
        state = state_of(bot_table)
        public = state.view(None)["seats"]
        assert all(state.view(seat)["seats"] == public for seat in range(4))
        checked.add(state.phase)
        if state.phase == "ended":
            break
        if 0 in state.pending_seats() and state.legal_actions(0):
            move = str(state.timeout_action(0))
            services.table_act(
                table_id=bot_table.pk, user=alice, action=Move.parse(move), version=bot_table.version
            )
        else:
            assert services.clock_tick(now=timezone.now()) > 0
    assert {"turn", "ended"} <= checked


def test_the_hand_draws_every_tile_and_a_discard_button_for_each_discardable_one(mid_hand, alice):
    """The viewer's hand in the controls region: each concealed tile once, as a button sending its
    discard exactly when it may be discarded; no form carries the version (the browser adds the
    frame stamp's, static/js/table.js), so the region does not change with every version."""
    ctx = rendering.table_context(Table.objects.get(pk=mid_hand.pk), alice)
    for discards in (ctx["discards"], set(ctx["my_hand"][::2]), set()):
        values = {**ctx, "discards": discards, "version": 1234, "drawn": None, "oob": False}
        html = rendering.render_region("controls", values)
        hand = html[html.index('data-zone="hand"') : html.index("</div>", html.index('data-zone="hand"'))]
        assert hand.count('data-tile="') == len(ctx["my_hand"])
        expected = [t for t in ctx["my_hand"] if t in discards]
        sent = re.findall(r'name="action" value="0:discard:(\w+)"', hand)
        assert sent == expected
        assert "1234" not in html and 'name="version"' not in html
        assert hand.count('data-testid="discard"') == len(expected)
