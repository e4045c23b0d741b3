"""This process's copy of each table's last saved engine state, so that an action need not replay the
hand from its seed.

`GameState.from_json` rebuilds a hand by replaying every action so far (about 0.5 ms early in a hand,
more later). When a service saves a table's state it keeps a pickled copy here, stored once the
transaction commits. The next service call on that table in this process uses the copy only when the
row it has locked holds exactly that version, creation time and saved state; a write by another
process, a rolled-back save or a recreated table finds no match and falls back to the replay. Every
use unpickles a new object, so the copy here is never shared nor changed.
"""

from __future__ import annotations

import copyreg
import io
import pickle
from dataclasses import dataclass, fields
from datetime import datetime

from django.db import transaction

from games.engine.actions import Action
from games.engine.melds import Meld
from games.engine.state import GameState
from games.engine.tiles import Tile
from games.models import Table

MAX_TABLES = 2000  # tables remembered per process (a pickled state is a few kB)


def _by_fields(cls: type):
    """Pickle an instance of the frozen, slotted dataclass `cls` as a call of `cls` with its field
    values: the default way (`_dataclass_getstate` / `_setstate`) looks up the class's fields for
    every object, and a hand's state holds an Action for every move (a third of the pickling)."""
    names = tuple(field.name for field in fields(cls))
    if any(not field.init for field in fields(cls)):
        raise TypeError(f"{cls.__name__} has fields its constructor does not take")
    return lambda obj: (cls, tuple(getattr(obj, name) for name in names))


_DISPATCH = copyreg.dispatch_table.copy()
_DISPATCH.update({cls: _by_fields(cls) for cls in (Action, Meld, Tile)})


def _dumps(state: GameState) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _DISPATCH
    pickler.dump(state)
    return buffer.getvalue()


@dataclass(frozen=True)
class _Saved:
    version: int
    created: datetime
    raw: dict
    pickled: bytes


_saved: dict[int, _Saved] = {}


def load(table: Table) -> GameState | None:
    """The engine state saved on `table` (a locked row): from this process's copy when it is the
    one saved, else read from the row."""
    if not table.state:
        return None
    found = _saved.get(table.pk)
    if (
        found is not None
        and found.version == table.version
        and found.created == table.created
        and found.raw == table.state
    ):
        return pickle.loads(found.pickled)
    return GameState.from_json(table.state)


def remember(table: Table, state: GameState) -> None:
    """Keep a copy of `state`, just saved on `table` (as `table.state`), once the save commits.

    Call it before handing `state` to anyone else: the copy is taken now.
    """
    saved = _Saved(table.version, table.created, table.state, _dumps(state))

    def store() -> None:
        previous = _saved.get(table.pk)
        if previous is not None and previous.created == saved.created and previous.version > saved.version:
            return  # a later save of this table committed first (another thread)
        if len(_saved) >= MAX_TABLES:
            _saved.clear()
        _saved[table.pk] = saved

    transaction.on_commit(store)


def forget_all() -> None:
    """Drop every copy (tests use it to compare against a cold process)."""
    _saved.clear()
