"""The store's hot statements, built by the ORM once per thread, then run straight with new
parameters (private to games.store; issue 7, kept by issue 12's measurement, see games/store).

Building a query (a QuerySet, its WHERE tree, the compiler, the SQL text) cost as much CPU as running
it, for statements that run on every action with only their parameters changing. Here the ORM builds
each query once per thread from sample parameters; each later run sends the same SQL with the new
parameters and turns the rows into model instances with Django's own converters, `from_db` and
related populators (what `ModelIterable` does), so the objects are the ones the ORM would give.
Those ORM internals are reached through games.compat (whose tests pin them), not here.

The writes do the same: an INSERT or UPDATE compiled once, whose values go through each field's
`get_db_prep_save` as the ORM's compilers do. They skip `Model.save()`'s signals (nothing in the
project listens to them for these models) and its bookkeeping.

A parameter is passed to the database as the ORM would prepare it for a lookup on its field: a
datetime through `adapt_datetimefield_value`, anything else as it is. Building checks that the
compiled parameters are exactly the prepared samples, in order, so a query whose parameters the ORM
would change (or reorder) is refused when it is built rather than run wrong.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import Model, QuerySet

from games import compat

_local = threading.local()


def _built(key: tuple, build: Callable[[], Any]) -> Any:
    """This thread's compiled query for `key`, built on first use."""
    cache = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
    found = cache.get(key)
    if found is None:
        found = cache[key] = build()
    return found


_prepare = compat.prepare_lookup_value


class CompiledSelect:
    """A SELECT of model instances (with any `select_related`), compiled from `build(*samples)`."""

    def __init__(self, build: Callable[..., QuerySet], samples: Sequence[Any]) -> None:
        connection = connections[DEFAULT_DB_ALIAS]
        self.statement = compat.SelectStatement(build(*samples))
        self.sql = self.statement.sql
        self.order = _positions(self.statement.params, [_prepare(value, connection) for value in samples])

    def params_for(self, values: Sequence[Any]) -> list:
        """The parameters to send with `sql` for the values `build` takes, in its order."""
        connection = connections[DEFAULT_DB_ALIAS]
        return [_prepare(values[i], connection) for i in self.order]

    def run(self, params: Sequence[Any]) -> list[Model]:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute(self.sql, self.params_for(params))
            rows = cursor.fetchall()
        return self.objects(rows)

    def objects(self, rows: list) -> list[Model]:
        """The model instances of `rows`, this query's result rows (as `ModelIterable` builds them)."""
        return self.statement.instances(rows)


class _Ambiguous(Exception):
    """The samples do not tell which compiled parameter is which."""


def _positions(compiled: list, samples: list) -> list[int]:
    """For each compiled parameter, the index of the sample it is (the ORM orders a WHERE clause as
    it likes). Each sample must be used exactly once and be told apart from the others by type and
    value; otherwise `_Ambiguous`."""
    keys = [(type(value), value) for value in samples]
    if len(set(keys)) != len(keys) or len(compiled) != len(samples):
        raise _Ambiguous
    try:
        order = [keys.index((type(value), value)) for value in compiled]
    except ValueError:
        raise _Ambiguous from None
    if sorted(order) != list(range(len(samples))):
        raise _Ambiguous
    return order


def select(key: tuple, build: Callable[..., QuerySet], params: Sequence[Any]) -> list[Model]:
    """The objects `build(*params)` finds, by a query compiled once per thread under `key` (which
    must name everything that shapes the SQL besides the parameters). When the parameters of a
    first use cannot be told apart (two equal values), that call runs the ORM's query instead and
    the next one tries again."""
    try:
        query = _built(key, lambda: CompiledSelect(build, params))
    except _Ambiguous:
        return list(build(*params))
    return query.run(params)


def locks_rows() -> bool:
    """Whether the database locks rows (`SELECT ... FOR UPDATE`): not SQLite."""
    return connections[DEFAULT_DB_ALIAS].features.has_select_for_update


def _one_round_trip(connection) -> bool:
    """Whether several statements can go in one `execute`: psycopg's client-side binding (Django's
    default for PostgreSQL; not with `server_side_binding`, nor on SQLite) sends them as one simple
    query, whose statements the server runs in order, each with a snapshot of its own."""
    return (
        connection.vendor == "postgresql"
        and connection.settings_dict["OPTIONS"].get("server_side_binding") is not True
    )


Statement = tuple[tuple, Callable[..., QuerySet], Sequence[Any]]  # key, build, params (see `select`)


def lock_then_select(lock: Statement, *reads: Statement) -> list[list[Model]] | None:
    """Run the locking statement `lock`, then, once it holds its lock, each of `reads`: what each
    of `reads` finds, or None when `lock` finds no row.

    On PostgreSQL all the statements go in one round trip (`_one_round_trip`): the server runs each
    read after the lock is held, with a snapshot taken then, so it sees every commit that came
    before the lock (a `SELECT ... FOR UPDATE` that joined those rows would keep the joined rows as
    they were before it waited for the lock). Elsewhere, one round trip each."""
    connection = connections[DEFAULT_DB_ALIAS]
    try:
        compiled = [
            _built(key, lambda b=build, p=params: CompiledSelect(b, p))
            for key, build, params in (lock, *reads)
        ]
    except _Ambiguous:
        compiled = None
    if compiled is None or not _one_round_trip(connection):
        if not select(*lock):
            return None
        return [select(*read) for read in reads]
    sql = "; ".join(query.sql for query in compiled)
    params = [
        param
        for query, (_, _, values) in zip(compiled, (lock, *reads), strict=True)
        for param in query.params_for(values)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        locked = cursor.fetchone()
        results = []
        for _ in reads:
            if not cursor.nextset():
                raise DatabaseError("a locked read returned no result")
            results.append(cursor.fetchall())
    if locked is None:
        return None
    return [query.objects(rows) for query, rows in zip(compiled[1:], results, strict=True)]


def _plain_fields(model: type[Model], names: Sequence[str]) -> list:
    fields = [model._meta.get_field(name) for name in names]
    for field in fields:
        if hasattr(field, "get_placeholder") or not field.concrete:
            raise RuntimeError(f"{field} is written with its own SQL placeholder: use the ORM")
    return fields


class CompiledInsert:
    """`INSERT INTO <model> (<fields>) VALUES (...)` for one row, without RETURNING."""

    def __init__(self, model: type[Model], names: Sequence[str]) -> None:
        self.fields = _plain_fields(model, names)
        self.sql, params = compat.insert_sql(model, self.fields)
        if (
            "RETURNING" in self.sql.upper()
            or self.sql.count("%s") != len(self.fields)
            or len(params) != len(self.fields)
        ):
            raise RuntimeError(f"unexpected insert SQL: {self.sql}")

    def run(self, values: Sequence[Any]) -> None:
        connection = connections[DEFAULT_DB_ALIAS]
        params = [
            field.get_db_prep_save(value, connection)
            for field, value in zip(self.fields, values, strict=True)
        ]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)


def insert(model: type[Model], names: Sequence[str], values: Sequence[Any]) -> None:
    """Insert one row of `model`: `values` for the fields `names`, as given (no defaults nor
    `auto_now_add` are filled in here); each value goes through its field's `get_db_prep_save`."""
    _built(("insert", model, tuple(names)), lambda: CompiledInsert(model, names)).run(values)


class CompiledUpdate:
    """`UPDATE <model> SET <fields> WHERE <key> = %s AND ...`: by primary key (one row), or by the
    exact values of other `keys`.

    Compiled with numbered sample values so that every field gets a `%s` (a None would compile to
    `= NULL`), and checked to take them in order with the keys last."""

    def __init__(self, model: type[Model], names: Sequence[str], keys: Sequence[str] = ("pk",)) -> None:
        self.fields = _plain_fields(model, names)
        if any(getattr(field, "auto_now", False) for field in self.fields):
            raise RuntimeError("an auto_now field changes as it is saved: use the ORM")
        self.sql, params = compat.update_sql(model, self.fields, keys)
        expected = list(range(len(self.fields) + len(keys)))
        if list(params) != expected or self.sql.count("%s") != len(params):
            raise RuntimeError(f"unexpected update SQL: {self.sql} {params!r}")

    def run(self, where: Sequence[Any], values: Sequence[Any]) -> int:
        """Set the fields to `values` in the rows whose keys are `where` (plain values, sent as
        they are: primary keys, foreign key ids, integers); how many rows changed."""
        connection = connections[DEFAULT_DB_ALIAS]
        params = [
            field.get_db_prep_save(value, connection)
            for field, value in zip(self.fields, values, strict=True)
        ]
        params.extend(where)
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            return cursor.rowcount


def update_where(model: type[Model], names: Sequence[str], values: Sequence[Any], **where: Any) -> int:
    """`model.objects.filter(**where).update(**dict(zip(names, values)))` for exact lookups of plain
    values (ids, integers), by a statement compiled once per thread; how many rows changed."""
    keys = tuple(where)
    compiled = _built(("update", model, tuple(names), keys), lambda: CompiledUpdate(model, names, keys))
    return compiled.run([where[key] for key in keys], values)


def save_fields(obj: Model, names: Sequence[str]) -> None:
    """What `obj.save(update_fields=names)` writes, for fields whose `pre_save` changes nothing (no
    `auto_now`): one UPDATE by primary key, without the save signals. Like `save`, a row that is
    gone is an error."""
    model = type(obj)
    compiled = _built(("update", model, tuple(names)), lambda: CompiledUpdate(model, names))
    values = [getattr(obj, field.attname) for field in compiled.fields]
    if compiled.run([obj.pk], values) == 0:
        raise DatabaseError("Save with update_fields did not affect any rows.")
