"""`python -m games.engine score FILE.json`: score every case of a vector file, one JSON line each.

Cases are parsed strictly (the fields described in tests/engine/cases/README.md): anything malformed raises
`CaseError` with a one-line message naming the case and the problem. The command prints one line per case
whatever happens to the others: a case that is malformed, names an option the engine does not know or
cannot be scored prints `{"name": ..., "error": "..."}` instead of its result. Only a file that cannot be
read as a JSON list of cases stops the command before the first line.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from .melds import Meld
from .rules import Rules
from .scoring import WinContext, score_win, settle
from .tiles import NotationError, check_counts, is_dragon, is_flower, parse_tiles

CASE_FIELDS = {
    "name", "preset", "options", "stake", "dealer", "dice", "huangfan", "winner", "win", "from", "hand",
    "melds", "flowers", "winning_tile", "feeds", "ready", "last_tile", "first_go_round", "expect",
}  # fmt: skip


class CaseError(ValueError):
    """A case that cannot be read."""


def _tiles(text: Any, what: str) -> list[int]:
    if not isinstance(text, str):
        raise CaseError(f"{what} must be tile notation text; got {text!r}")
    return parse_tiles(text)


def parse_case(case: Any) -> tuple[str, WinContext, Rules]:
    """Read one case into (name, context, rules); raises `CaseError` on anything malformed."""
    if not isinstance(case, dict):
        raise CaseError(f"a case must be a JSON object; got {type(case).__name__}")
    name = case.get("name")
    if not isinstance(name, str) or not name:
        raise CaseError("every case needs a non-empty string 'name'")
    try:
        unknown = sorted(set(case) - CASE_FIELDS)
        if unknown:
            raise CaseError(f"unknown field(s) {', '.join(unknown)}")
        options = case.get("options", {})
        if not isinstance(options, dict) or "preset" in options:
            raise CaseError("options must be an object of room options (the preset is its own field)")
        rules = Rules.of_preset(case.get("preset", "standard"), options)
        hand = _tiles(case.get("hand"), "hand")
        if any(is_flower(t) for t in hand):
            raise CaseError("flowers belong in 'flowers', not in 'hand'")
        flowers = _tiles(case.get("flowers", ""), "flowers")
        dragons_too = rules.preset == "home"
        if not all(is_flower(t) or (dragons_too and is_dragon(t)) for t in flowers):
            raise CaseError("'flowers' may hold only flower tiles (and dragons in the home preset)")
        melds_json = case.get("melds", [])
        if not isinstance(melds_json, list):
            raise CaseError("melds must be a list")
        melds = tuple(Meld.from_json(m) for m in melds_json)
        winning = case.get("winning_tile")
        win_code = None
        if winning is not None:
            codes = _tiles(winning, "winning_tile")
            if len(codes) != 1 or is_flower(codes[0]):
                raise CaseError(f"winning_tile must be one suit or honour tile; got {winning!r}")
            win_code = codes[0]
        all_tiles = hand + flowers + ([] if win_code is None else [win_code])
        for meld in melds:
            all_tiles.extend(meld.tiles)
        check_counts(all_tiles)
        dice = case.get("dice", [2, 5])
        feeds = case.get("feeds", [[0] * 4] * 4)
        ready = case.get("ready", [False] * 4)
        for value, what in ((dice, "dice"), (feeds, "feeds"), (ready, "ready")):
            if not isinstance(value, list):
                raise CaseError(f"{what} must be a list")
        if not all(isinstance(row, list) for row in feeds):
            raise CaseError("feeds must be a 4x4 matrix")
        ctx = WinContext(
            winner=case.get("winner"),
            win=case.get("win"),
            concealed=tuple(hand),
            winning_tile=win_code,
            melds=melds,
            flowers=tuple(flowers),
            from_seat=case.get("from"),
            dealer=case.get("dealer", 0),
            dice=tuple(dice),
            huangfan=case.get("huangfan", 0),
            stake=case.get("stake", 1),
            feeds=tuple(tuple(row) for row in feeds),
            ready=tuple(ready),
            last_tile=case.get("last_tile", False),
            first_go_round=case.get("first_go_round", False),
        )
        for flag in ("last_tile", "first_go_round"):
            if type(case.get(flag, False)) is not bool:
                raise CaseError(f"{flag} must be true or false")
    except (ValueError, TypeError) as exc:  # NotationError, MeldError, ScoringError are ValueErrors
        raise CaseError(f"case {name!r}: {exc}") from exc
    return name, ctx, rules


def score_case(case: Any) -> dict[str, Any]:
    name, ctx, rules = parse_case(case)
    try:
        result = score_win(ctx, rules)
    except ValueError as exc:
        raise CaseError(f"case {name!r}: {exc}") from exc
    return {
        "name": name,
        "legal": result.legal,
        "pattern": result.pattern,
        "features": list(result.features),
        "hua": result.hua,
        "value": result.value,
        "payments": settle([(ctx, result)], rules),
    }


def load_cases(path: str) -> list[Any]:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise CaseError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CaseError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(data, list):
        raise CaseError(f"{path} must hold a JSON list of cases")
    return data


def _case_name(case: Any) -> Any:
    return case.get("name") if isinstance(case, dict) else None


def score_line(case: Any, duplicated: bool = False) -> dict[str, Any]:
    """The output line of one case: its result, or `{"name", "error"}` when it cannot be scored."""
    name = _case_name(case)
    if duplicated:
        return {"name": name, "error": f"duplicate case name {name!r}"}
    try:
        return score_case(case)
    except CaseError as exc:
        return {"name": name, "error": str(exc)}
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:  # a gap in parse_case
        return {"name": name, "error": f"case {name!r}: {type(exc).__name__}: {exc}"}


def run_score(path: str, out: TextIO) -> int:
    """Print one line per case of the file; return how many cases had an error line."""
    cases = load_cases(path)
    names = [_case_name(case) for case in cases]
    errors = 0
    for case, name in zip(cases, names, strict=True):
        line = score_line(case, isinstance(name, str) and names.count(name) > 1)
        errors += "error" in line
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return errors


__all__ = ["CaseError", "NotationError", "load_cases", "parse_case", "run_score", "score_case", "score_line"]
