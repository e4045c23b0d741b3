"""The closed set of messages a table socket accepts, parsed once into typed commands.

A message is a JSON object of at most `MAX_MESSAGE` characters with at most `MAX_BRACKETS` opening
brackets (so nesting, and the JSON parser's recursion, stays shallow: htmx's `ws-send` sends a flat
object plus a `HEADERS` object). It is either a platform command (`{"command": name, ...}`) or a game
action (`{"action": "0:discard:5p"}`, or the form fields `{"kind": "discard", "tile": "5p"}`), each
with the table `version` it was sent from. Anything else is refused with `bad_message` before any
service is called, and a game action the engine cannot read with `bad_action`; the version and the
action's legality are the services' to judge.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.services import (
    ServiceError,
    table_accept_stake,
    table_cancel_autoplay,
    table_refuse_stake,
    table_request_autoplay,
    table_start,
)
from games.services.commands import Move

MAX_MESSAGE = 4096
MAX_BRACKETS = 16
_SCALAR = (str, int, float, type(None))


@dataclass(frozen=True, slots=True)
class Act:
    """A game action, read from its text form or from a form's kind and tile fields."""

    action: Move
    version: Any


@dataclass(frozen=True, slots=True)
class NextHand:
    version: Any


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Send me the whole table again."""


@dataclass(frozen=True, slots=True)
class SetStake:
    stake: Any


@dataclass(frozen=True, slots=True)
class Swap:
    """换牌: bury these tiles (a list of tiles, or one text of them; the service counts them)."""

    tiles: Any
    version: Any


@dataclass(frozen=True, slots=True)
class TableCommand:
    """One of the platform commands that take nothing but the socket's user (`PLAIN_COMMANDS`):
    `service` is the verb it calls."""

    service: Callable[..., Any]


Command = Act | NextHand | Snapshot | SetStake | Swap | TableCommand

# The platform commands that take only the socket's user (issue 4): name -> service verb.
PLAIN_COMMANDS: dict[str, Callable[..., Any]] = {
    "accept_stake": table_accept_stake,
    "refuse_stake": table_refuse_stake,
    "start": table_start,
    "cancel_autoplay": table_cancel_autoplay,
    "request_autoplay": table_request_autoplay,
}


def bad() -> ServiceError:
    return ServiceError("bad_message")


def parse(text: Any) -> Command:
    """The command a socket's text message asks for; `ServiceError("bad_message")` for anything else."""
    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        raise bad()
    if text.count("[") + text.count("{") > MAX_BRACKETS:
        raise bad()
    try:
        message = json.loads(text)
    except ValueError as exc:
        raise bad() from exc
    if not isinstance(message, dict):
        raise bad()
    version = message.get("version")
    if not isinstance(version, _SCALAR):
        raise bad()
    command = message.get("command")
    if command is not None:
        return _command(command, message, version)
    action = message.get("action")
    if action is None:
        kind, tile = message.get("kind"), message.get("tile")
        if not isinstance(kind, str | None) or not isinstance(tile, str | None):
            raise bad()
        return Act(Move.from_fields(kind, tile), version)
    if not isinstance(action, str):
        raise bad()
    return Act(Move.parse(action), version)


def _command(command: Any, message: dict, version: Any) -> Command:
    if not isinstance(command, str):
        raise bad()
    if command in PLAIN_COMMANDS:
        return TableCommand(PLAIN_COMMANDS[command])
    if command == "set_stake":
        stake = message.get("stake")
        if not isinstance(stake, _SCALAR):
            raise bad()
        return SetStake(stake)
    if command == "swap":
        # swap.html's `tiles`: the chosen tiles as one text ("1m 5m 5m 7z 9s"), or a list of tiles
        tiles = message.get("tiles")
        if isinstance(tiles, list) and all(isinstance(t, str) for t in tiles):
            tiles = tuple(tiles)
        elif not isinstance(tiles, str | None):
            raise bad()
        return Swap(tiles or (), version)
    if command == "next_hand":
        return NextHand(version)
    if command == "snapshot":
        return Snapshot()
    raise bad()
