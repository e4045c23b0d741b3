"""Check a hand export offline: the fairness commitment, the wall, and a full replay.

A hand export is the engine's replay format as one JSON object with exactly these keys:
`seed`, `rules`, `dealer`, `huangfan`, `stake`, `actions`, `commitment`, `wall`, and `gengfeng` (the
match's earlier 跟风, `home` §9) only when it is not 0
(`python -m games.engine verify HAND_EXPORT.json`; the web site exports the same object).

Two kinds of failure are kept apart: `ExportError` — the input is not a hand export at all (wrong
type, missing or unknown key, bad notation) — and `VerifyFailed` — a well-formed export whose
check fails (the commitment does not hash, the wall is not the seed's, an action is refused, the
hand never ends). Both carry a one-line English message (the command line prints it) and a `code`
with its `details`, which a web page words in its reader's language.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from .actions import Action, RuleError
from .kinds import Phase, ResultKind
from .result import HandResult
from .rules import Rules
from .state import GameState
from .tiles import NotationError, check_counts, format_tiles, parse_tiles
from .wall import SeedError, check_seed, shuffled_wall

EXPORT_KEYS = ("seed", "rules", "dealer", "huangfan", "stake", "actions", "commitment", "wall")
OPTIONAL_KEYS = ("gengfeng",)
MAX_ACTIONS = 2000  # a real hand has a few hundred at most; more is not a hand export
MAX_BYTES = 1_000_000
WALL_SIZE = 144
_HEX64 = re.compile(r"[0-9a-f]{64}")


class _Refusal(Exception):
    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.details = details


class ExportError(_Refusal, ValueError):
    """The input is not a well-formed hand export. Codes: `too_big`, `not_json`, `not_object`,
    `missing_keys` / `unknown_keys` (details: keys), `bad_field` (key), `bad_action` (index),
    `unreadable`."""


class VerifyFailed(_Refusal):
    """A well-formed export whose fairness or replay check fails. Codes: `commitment`,
    `wall_not_seed`, `cannot_deal` (reason: the engine's code), `action_refused` (index, action,
    reason), `unfinished` (count)."""


@dataclass(frozen=True)
class HandExport:
    seed: str
    rules: Rules
    dealer: int
    huangfan: int
    stake: int
    actions: tuple[Action, ...]
    commitment: str
    wall: str
    gengfeng: int = 0

    def to_json(self) -> dict[str, Any]:
        extra = {"gengfeng": self.gengfeng} if self.gengfeng else {}
        return extra | {
            "seed": self.seed,
            "rules": self.rules.to_json(),
            "dealer": self.dealer,
            "huangfan": self.huangfan,
            "stake": self.stake,
            "actions": [str(a) for a in self.actions],
            "commitment": self.commitment,
            "wall": self.wall,
        }


@dataclass(frozen=True)
class VerifyReport:
    export: HandExport
    state: GameState  # the replayed hand, ended

    @property
    def result(self) -> HandResult:
        return self.state.result

    def summary(self) -> str:
        result = self.result
        if result.kind == ResultKind.WIN:
            won = ", ".join(f"seat {w.seat} {w.pattern} {w.value}" for w in result.winners)
            outcome = f"won ({won})"
        else:
            outcome = "drawn"
        payments = " ".join(f"{p:+d}" for p in result.payments)
        return (
            f"ok: commitment {self.export.commitment} = sha256(seed:wall); wall shuffled from the seed; "
            f"{len(self.export.actions)} actions replayed; hand {outcome}; payments {payments}"
        )


def _int(data: dict, key: str, low: int, high: int | None = None) -> int:
    value = data[key]
    if type(value) is not int or value < low or (high is not None and value > high):
        bound = f"{low}–{high}" if high is not None else f"≥ {low}"
        raise ExportError("bad_field", f"{key} must be an integer {bound}, not {value!r}", key=key)
    return value


def parse_export(data: Any) -> HandExport:
    """Validate a decoded JSON value strictly; raise `ExportError` with a one-line message."""
    if not isinstance(data, dict):
        raise ExportError("not_object", f"a hand export is a JSON object, not {type(data).__name__}")
    missing = [k for k in EXPORT_KEYS if k not in data]
    if missing:
        raise ExportError("missing_keys", f"missing key(s): {', '.join(missing)}", keys=missing)
    unknown = sorted(str(k) for k in data if k not in EXPORT_KEYS + OPTIONAL_KEYS)
    if unknown:
        raise ExportError("unknown_keys", f"unknown key(s): {', '.join(unknown)}", keys=unknown)
    try:
        seed = check_seed(data["seed"])
    except SeedError as exc:
        raise ExportError("bad_field", f"seed: {exc}", key="seed") from None
    try:
        rules = Rules.from_json(data["rules"])
    except (TypeError, ValueError) as exc:
        raise ExportError("bad_field", f"rules: {exc}", key="rules") from None
    dealer = _int(data, "dealer", 0, 3)
    huangfan = _int(data, "huangfan", 0, 1000)
    stake = _int(data, "stake", 1, 10**9)
    gengfeng = _int(data, "gengfeng", 0, 1000) if "gengfeng" in data else 0
    raw_actions = data["actions"]
    if not isinstance(raw_actions, list) or len(raw_actions) > MAX_ACTIONS:
        message = f"actions must be a list of at most {MAX_ACTIONS} texts like '2:chow:3m'"
        raise ExportError("bad_field", message, key="actions")
    actions = []
    for i, text in enumerate(raw_actions, start=1):
        try:
            actions.append(Action.parse(text))
        except (RuleError, ValueError) as exc:
            raise ExportError("bad_action", f"action {i}: {getattr(exc, 'message', exc)}", index=i) from None
    commitment = data["commitment"]
    if not isinstance(commitment, str) or not _HEX64.fullmatch(commitment):
        message = "commitment must be 64 lowercase hex digits (a SHA-256)"
        raise ExportError("bad_field", message, key="commitment")
    wall = data["wall"]
    try:
        tiles = parse_tiles(wall)
        check_counts(tiles)
    except NotationError as exc:
        raise ExportError("bad_field", f"wall: {exc}", key="wall") from None
    if len(tiles) != WALL_SIZE:
        raise ExportError("bad_field", f"wall must hold all {WALL_SIZE} tiles, not {len(tiles)}", key="wall")
    return HandExport(
        seed, rules, dealer, huangfan, stake, tuple(actions), commitment, format_tiles(tiles), gengfeng
    )


def loads_export(text: str | bytes) -> HandExport:
    if len(text) > MAX_BYTES:
        raise ExportError("too_big", f"a hand export is at most {MAX_BYTES} bytes", limit=MAX_BYTES)
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportError("not_json", f"not JSON: {exc}") from None
    except RecursionError:
        raise ExportError("not_json", "not JSON: nested too deeply") from None
    return parse_export(data)


def commitment_of(seed: str, wall: str) -> str:
    return hashlib.sha256(f"{seed}:{wall}".encode()).hexdigest()


def verify_export(export: HandExport) -> VerifyReport:
    """Check the commitment, that the wall is the seed's shuffle, and replay every action to the end."""
    if commitment_of(export.seed, export.wall) != export.commitment:
        message = "the commitment is not sha256(seed + ':' + wall): seed or wall was changed"
        raise VerifyFailed("commitment", message)
    if format_tiles(shuffled_wall(export.seed)) != export.wall:
        raise VerifyFailed("wall_not_seed", "the wall is not the one this seed shuffles")
    try:
        state = GameState.new(
            export.rules, export.dealer, export.huangfan, export.stake, export.seed, export.gengfeng
        )
    except RuleError as exc:
        raise VerifyFailed("cannot_deal", f"cannot deal this hand: {exc.message}", reason=exc.code) from None
    for i, action in enumerate(export.actions, start=1):
        try:
            state.apply(action)
        except RuleError as exc:
            message = f"action {i} ({action}) is refused: {exc.code}: {exc.message}"
            raise VerifyFailed(
                "action_refused", message, index=i, action=str(action), reason=exc.code
            ) from None
    if state.phase != Phase.ENDED:
        count = len(export.actions)
        raise VerifyFailed("unfinished", f"the hand is not finished after {count} actions", count=count)
    return VerifyReport(export, state)


def verify_path(path: str) -> VerifyReport:
    """Read and check a file; `ExportError` if it cannot be read as an export."""
    try:
        with open(path, "rb") as fh:
            text = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ExportError("unreadable", f"cannot read {path}: {exc.strerror or exc}") from None
    return verify_export(loads_export(text))
