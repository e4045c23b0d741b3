"""The only code that reads or writes a table's game state and its action log (issue 12).

A hand is stored once: the `Action` rows of `Table.hand` are its log, one row appended per action;
`Table.state` holds how the hand was dealt (the engine's JSON without its actions) and `moves`, the
length of the log at the table's version. Loading replays the deal with the first `moves` rows (a
reader without the lock may meet rows committed after the table row it read); this process keeps a
copy of the last state it saved of each table, so the next action there need not replay the hand.

`lock` takes the Table row lock and reads the table with its room, current hand and seats;
`table_with_seats` reads the same without the lock, with the seats' users and profiles (for a
render).

These statements run on every action, and are sent precompiled (`games.store._sql`, private to the
store): with plain ORM queries one action cost 10.8 ms of CPU in the services (`bench/service_bench.py
--tables 20 --actions 600`, SQLite) against 6.3 ms precompiled, and the server 26.0 ms per action
against 15.8 ms (`bench/ws_load.py --tables 100 --pace 2 --duration 20 --processes 1`, PostgreSQL,
two runs each side by side on a shared host, 2026-12-02); building the queries was most of the
difference.
"""

from __future__ import annotations

import copyreg
import io
import pickle
from dataclasses import dataclass, fields
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engine.actions import Action as EngineAction
from games.engine.actions import RuleError
from games.engine.melds import Meld
from games.engine.state import GameState
from games.engine.tiles import Tile
from games.models import Action, Hand, Seat, Table

from . import _sql

MAX_TABLES = 2000  # tables whose last saved state this process remembers (a pickled state is a few kB)

# One appended Action row.
ACTION_FIELDS = ("hand", "seq", "seat", "action", "version", "by_clock", "created")

# What saving a hand's progress writes on the Table row.
STATE_FIELDS = (
    "state",
    "hand",
    "version",
    "deadline",
    "turn_deadline",
    "changed",
    "scores",
    "dealer",
    "huangfan",
    "gengfeng",
    "status",
)


# --- reading the table ---------------------------------------------------------------------------


def lock(table_id: int, *, skip_locked: bool = False, **conditions) -> Table | None:
    """The Table row with its room, current hand and seats, locked until the end of the transaction
    (a no-op lock on SQLite); None when no row matches `conditions` (or, with `skip_locked`, when
    another transaction holds it).

    The lock is taken first, on the Table row alone; the row, its room, hand and seats are read by
    a second statement, once the lock is held. On PostgreSQL a `SELECT ... FOR UPDATE` that waited
    for the lock re-reads the locked row but keeps the rows it joined from before the wait: a
    service queued behind the end or the start of a hand would otherwise see the old hand (or none)
    and charge or spare a leaving player wrongly (tests/multiprocess/test_lock_races.py).

    The seats (in index order) are `seats(table)`, each seat's `table` that same Table object."""
    names = tuple(sorted(conditions))
    locked = _sql.select(
        ("lock", skip_locked, names),
        lambda pk, *values: _lock_row(pk, skip_locked, dict(zip(names, values, strict=True))),
        [table_id, *(conditions[name] for name in names)],
    )
    if not locked:
        return None
    rows = _sql.select(("locked_seats",), _locked_seat_rows, [table_id])
    return _with_seats(rows[0].table, rows)  # every table has its four seats from `table_create`


def _lock_row(table_id: int, skip_locked: bool, conditions: dict):
    """The locking statement: the Table row alone (nothing joined, see `lock`)."""
    return (
        Table.objects.select_for_update(skip_locked=skip_locked)
        .filter(pk=table_id, **conditions)
        .only("pk")
        .order_by()[:1]
    )


def _locked_seat_rows(table_id: int):
    """The table's seats in index order, each row carrying the table with its room and hand."""
    return (
        Seat.objects.filter(table_id=table_id).select_related("table__room", "table__hand").order_by("index")
    )


def _render_seat_rows(table_id: int):
    """The table's seats in index order with the table, its room, their users and profiles."""
    return (
        Seat.objects.select_related("table__room", "user__profile")
        .filter(table_id=table_id)
        .order_by("index")
    )


def table_with_seats(table_id: int) -> tuple[Table | None, list[Seat] | None]:
    """The table, its room, seats, their users and profiles in one query, without a lock (for a
    render); (None, None) when there is no such table."""
    rows = _sql.select(("render_seats",), _render_seat_rows, [table_id])
    if not rows:
        return Table.objects.select_related("room").filter(pk=table_id).first(), None
    table = _with_seats(rows[0].table, rows)
    return table, rows


def _with_seats(table: Table, rows: list[Seat]) -> Table:
    for seat in rows:
        seat.table = table
    table._store_seats = rows
    return table


def seats(table: Table) -> list[Seat]:
    """The seats read with `table` (by `lock` or `table_with_seats`), in index order: every helper
    of one service call sees the same Seat objects."""
    return table._store_seats


# --- the hand's state ----------------------------------------------------------------------------


def _by_fields(cls: type):
    """Pickle an instance of the frozen, slotted dataclass `cls` as a call of `cls` with its field
    values: the default way (`_dataclass_getstate` / `_setstate`) looks up the class's fields for
    every object, and a hand's state holds an Action for every move (a third of the pickling)."""
    names = tuple(field.name for field in fields(cls))
    if any(not field.init for field in fields(cls)):
        raise TypeError(f"{cls.__name__} has fields its constructor does not take")
    return lambda obj: (cls, tuple(getattr(obj, name) for name in names))


_DISPATCH = copyreg.dispatch_table.copy()
_DISPATCH.update({cls: _by_fields(cls) for cls in (EngineAction, Meld, Tile)})


def _dumps(state: GameState) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _DISPATCH
    pickler.dump(state)
    return buffer.getvalue()


@dataclass(frozen=True)
class _Saved:
    """This process's copy of a state it saved: valid for the table row of exactly this version,
    creation time, hand and state (a write by another process bumps the version; a rolled-back save
    is never kept; a recreated table has another creation time)."""

    version: int
    created: datetime
    hand_id: int | None
    raw: dict
    pickled: bytes

    def matches(self, table: Table) -> bool:
        return (
            self.version == table.version
            and self.created == table.created
            and self.hand_id == table.hand_id
            and self.raw == table.state
        )


_saved: dict[int, _Saved] = {}


def state_json(state: GameState) -> dict:
    """What `Table.state` holds of a hand: the engine's JSON without its actions (the log is the
    hand's Action rows), and how many there are."""
    data = state.to_json()
    data["moves"] = len(data.pop("actions"))
    return data


def load(table: Table) -> GameState | None:
    """The engine state of `table`'s current hand (None before the first deal): this process's copy
    when it is the one saved at this version, else the deal replayed with the hand's Action rows."""
    if not table.state:
        return None
    found = _saved.get(table.pk)
    if found is not None and found.matches(table):
        return pickle.loads(found.pickled)
    deal = dict(table.state)
    moves = deal.pop("moves")
    log = list(
        Action.objects.filter(hand_id=table.hand_id, seq__lte=moves)
        .order_by("seq")
        .values_list("action", flat=True)
    )
    if len(log) != moves:
        raise RuleError("bad_action", f"the hand's log has {len(log)} of its {moves} actions")
    return GameState.from_json({**deal, "actions": log})


def append(table: Table, hand: Hand, state: GameState, *, by_clock: bool, count: int = 1) -> None:
    """Append the `count` actions `state` applied last to the hand's log, one INSERT each: the table
    moves one version on with each, and its row records that version (so no action is ever logged
    without a new version)."""
    first = len(state.actions) - count
    now = timezone.now()  # `created`, the row's auto_now_add
    for seq, action in enumerate(state.actions[first:], start=first + 1):
        table.version += 1
        _sql.insert(
            Action, ACTION_FIELDS, (hand.pk, seq, action.seat, str(action), table.version, by_clock, now)
        )


def deal(table: Table, state: GameState, hand: Hand) -> None:
    """A new hand was dealt at `table` (saved with `save`): its deal becomes the table's state."""
    table.hand = hand
    table.state = state_json(state)


def save(table: Table, state: GameState) -> None:
    """Write the table's progress after the actions appended since the last save (one UPDATE: the
    deal is kept, only the log's length changes), and keep a copy of `state` once the transaction
    commits. Nothing may change `state` afterwards (it is handed over to the broadcast).

    With the uniform claim pause (`hold_discards`) the row also says whether a claim window is held
    open: a held window and its release are not actions, so the log alone cannot tell."""
    progress = {"moves": len(state.actions)}
    if state.hold_discards:
        progress["held"] = state.held
    table.state = {**table.state, **progress}
    _sql.save_fields(table, STATE_FIELDS)
    _remember(table, state)


def _remember(table: Table, state: GameState) -> None:
    saved = _Saved(table.version, table.created, table.hand_id, table.state, _dumps(state))

    def keep() -> None:
        previous = _saved.get(table.pk)
        if previous is not None and previous.created == saved.created and previous.version > saved.version:
            return  # a later save of this table committed first (another thread)
        if len(_saved) >= MAX_TABLES:
            _saved.clear()
        _saved[table.pk] = saved

    transaction.on_commit(keep)


def forget_all() -> None:
    """Drop every copy (tests use it to compare against a cold process)."""
    _saved.clear()


# --- reading the log for other readers (the services' checks, the replay, the staff pages) -------


def hand_log(hand: Hand) -> list[str]:
    """The text of every action logged in `hand`, in order."""
    return list(Action.objects.filter(hand=hand).order_by("seq").values_list("action", flat=True))


def actions_since(hand: Hand, version: int) -> list[str]:
    """The text of the actions logged in `hand` after its table was at `version`, in order."""
    return list(
        Action.objects.filter(hand=hand, version__gt=version).order_by("seq").values_list("action", flat=True)
    )


def table_log(table: Table, *, limit: int) -> list[tuple]:
    """The last `limit` actions of every match at `table`, newest first: (hand number, seq, action,
    by clock, created, the hand's end)."""
    return list(
        Action.objects.filter(hand__match__table=table)
        .order_by("-id")
        .values_list("hand__number", "seq", "action", "by_clock", "created", "hand__ended")[:limit]
    )
