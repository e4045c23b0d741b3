"""The internals of Django, asgiref, Channels and Jinja2 that the hot path relies on, in one place (issue 25).

The live path (the store's precompiled statements, the after-commit broadcast, the render of a
table's regions) saves CPU by reaching past the public APIs of its libraries: a compiled query run
again with new parameters, the event loop that `sync_to_async` records for its worker thread, a
related object put in a field's cache, a compiled Jinja2 template rendered without its globals'
merge, a language's catalogue looked up without the active-language read, a channel layer's group
members read to send to all of them but one. None of these is a
documented, stable API, so each is named here by what the project needs of it, and
tests/test_compat.py pins exactly that behaviour: an upgrade that changes one fails a test there
rather than the site.

Nothing of the project is imported here (the module sits in the lowest layer but the engine's).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from asgiref.sync import SyncToAsync
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from django.db import DEFAULT_DB_ALIAS
from django.db.models import Field, Model, QuerySet, Value
from django.db.models.query import get_related_populators
from django.db.models.sql.subqueries import InsertQuery, UpdateQuery
from django.utils.translation import trans_real

# --- asgiref -------------------------------------------------------------------------------------


def sync_to_async_caller_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop whose `sync_to_async` call runs this worker thread, as asgiref records it on
    `SyncToAsync.threadlocal` (`main_event_loop`, with the pid it was recorded in: a forked child
    must not use its parent's loop); None in a thread that `sync_to_async` did not start."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return loop


# --- Django: a related object in a field's cache ------------------------------------------------


def related_cached(field: Field, obj: Model) -> tuple[bool, Any]:
    """(True, the object) when `obj` holds the forward related object of `field` (a ForeignKey) in
    its field cache, so reading the attribute runs no query; (False, None) otherwise."""
    if not field.is_cached(obj):
        return False, None
    return True, field.get_cached_value(obj)


def cache_related(field: Field, obj: Model, value: Model | None) -> None:
    """Put `value` in `obj`'s cache for `field`, as `select_related` would: reading the attribute
    then gives `value` without a query."""
    field.set_cached_value(obj, value)


# --- Django: the ORM's compiled SQL, and rows turned into model instances ------------------------


def prepare_lookup_value(value: Any, connection) -> Any:
    """A lookup parameter as the ORM sends it for a DateTimeField (through the backend's
    `adapt_datetimefield_value`); any other value as it is. Only for values the compiled queries
    take: datetimes, ints, strings, booleans."""
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return value


class SelectStatement:
    """A QuerySet's SQL and parameters as its compiler makes them, and the way its rows become model
    instances (with any `select_related` objects), as the ORM's `ModelIterable` does."""

    def __init__(self, queryset: QuerySet) -> None:
        self.model = queryset.model
        compiler = queryset.query.get_compiler(DEFAULT_DB_ALIAS)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        select, klass_info = compiler.select, compiler.klass_info
        own = klass_info["select_fields"]
        self._compiler = compiler
        self._own = slice(own[0], own[-1] + 1)
        self._init_list = [column[0].target.attname for column in select[self._own]]
        self._populators = get_related_populators(klass_info, select, DEFAULT_DB_ALIAS)
        self._converters = compiler.get_converters([s[0] for s in select[0 : compiler.col_count]])

    def instances(self, rows: Iterable[Sequence[Any]]) -> list[Model]:
        """The model instances of `rows` (as the cursor returned them for `sql`)."""
        if self._converters:
            rows = self._compiler.apply_converters(rows, self._converters)
        from_db, own, init_list, populators = self.model.from_db, self._own, self._init_list, self._populators
        found = []
        for row in rows:
            obj = from_db(DEFAULT_DB_ALIAS, init_list, row[own])
            for populator in populators:
                populator.populate(row, obj)
            found.append(obj)
        return found


def insert_sql(model: type[Model], fields: Sequence[Field]) -> tuple[str, list]:
    """The ORM's `INSERT` of one row of `model` with `fields` (values None), and its parameters."""
    query = InsertQuery(model)
    query.insert_values(list(fields), [model(**{field.attname: None for field in fields})])
    ((sql, params),) = query.get_compiler(DEFAULT_DB_ALIAS).as_sql()
    return sql, list(params)


def update_sql(
    model: type[Model], fields: Sequence[Field], keys: Sequence[str] = ("pk",)
) -> tuple[str, list]:
    """The ORM's `UPDATE` of `fields` of the `model` rows whose `keys` (the primary key by default)
    have given values, compiled with the sample values 0, 1, … for the fields and then the keys, and
    its parameters."""
    query = UpdateQuery(model)
    query.add_update_fields([(field, None, Value(i)) for i, field in enumerate(fields)])
    for i, key in enumerate(keys):
        query.add_filter(key, len(fields) + i)
    sql, params = query.get_compiler(DEFAULT_DB_ALIAS).as_sql()
    return sql, list(params)


# --- Django: a language's catalogue --------------------------------------------------------------


def catalogue_gettext(language: str) -> Callable[[str], str]:
    """The `gettext` of `language`'s merged catalogues (the project's and Django's), without the
    active-language read that `django.utils.translation.gettext` makes on every call."""
    return trans_real.translation(language).gettext


# --- Jinja2: rendering a compiled template -------------------------------------------------------


def render_template(template, variables: dict) -> str:
    """What `template.render(variables)` returns when `variables` already holds the template's
    globals: the compiled root function run on a context made of `variables` alone, without the
    merge with the environment's globals (a ChainMap) that `render` makes on every call."""
    context = template.new_context(variables, shared=True)
    return template.environment.concat(template.root_render_func(context))


# --- Channels: a group send that leaves one channel out ------------------------------------------


def can_send_to_others(layer) -> bool:
    """Whether `group_send_to_others` knows this layer's groups (Channels' in-memory layer and
    channels_redis's `RedisChannelLayer`; not the pub/sub one)."""
    return isinstance(layer, InMemoryChannelLayer | RedisChannelLayer)


# The group's members, the expired dropped first (as channels_redis's `group_send` drops them).
_LIVE_MEMBERS = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""


async def group_members(layer, group: str) -> list[str]:
    """The channels in `group`, the expired dropped first, as `group_send` drops them (one Lua
    script on Redis, not a MULTI/EXEC pipeline of its two commands: a third less client CPU)."""
    if isinstance(layer, RedisChannelLayer):
        connection = layer.connection(layer.consistent_hash(group))
        members = await connection.register_script(_LIVE_MEMBERS)(
            keys=[layer._group_key(group)], args=[int(time.time()) - layer.group_expiry]
        )
        return [name.decode("utf8") for name in members]
    layer._clean_expired()
    return list(layer.groups.get(group, ()))


async def send_to_channels(layer, channels: Iterable[str], message: dict) -> int:
    """`message` to each channel, as `group_send` sends it to a group's members (a full channel is
    skipped); how many channels."""
    sent = 0
    for channel in channels:
        with contextlib.suppress(ChannelFull):
            await layer.send(channel, message)
        sent += 1
    return sent


async def group_send_to_others(layer, group: str, message: dict, left_out: str) -> int:
    """`layer.group_send(group, message)` to every member of the group but the channel `left_out`
    (the caller has delivered it already); returns how many channels it sent to."""
    members = await group_members(layer, group)
    return await send_to_channels(layer, [channel for channel in members if channel != left_out], message)
