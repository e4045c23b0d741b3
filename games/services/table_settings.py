"""A table's rules and timers: what its players chose, within what its room allows.

A table's rules and timers are computed in `room_settings` (`table_rules`, `table_timers`), which
every deal and replay goes through. `clean_choices` checks a player's choices against the room;
`table_change_settings` lets the owner change them until a match starts, never after.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import Match, Room, Seat, Table
from games.table_options import OPTIONS_BY_KEY, PRESET_NAMES, Option, applies

from .changes import bump, locked_table, require_user
from .room_settings import room_rules
from .stakes import room_stakes
from .tables import table_create

# Invite codes: no 0/O, 1/I/L, so a code read aloud or copied by hand is not mistaken. 14 of these 31
# characters carry 69 random bits: the code is the only key to a private table, and guessing must
# stay hopeless even at many guesses a second from many addresses (views also throttle /join/).
INVITE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
INVITE_LENGTH = 14


@dataclass(frozen=True, slots=True)
class TableChoices:
    """What a player asks for when opening a table. None / absent means the room's setting."""

    preset: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    discard_timeout: int | None = None
    claim_timeout: int | None = None
    private: bool = False
    stake: int | None = None


def _refuse(code: str, message, field: str | None = None) -> ServiceError:
    """A refusal with words for this case (lazy: shown in the language of whoever reads it);
    `field`: the choice it concerns (a form shows it there)."""
    error = ServiceError(code, message)
    error.field = field
    return error


def _timer(room: Room, value, field: str, name) -> int | None:
    if value is None or value == "":
        return None
    if type(value) is not int:
        raise _refuse("bad_timer", format_lazy(_("{name}必须是整数秒"), name=name), field)
    if not room.timer_min <= value <= room.timer_max:
        message = format_lazy(
            _("{name}必须在{low}到{high}秒之间"), name=name, low=room.timer_min, high=room.timer_max
        )
        raise _refuse("bad_timer", message, field)
    return value


def clean_choices(room: Room, choices: TableChoices) -> dict[str, Any]:
    """The Table fields for these choices, or a ServiceError naming the first thing the room refuses.
    Options that the chosen preset does not use are left out (`ignored_options` names them)."""
    preset = choices.preset or room.preset
    if preset not in PRESET_NAMES or preset not in (room.allowed_presets or []):
        raise _refuse("preset_not_allowed", _("本房间没有这个玩法"))
    options = choices.options
    if not isinstance(options, dict):
        raise _refuse("bad_options", _("选项格式不对"))
    for key in options:
        if key not in OPTIONS_BY_KEY:
            raise _refuse("bad_options", _("没有这个选项"))
        if key not in (room.allowed_options or []):
            option = OPTIONS_BY_KEY[key]
            message = format_lazy(_("本房间不能设定{option}"), option=option.label)
            raise _refuse("option_not_allowed", message)
    try:
        room_rules(room, preset, options)
    except (ValueError, TypeError) as error:
        raise _refuse("bad_options", format_lazy(_("选项不合规则：{error}"), error=error)) from None
    # Options the preset does not use (RULES.md §11: payment, 九张包 … are `standard`'s) are not kept:
    # the engine would ignore them, and the table would show choices that change nothing.
    options = {key: value for key, value in options.items() if applies(OPTIONS_BY_KEY[key], preset)}
    stake = choices.stake
    if stake is not None and stake not in room_stakes(room):
        raise ServiceError("bad_stake")
    return {
        "preset": preset,
        "options": dict(options),
        "discard_timeout": _timer(room, choices.discard_timeout, "discard_timeout", _("出牌时间")),
        "claim_timeout": _timer(room, choices.claim_timeout, "claim_timeout", _("吃碰时间")),
        "private": bool(choices.private),
        "stake": stake,
    }


def ignored_options(preset: str, chosen: dict[str, Any], usual: dict[str, Any]) -> list[Option]:
    """The options a person set (a value other than `usual`, what the form offered) that `preset`
    does not use: `clean_choices` leaves them out, and the person is told so."""
    return [
        OPTIONS_BY_KEY[key]
        for key, value in chosen.items()
        if key in OPTIONS_BY_KEY and not applies(OPTIONS_BY_KEY[key], preset) and value != usual.get(key)
    ]


def new_invite_code() -> str:
    """A code no table holds yet (the unique column guards the rare race)."""
    while True:
        code = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))
        if not Table.objects.filter(invite_code=code).exists():
            return code


def normalise_invite_code(code: str) -> str:
    return (code or "").strip().upper()


# The session key holding the ids of the private tables whose invite link this browser opened.
INVITED_TABLES = "invited_tables"


def note_invited(session, table_id: int) -> None:
    """Remember in the browser's session that it opened this private table's invite link."""
    invited = list(session.get(INVITED_TABLES, []))
    if table_id not in invited:
        session[INVITED_TABLES] = [*invited, table_id][-50:]


def may_enter(*, private: bool, table_id: int, user, session, seated: bool) -> bool:
    """Whether this browser may open, watch or sit at the table: any public table; a private one
    only through its invite link (noted in the session), from a seat at it, or as staff. Table ids
    are sequential, so a private table must not be reachable by guessing its address."""
    if not private or seated or getattr(user, "is_staff", False):
        return True
    return session is not None and table_id in session.get(INVITED_TABLES, [])


def is_member(table_id: int, user) -> bool:
    """Whether this person sits at the table now or held a seat in one of its matches."""
    if user is None or not user.is_authenticated:
        return False
    if Seat.objects.filter(table_id=table_id, user_id=user.pk).exists():
        return True
    return any(
        user.pk in players
        for players in Match.objects.filter(table_id=table_id).values_list("players", flat=True)
    )


def may_see_table(*, table_id: int, private: bool, user, session) -> bool:
    """Whether this browser may see anything of the table: its page, socket, matches, hands,
    replays and exports. A private table is seen only by its members (`is_member`), browsers that
    opened its invite link and staff; to anyone else it answers as a table that does not exist."""
    if not private:
        return True
    return may_enter(
        private=True, table_id=table_id, user=user, session=session, seated=is_member(table_id, user)
    )


def table_open(*, room_id: int, user, choices: TableChoices) -> Table:
    """A new table with the player's choices (checked against the room); a private one gets an
    invite code. The creator sits in seat 0 and, when a stake was chosen, has accepted it."""
    require_user(user)
    with transaction.atomic():
        room = Room.objects.filter(pk=room_id).first()
        if room is None:
            raise ServiceError("no_such_room")
        fields = clean_choices(room, choices)
        if fields["private"]:
            fields["invite_code"] = new_invite_code()
        return table_create(room_id=room_id, user=user, settings=fields)


def table_change_settings(*, table_id: int, user, choices: TableChoices) -> Table:
    """The owner changes the table's choices while it waits for its first match; never after."""
    require_user(user)
    with transaction.atomic():
        table = locked_table(table_id)
        if table.owner_id != user.pk:
            raise _refuse("not_owner", _("只有桌主可以修改设定"))
        if table.status != Table.Status.WAITING or table.matches.exists():
            raise ServiceError("settings_locked")
        fields = clean_choices(table.room, choices)
        if fields.pop("stake") not in (None, table.stake):
            raise ServiceError("stake_already_set" if table.stake is not None else "bad_stake")
        for name, value in fields.items():
            setattr(table, name, value)
        if table.private and not table.invite_code:
            table.invite_code = new_invite_code()
            fields["invite_code"] = table.invite_code
        bump(table, *fields, lobby=True)
    return table
