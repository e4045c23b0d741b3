"""Room settings, written by staff (the admin's room form calls `room_save`).

A room sets its defaults (preset, house options, timers) and what players may choose for a table
(allowed presets and options, stake list, timer limits). Every value is checked here, so a bad
setting never reaches a deal.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.engine.bots import levels as bot_levels
from games.engine.rules import Rules
from games.errors import ServiceError
from games.models import Room, Table
from games.table_options import OPTIONS_BY_KEY, PRESET_NAMES, STANDARD, STANDARD_ONLY_KEYS, TABLE_OPTION_KEYS

from .broadcast import on_commit_lobby_changed
from .changes import bump, locked_table
from .moderation import room_close

ROOM_FIELDS = (
    "name",
    "preset",
    "rules_options",
    "discard_timeout",
    "claim_timeout",
    "bot_delay",
    "claim_pause",
    "bot_level",
    "stakes",
    "ready_timeout",
    "grace_period",
    "is_open",
    "allowed_presets",
    "allowed_options",
    "timer_min",
    "timer_max",
)


class RoomSettingsError(ServiceError):
    """A refused room setting; `field` names it ("rules_options.KEY" for one house option), so a form
    can show the error beside it; `message`
    is a lazy gettext, worded in the language of the staff member who reads it."""

    def __init__(self, field: str, message) -> None:
        super().__init__("bad_room_settings", message)
        self.field = field


def _whole(value, field: str, *, low: int = 0) -> int:
    if type(value) is not int or value < low:
        raise RoomSettingsError(field, format_lazy(_("不小于{low}的整数。"), low=low))
    return value


def check_room_settings(values: dict[str, Any]) -> dict[str, Any]:
    """The settings, checked and normalised; raises RoomSettingsError for the first bad one."""
    missing = [name for name in ROOM_FIELDS if name not in values]
    if missing:
        raise RoomSettingsError(missing[0], _("必填。"))
    out = {name: values[name] for name in ROOM_FIELDS}
    if not isinstance(out["name"], str) or not out["name"].strip():
        raise RoomSettingsError("name", _("需要一个名字。"))
    if out["preset"] not in PRESET_NAMES:
        raise RoomSettingsError(
            "preset", format_lazy(_("只能是：{choices}。"), choices=", ".join(PRESET_NAMES))
        )
    options = out["rules_options"]
    if not isinstance(options, dict):
        raise RoomSettingsError("rules_options", _('房规选项应是一个对象，例如 {"menqing": "lezi"}。'))
    try:
        Rules.of_preset(out["preset"], options)
    except (ValueError, TypeError) as error:
        raise RoomSettingsError(
            "rules_options", format_lazy(_("不合这个玩法：{error}"), error=error)
        ) from None
    stakes = out["stakes"]
    if (
        not isinstance(stakes, list)
        or not stakes
        or any(not isinstance(k, int) or isinstance(k, bool) or k <= 0 for k in stakes)
    ):
        raise RoomSettingsError("stakes", _("一串正整数，例如 [1, 2, 5, 10]。"))
    out["stakes"] = sorted(set(stakes))
    if out["bot_level"] not in bot_levels():
        raise RoomSettingsError(
            "bot_level", format_lazy(_("只能是：{choices}。"), choices=", ".join(bot_levels()))
        )
    for name in ("bot_delay", "claim_pause"):
        if not isinstance(out[name], Decimal) or out[name] < 0:
            raise RoomSettingsError(name, _("秒数，0 或更多。"))
    for name in ("ready_timeout", "grace_period"):
        _whole(out[name], name)
    low = _whole(out["timer_min"], "timer_min", low=1)
    high = _whole(out["timer_max"], "timer_max", low=1)
    if low > high:
        raise RoomSettingsError("timer_max", _("最长时限不能短于最短时限。"))
    for name in ("discard_timeout", "claim_timeout"):
        if not low <= _whole(out[name], name) <= high:
            raise RoomSettingsError(
                name, format_lazy(_("须在时限之内：{low}到{high}秒。"), low=low, high=high)
            )
    presets = out["allowed_presets"]
    if not isinstance(presets, list) or not presets or any(p not in PRESET_NAMES for p in presets):
        raise RoomSettingsError("allowed_presets", _("至少选一个玩法。"))
    if out["preset"] not in presets:
        raise RoomSettingsError("allowed_presets", _("房间自己的玩法必须允许。"))
    allowed = out["allowed_options"]
    if not isinstance(allowed, list) or any(key not in TABLE_OPTION_KEYS for key in allowed):
        raise RoomSettingsError(
            "allowed_options",
            format_lazy(_("选项只能在这些之中：{choices}。"), choices=", ".join(TABLE_OPTION_KEYS)),
        )
    if STANDARD not in presets:
        unused = [OPTIONS_BY_KEY[key] for key in options if key in STANDARD_ONLY_KEYS]
        if unused:
            message = format_lazy(_("{option}只用于上海清混碰，本房间没有这个玩法。"), option=unused[0].label)
            raise RoomSettingsError(f"rules_options.{unused[0].key}", message)
    out["allowed_presets"] = [p for p in PRESET_NAMES if p in presets]
    out["allowed_options"] = [key for key in TABLE_OPTION_KEYS if key in allowed]
    out["is_open"] = bool(out["is_open"])
    out["name"] = out["name"].strip()
    return out


def room_save(*, room_id: int | None, values: dict[str, Any]) -> Room:
    """Create (room_id None) or change a room. Closing an open room closes its tables after their
    current hand (`room_close`)."""
    cleaned = check_room_settings(values)
    with transaction.atomic():
        if room_id is None:
            room = Room(**cleaned)
            closing = False
        else:
            room = Room.objects.select_for_update().filter(pk=room_id).first()
            if room is None:
                raise ServiceError("no_such_room")
            closing = room.is_open and not cleaned["is_open"]
            for name, value in cleaned.items():
                setattr(room, name, value)
            if closing:
                room.is_open = True  # room_close does the closing, tables included
        if Room.objects.filter(name=room.name).exclude(pk=room.pk).exists():
            raise RoomSettingsError("name", _("已有同名的房间。"))
        room.save()
        if closing:
            room_close(room_id=room.pk)
            room.refresh_from_db()
        elif room_id is not None:
            # The room's waiting tables show its stakes and timers: pushed again. A table in play
            # reads the settings at its next hand and keeps its version (no click goes stale).
            for table_id in room.tables.filter(status=Table.Status.WAITING).values_list("pk", flat=True):
                bump(locked_table(table_id), lobby=True)
        on_commit_lobby_changed()
    return room
