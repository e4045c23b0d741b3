"""The store's hot statements, built by the ORM once per thread, then run straight with new
parameters (private to games.store; issue 7, kept by issue 12's measurement, see games/store).

Building a query (a QuerySet, its WHERE tree, the compiler, the SQL text) cost as much CPU as running
it, for statements that run on every action with only their parameters changing. Here the ORM builds
each query once per thread from sample parameters; each later run sends the same SQL with the new
parameters and turns the rows into model instances with Django's own converters, `from_db` and
related populators (what `ModelIterable` does), so the objects are the ones the ORM would give.

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
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import Model, QuerySet, Value
from django.db.models.query import get_related_populators
from django.db.models.sql.subqueries import InsertQuery, UpdateQuery

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


def _prepare(value: Any, connection) -> Any:
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return value


class CompiledSelect:
    """A SELECT of model instances (with any `select_related`), compiled from `build(*samples)`."""

    def __init__(self, build: Callable[..., QuerySet], samples: Sequence[Any]) -> None:
        queryset = build(*samples)
        connection = connections[DEFAULT_DB_ALIAS]
        self.model = queryset.model
        self.compiler = queryset.query.get_compiler(DEFAULT_DB_ALIAS)
        self.sql, params = self.compiler.as_sql()
        self.order = _positions(list(params), [_prepare(value, connection) for value in samples])
        select, klass_info = self.compiler.select, self.compiler.klass_info
        own = klass_info["select_fields"]
        self.own = slice(own[0], own[-1] + 1)
        self.init_list = [column[0].target.attname for column in select[self.own]]
        self.populators = get_related_populators(klass_info, select, DEFAULT_DB_ALIAS)
        self.converters = self.compiler.get_converters([s[0] for s in select[0 : self.compiler.col_count]])

    def params_for(self, values: Sequence[Any]) -> list:
        """The parameters to send with `sql` for the values `build` takes, in its order."""
        connection = connections[DEFAULT_DB_ALIAS]
        return [_prepare(values[i], connection) for i in self.order]

    def run(self, params: Sequence[Any]) -> list[Model]:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute(self.sql, self.params_for(params))
            rows = cursor.fetchall()
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        from_db, own, init_list, populators = self.model.from_db, self.own, self.init_list, self.populators
        found = []
        for row in rows:
            obj = from_db(DEFAULT_DB_ALIAS, init_list, row[own])
            for populator in populators:
                populator.populate(row, obj)
            found.append(obj)
        return found


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
        query = InsertQuery(model)
        query.insert_values(self.fields, [model(**{field.attname: None for field in self.fields})])
        ((self.sql, params),) = query.get_compiler(DEFAULT_DB_ALIAS).as_sql()
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
    """`UPDATE <model> SET <fields> WHERE pk = %s`, one row by primary key.

    Compiled with numbered sample values so that every field gets a `%s` (a None would compile to
    `= NULL`), and checked to take them in order with the key last."""

    def __init__(self, model: type[Model], names: Sequence[str]) -> None:
        self.fields = _plain_fields(model, names)
        if any(getattr(field, "auto_now", False) for field in self.fields):
            raise RuntimeError("an auto_now field changes as it is saved: use the ORM")
        query = UpdateQuery(model)
        query.add_update_fields([(field, None, Value(i)) for i, field in enumerate(self.fields)])
        query.add_filter("pk", len(self.fields))
        self.sql, params = query.get_compiler(DEFAULT_DB_ALIAS).as_sql()
        if list(params) != list(range(len(self.fields) + 1)) or self.sql.count("%s") != len(params):
            raise RuntimeError(f"unexpected update SQL: {self.sql} {params!r}")

    def run(self, pk: Any, values: Sequence[Any]) -> int:
        connection = connections[DEFAULT_DB_ALIAS]
        params = [
            field.get_db_prep_save(value, connection)
            for field, value in zip(self.fields, values, strict=True)
        ]
        params.append(pk)
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            return cursor.rowcount


def save_fields(obj: Model, names: Sequence[str]) -> None:
    """What `obj.save(update_fields=names)` writes, for fields whose `pre_save` changes nothing (no
    `auto_now`): one UPDATE by primary key, without the save signals. Like `save`, a row that is
    gone is an error."""
    model = type(obj)
    compiled = _built(("update", model, tuple(names)), lambda: CompiledUpdate(model, names))
    values = [getattr(obj, field.attname) for field in compiled.fields]
    if compiled.run(obj.pk, values) == 0:
        raise DatabaseError("Save with update_fields did not affect any rows.")
