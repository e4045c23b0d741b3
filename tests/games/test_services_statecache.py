"""The services' per-process copy of each table's saved state (`games.services.statecache`): used only
for the exact row it was saved as, equal to a replay of that row, and handed to the broadcast."""

from __future__ import annotations

import pickle

import pytest
from django.db import transaction
from django.utils import timezone

from games import services
from games.engine.state import GameState
from games.models import Table
from games.services import current_hand, play, statecache

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cold():
    statecache.forget_all()
    yield
    statecache.forget_all()


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run the services' after-commit work (the test's transaction never commits)."""

    def run(verb, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return verb(**kwargs)

    return run


def one_step(table, alice, committed) -> None:
    """Alice answers when asked, else the clock plays the bots' moves (the state is looked at through
    the copy, so that a replay anywhere shows)."""
    table.refresh_from_db()
    state = statecache.load(table)
    if 0 in state.pending_seats() and state.legal_actions(0):
        move = str(state.timeout_action(0))
        committed(services.table_act, table_id=table.pk, user=alice, action=move, version=table.version)
    else:
        assert committed(services.clock_tick, now=timezone.now()) > 0


def test_the_copy_is_the_saved_state_through_a_whole_hand(bot_table, alice, committed):
    for _ in range(3000):
        one_step(bot_table, alice, committed)
        table = Table.objects.get(pk=bot_table.pk)
        assert statecache._saved[table.pk].version == table.version  # the copy, not a replay, is read
        copy, replayed = statecache.load(table), GameState.from_json(table.state)
        assert copy.to_json() == replayed.to_json() == table.state
        assert copy.phase == replayed.phase and copy.pending_seats() == replayed.pending_seats()
        for seat in (0, 1, 2, 3, None):
            assert copy.view(seat) == replayed.view(seat)
        for seat in copy.pending_seats():
            assert copy.legal_actions(seat) == replayed.legal_actions(seat)
        if copy.phase == "ended":
            assert copy.result.to_json() == replayed.result.to_json()
            return
    raise AssertionError("the hand did not end")


def test_the_next_action_uses_the_copy(bot_table, alice, committed, monkeypatch):
    one_step(bot_table, alice, committed)
    monkeypatch.setattr(GameState, "from_json", lambda *a, **k: pytest.fail("replayed"))
    for _ in range(20):
        if statecache.load(Table.objects.get(pk=bot_table.pk)).phase == "ended":
            break
        one_step(bot_table, alice, committed)


def test_a_row_written_elsewhere_is_read_from_the_row(bot_table, alice, committed):
    one_step(bot_table, alice, committed)
    table = Table.objects.get(pk=bot_table.pk)
    assert statecache.load(table) is not None
    # Another process moved the table on (its copy is not here): the row is replayed.
    other = GameState.from_json(table.state)
    seat = other.pending_seats()[0]
    other.apply(other.timeout_action(seat))
    Table.objects.filter(pk=table.pk).update(state=other.to_json(), version=table.version + 1)
    moved = Table.objects.get(pk=table.pk)
    assert statecache.load(moved).to_json() == other.to_json()
    # Same version but a different saved state (a write that forgot the version) is not reused either.
    Table.objects.filter(pk=table.pk).update(version=table.version)
    assert statecache.load(Table.objects.get(pk=table.pk)).to_json() == other.to_json()


def test_a_rolled_back_save_is_not_remembered(bot_table, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        one_step(bot_table, alice, lambda verb, **kwargs: verb(**kwargs))
        raise RuntimeError("a later step of the same transaction failed")
    assert statecache._saved == {}
    assert statecache.load(Table.objects.get(pk=bot_table.pk)).to_json() == bot_table.state


def test_each_load_is_a_new_object(bot_table, alice, committed):
    one_step(bot_table, alice, committed)
    table = Table.objects.get(pk=bot_table.pk)
    first, second = statecache.load(table), statecache.load(table)
    assert first is not second
    first.apply(first.timeout_action(first.pending_seats()[0]))
    assert second.to_json() == table.state


def test_the_broadcast_gets_the_saved_state_and_hand_number(bot_table, alice, committed, monkeypatch):
    handed = []
    monkeypatch.setattr(play, "on_commit_table_changed", lambda *a, **k: handed.append((a, k)))
    one_step(bot_table, alice, committed)
    table = Table.objects.get(pk=bot_table.pk)
    (table_id, version), kwargs = handed[-1]
    assert (table_id, version) == (table.pk, table.version)
    assert kwargs["state"].to_json() == table.state
    assert kwargs["hand_number"] == current_hand(table).number == 1


def plain(value):
    """`value` with every plain object (not a dataclass: those compare by value) as its attributes."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(plain(item) for item in value)
    if hasattr(value, "__dataclass_fields__") or type(value).__module__ == "builtins":
        return value
    if hasattr(value, "__dict__"):
        return (type(value), plain(vars(value)))
    return (type(value), {name: plain(getattr(value, name)) for name in type(value).__slots__})


def test_the_pickled_copy_has_every_field_of_the_state():
    """The copy pickles actions, melds and tiles as calls of their classes: unpickled, every
    attribute of the state (caches included) is equal to the original's, through whole hands with
    melds and flowers."""
    from games.engine.bots import get_bot

    bot, seen_melds = get_bot("easy"), False
    for seed in ("a", "b", "c"):
        state = GameState.new(seed=seed * 64)
        while state.phase != "ended":
            copy = pickle.loads(statecache._dumps(state))
            assert type(copy) is GameState and plain(copy) == plain(state)
            assert [type(action) for action in copy.actions] == [type(action) for action in state.actions]
            seen_melds = seen_melds or any(state.melds)
            seat = min(state.pending_seats())
            state.apply(bot.choose(state, seat))
        assert plain(pickle.loads(statecache._dumps(state))) == plain(state)
    assert seen_melds
