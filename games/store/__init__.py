"""The only code that reads or writes a table's game state and its action log (issue 12).

A hand is stored once: the `Action` rows of `Table.hand` are its log, one row appended per action;
`Table.state` holds how the hand was dealt (the engine's JSON without its actions) and `moves`, the
length of the log at the table's version. Loading replays the deal with the first `moves` rows (a
reader without the lock may meet rows committed after the table row it read).

This process keeps one bounded cache of table snapshots keyed by (table id, version) (`Snapshot`,
issue 25): the state a service saved here (so the next action there need not replay the hand: it
plays on a `GameState.copy` of it, while the renders of the version share the saved one), the
table and seats as committed, and what the renders derive of a version; the presentation reads it
through the selectors (`snapshot`, `render_snapshot`) and keeps no table's data of its own.

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

import threading
from collections import OrderedDict

from django.db import transaction
from django.utils import timezone

from games import compat
from games.engine.actions import RuleError
from games.engine.kinds import CLAIM_ANSWERS, Phase
from games.engine.state import GameState
from games.models import Action, Hand, Seat, Table

from . import _sql

MAX_SNAPSHOTS = 2000  # table versions this process keeps (`Snapshot`: a state, a few kB, and its rows)

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
    and charge or spare a leaving player wrongly (tests/multiprocess/test_lock_races.py). The reads
    are two statements, the table with its room and hand (one row) and its seats (their own columns),
    so each row is read and built once: seven model instances per lock (seventeen when each seat row
    carried the table, room and hand). On PostgreSQL the lock and both reads travel in one round trip
    (`_sql.lock_then_select`), each read run after the lock is held. SQLite has no row locks (its
    transactions take the database's write lock as they begin): there the table's read checks the
    conditions, and no locking statement is sent.

    The seats (in index order) are `seats(table)`, each seat's `table` that same Table object."""
    names = tuple(sorted(conditions))
    values = [table_id, *(conditions[name] for name in names)]
    seat_rows = (("locked_seats",), _locked_seat_rows, [table_id])
    if not _sql.locks_rows():  # SQLite: no row lock to take, the table's read checks the conditions
        tables = _sql.select(
            ("table_if", names),
            lambda pk, *given: _locked_table_row(pk, dict(zip(names, given, strict=True))),
            values,
        )
        if not tables:
            return None
        return _with_seats(tables[0], _sql.select(*seat_rows))
    found = _sql.lock_then_select(
        (
            ("lock", skip_locked, names),
            lambda pk, *given: _lock_row(pk, skip_locked, dict(zip(names, given, strict=True))),
            values,
        ),
        (("locked_table",), lambda pk: _locked_table_row(pk, {}), [table_id]),
        seat_rows,
    )
    if found is None:
        return None
    (table,), seats_read = found
    return _with_seats(table, seats_read)  # every table has its four seats from `table_create`


def _lock_row(table_id: int, skip_locked: bool, conditions: dict):
    """The locking statement: the Table row alone (nothing joined, see `lock`)."""
    return (
        Table.objects.select_for_update(skip_locked=skip_locked)
        .filter(pk=table_id, **conditions)
        .only("pk")
        .order_by()[:1]
    )


def _locked_table_row(table_id: int, conditions: dict):
    """The table's row with its room and current hand (read once the lock is held)."""
    return Table.objects.select_related("room", "hand").filter(pk=table_id, **conditions).order_by()


def _locked_seat_rows(table_id: int):
    """The table's seats in index order, their own columns only (the table is read beside them)."""
    return Seat.objects.filter(table_id=table_id).order_by("index")


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


class Snapshot:
    """One committed version of one table as this process knows it (issue 25): its row's identity
    (`version`, `created`, `hand_id`, `raw`: the saved `Table.state`), the engine state (`saved`:
    the very state a service here saved, which the next action's `load` copies), and, once
    known, the table row with its seats as committed (`rows`: (table, seats), the seats with their
    users and profiles, for a render). `derived` holds what the presentation works out of this one
    version (the views, the seat blocks, the notes): shared by every viewer, gone with the snapshot.

    Nothing changes a snapshot's state or rows once it is kept (they are handed over by the service
    that saved them, or read for a render)."""

    __slots__ = (
        "table_id",
        "version",
        "created",
        "hand_id",
        "raw",
        "state",
        "saved",
        "hand_number",
        "rows",
        "derived",
    )

    def __init__(self, table: Table, *, state: GameState | None, saved: bool = False) -> None:
        self.table_id = table.pk
        self.version = table.version
        self.created = table.created
        self.hand_id = table.hand_id
        self.raw = table.state
        self.state = state  # the version's engine state, shared by its renders: never to be changed
        self.saved = saved
        self.hand_number: int | None = None  # None: not known yet (the presentation reads it once)
        self.rows: tuple[Table, list[Seat] | None] | None = None
        self.derived: dict = {}

    def matches(self, table: Table) -> bool:
        """This is the snapshot of exactly `table`'s row: its version, creation time, hand and saved
        state (a write by another process bumps the version; a rolled-back save is never kept; a
        recreated table has another creation time)."""
        return (
            self.version == table.version
            and self.created == table.created
            and self.hand_id == table.hand_id
            and self.raw == table.state
        )


class _Snapshots:
    """The one bounded cache of table snapshots, least recently used out first, keyed by (table id,
    version); it also knows each table's newest kept version, and holds the lock under which the
    renders of one table read it once for all their viewers."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[int, int], Snapshot] = OrderedDict()
        self._newest: dict[int, int] = {}
        self._reading: dict[int, threading.Lock] = {}
        self._lock = threading.Lock()

    def get(self, table_id: int, version: int) -> Snapshot | None:
        with self._lock:
            found = self._entries.get((table_id, version))
            if found is not None:
                self._entries.move_to_end((table_id, version))
            return found

    def newest(self, table_id: int) -> Snapshot | None:
        with self._lock:
            version = self._newest.get(table_id)
            return None if version is None else self._entries.get((table_id, version))

    def put(self, snapshot: Snapshot) -> None:
        key = (snapshot.table_id, snapshot.version)
        with self._lock:
            self._entries[key] = snapshot
            self._entries.move_to_end(key)
            newest = self._entries.get((snapshot.table_id, self._newest.get(snapshot.table_id, -1)))
            if newest is None or newest.version <= snapshot.version or newest.created != snapshot.created:
                self._newest[snapshot.table_id] = (
                    snapshot.version
                )  # (a recreated table: its versions start again)
            while len(self._entries) > self.size:
                (table_id, version), _ = self._entries.popitem(last=False)
                if self._newest.get(table_id) == version:
                    del self._newest[table_id]
                    self._reading.pop(table_id, None)

    def reading(self, table_id: int) -> threading.Lock:
        with self._lock:
            found = self._reading.get(table_id)
            if found is None:
                found = self._reading[table_id] = threading.Lock()
            return found

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._newest.clear()
            self._reading.clear()

    def __len__(self) -> int:
        return len(self._entries)


_snapshots = _Snapshots(MAX_SNAPSHOTS)


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
    found = _snapshots.get(table.pk, table.version)
    if found is not None and found.saved and found.matches(table):
        return found.state.copy()
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
    moves on a version with each (`_after_action`), and its row records that version (so no action
    is ever logged without a new version)."""
    first = len(state.actions) - count
    now = timezone.now()  # `created`, the row's auto_now_add
    for seq, action in enumerate(state.actions[first:], start=first + 1):
        table.version = _after_action(table.version, state, last=seq == len(state.actions))
        _sql.insert(
            Action, ACTION_FIELDS, (hand.pk, seq, action.seat, str(action), table.version, by_clock, now)
        )
    table._logged_version = table.version


# --- the table's version -------------------------------------------------------------------------
#
# Every change of a table moves its version on, and only these functions move it (issue 27). The
# version reaches every socket (the frame stamp, the forms), so it must not count what only some
# seats may know (issue 24 item 8): the answers inside a claim window. A window opened by a discard
# (or an added kong) at version W always ends at W + WINDOW_VERSIONS, however many seats answered in
# it: answers that leave it open count one each (only the seats answering see those versions), and
# the step that ends it (the answer that decides it, or the release of a held window) takes the
# table to W + WINDOW_VERSIONS. A seat that cannot claim, and a spectator, then see the same versions
# after a claimable discard as after one nobody could claim.

WINDOW_VERSIONS = 4  # the three other seats' answers, and the step that ends the window


def bump_version(table: Table) -> None:
    """A change outside a hand's actions (seats, readiness, a deal, settings): one version more."""
    table.version += 1


def _answers_in_window(state: GameState) -> int:
    """How many of the log's last actions are answers in one claim window (the window of the last
    discard or added kong, when the log ends in it)."""
    n = 0
    for action in reversed(state.actions):
        if action.kind not in CLAIM_ANSWERS:
            break
        n += 1
    return n


def _after_action(version: int, state: GameState, *, last: bool) -> int:
    """The version after one logged action; `last`: the last of the log, so `state` is the state
    after it (an answer that leaves the window open or held is one more; one that ends it, the
    window's end)."""
    if not last or state.actions[-1].kind not in CLAIM_ANSWERS:
        return version + 1
    if state.phase in (Phase.CLAIMS, Phase.ROB):  # still open, or held until its pause is over
        return version + 1
    return _window_end(version, _answers_in_window(state) - 1)


def _window_end(version: int, answered: int) -> int:
    """The version that ends the claim window the table is in at `version`, `answered` answers after
    the one that opened it: W + WINDOW_VERSIONS (and at least one more than `version`)."""
    return max(version + 1, version - answered + WINDOW_VERSIONS)


def release(table: Table, state: GameState) -> None:
    """Release `state`'s held claim window (its pause is over; the next seat draws): the table moves
    to the window's end, as it does when an answer decides a window.

    Released by the call that logged the discard itself (a pause of 0: the window was never seen
    open), the discard's version stays the table's. Released by the call that logged a window's last
    answer (given after the pause), that answer's row takes the window's end: every version the
    table is committed at is an action's row, or a release's."""
    answered = _answers_in_window(state)
    state.release()
    logged_now = getattr(table, "_logged_version", None) == table.version
    if logged_now and not answered:
        return
    version = _window_end(table.version, answered)
    if logged_now:
        _sql.update_where(Action, ("version",), (version,), hand_id=table.hand_id, version=table.version)
        table._logged_version = version
    table.version = version


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
    """Once the transaction commits, keep the saved version's snapshot: the state itself (handed
    over: the next action here plays on a copy), the table and seats as committed (nobody changes
    them afterwards), with the users this process last read at the table when the same people sit
    in the same seats. Nothing is kept when the table moved on after this save in the same
    transaction: the state was played on, and that later save keeps its own snapshot."""
    version = table.version
    snapshot = Snapshot(table, state=state, saved=True)

    def keep() -> None:
        if table.version != version:
            return
        previous = _snapshots.newest(table.pk)
        if previous is not None and previous.created == snapshot.created and previous.version > version:
            return  # a later save of this table committed first (another thread)
        hand = table.hand if table.hand_id else None
        snapshot.hand_number = hand.number if hand else None
        seats = table._store_seats
        if _with_known_users(previous, table, seats):
            snapshot.rows = (table, seats)
        _snapshots.put(snapshot)

    transaction.on_commit(keep)


def _with_known_users(previous: Snapshot | None, table: Table, seats: list[Seat]) -> bool:
    """Give the service's seats the users (with profiles) of the table's last read for a render,
    when the same people sit in the same seats (the service reads seats without them: a render
    reads them, the rules never do). False when someone is new: the render then reads them."""
    if (
        previous is None
        or previous.rows is None
        or previous.rows[1] is None
        or previous.created != table.created
    ):
        return False
    known = {seat.index: seat for seat in previous.rows[1]}
    users = []
    for seat in seats:
        before = known.get(seat.index)
        if before is None or before.user_id != seat.user_id:
            return False
        if seat.user_id is not None:
            cached, user = compat.related_cached(_SEAT_USER, before)
            if not cached:
                return False
            users.append((seat, user))
    for seat, user in users:
        compat.cache_related(_SEAT_USER, seat, user)
    return True


_SEAT_USER = Seat.user.field


def snapshot(table: Table) -> Snapshot:
    """The snapshot of exactly `table`'s row, kept if this process has one (a snapshot that does not
    match the row is replaced), else made now with the state `load`ed."""
    found = _snapshots.get(table.pk, table.version)
    if found is None or not found.matches(table):
        found = Snapshot(table, state=load(table))
        _snapshots.put(found)
    return found


def render_snapshot(table_id: int, version: int | None = None, created=None) -> Snapshot | None:
    """The table's snapshot with its rows (seats with their users and profiles), for a render; None
    when there is no such table. For an update announcing `version` of the table made at `created`,
    a snapshot of that version or a newer one with its rows is used without reading: the sockets of
    one table all render each version, and they render it at the same moment on several worker
    threads, so the read is single-flight: the first reads, the others wait for it and use it. A
    render without an announced version (a socket's first frame, a resync) always reads."""
    if version is None or created is None:
        return _read_for_render(table_id)
    found = _fresh(table_id, version, created)
    if found is not None:
        return found
    with _snapshots.reading(table_id):
        found = _fresh(table_id, version, created)
        if found is not None:
            return found
        return _read_for_render(table_id)


def _fresh(table_id: int, version: int, created) -> Snapshot | None:
    found = _snapshots.newest(table_id)
    if found is not None and found.rows is not None and found.version >= version and found.created == created:
        return found
    return None


def _read_for_render(table_id: int) -> Snapshot | None:
    table, seats = table_with_seats(table_id)
    if table is None:
        return None
    found = snapshot(table)
    found.rows = (table, seats)
    _snapshots.put(found)  # now the table's newest with its rows, for the other viewers
    return found


def forget_all() -> None:
    """Drop every snapshot (tests use it to compare against a cold process)."""
    _snapshots.clear()


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
