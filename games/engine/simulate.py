"""`python -m games.engine simulate`: bots play whole hands; every hand is checked as it ends.

Four players (one bot each) move one seat on after every hand, while the dealer and the 荒番 count
follow the rules (`HandResult.dealer_next` / `huangfan_next`). Hand `i`'s seed is
`sha256(S + ":" + i)`, so a run is reproducible from `--seed S`. After every hand the 144 tiles
must all be accounted for and the payments must sum to zero, or the run stops with an error.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .bots import get_bot, levels
from .garden import Garden
from .kinds import Phase, ResultKind
from .rules import Rules
from .state import GameState
from .tiles import N_FLOWERS, N_KINDS

FULL_CENSUS = [4] * N_KINDS + [1] * N_FLOWERS


class SimulationError(RuntimeError):
    """A hand broke an invariant (tiles not conserved, payments not zero-sum)."""


def hand_seed(seed: str, index: int) -> str:
    return hashlib.sha256(f"{seed}:{index}".encode()).hexdigest()


def play_hand(state: GameState, bots: list, timings: list[float] | None = None) -> GameState:
    """Let `bots[seat]` answer for each seat until the hand ends."""
    clock = time.perf_counter
    while state.phase != Phase.ENDED:
        seat = state.pending_seats()[0]
        if state.phase == Phase.SWAP:  # 换牌: the bots do not choose burials yet; each seat skips
            state.apply(state.timeout_action(seat))
            continue
        if timings is None:
            action = bots[seat].choose(state, seat)
        else:
            start = clock()
            action = bots[seat].choose(state, seat)
            timings.append(clock() - start)
        state.apply(action)
    return state


def check_hand(state: GameState, index: int) -> None:
    if state.census() != FULL_CENSUS:
        raise SimulationError(f"hand {index}: tiles not conserved (seed {state.seed})")
    if sum(state.result.payments) != 0:
        raise SimulationError(f"hand {index}: payments {state.result.payments} do not sum to zero")


def export_of(state: GameState) -> dict[str, Any]:
    """A finished hand as a hand export (`verify`, `review` and the site's import read it)."""
    out = {key: value for key, value in state.to_json().items() if key in _EXPORT_KEYS}
    out["wall"] = state.reveal()["wall"]
    return out


_EXPORT_KEYS = ("seed", "rules", "dealer", "huangfan", "stake", "actions", "commitment", "gengfeng")


def simulate(
    hands: int,
    seed: str,
    levels_by_player: list[str],
    rules: Rules | None = None,
    on_hand: Callable[[int, GameState], None] | None = None,
) -> dict[str, Any]:
    """`on_hand(index, state)`: called with every hand once it has ended (say, to export it)."""
    rules = rules or Rules()
    bots = [get_bot(level) for level in levels_by_player]
    stats = {
        level: {"seat_hands": 0, "wins": 0, "deal_ins": 0, "gain": 0, "draws": 0}
        for level in dict.fromkeys(levels_by_player)
    }
    patterns: Counter[str] = Counter()
    features: Counter[str] = Counter()
    draws = huangfan_hands = 0
    timings: list[float] = []
    dealer, huangfan, gengfeng = 0, 0, 0
    # 逛花园: the hands run as matches; payments are what the stacks can cover
    garden = Garden.start(rules) if rules.garden != "off" else None
    matches = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for index in range(hands):
        seat_of_player = [(player + index) % 4 for player in range(4)]
        by_seat = [None] * 4
        for player, seat in enumerate(seat_of_player):
            by_seat[seat] = bots[player]
        state = GameState.new(
            rules=rules, dealer=dealer, huangfan=huangfan, seed=hand_seed(seed, index), gengfeng=gengfeng
        )
        play_hand(state, by_seat, timings)
        check_hand(state, index)
        if on_hand is not None:
            on_hand(index, state)
        result = state.result
        payments = result.payments
        new_match = False
        if garden is not None:
            payments, garden = garden.pay(result.transfers)
            garden = garden.after_hand(dealer, result.dealer_next)
            if garden.over:
                matches += 1
                new_match = True
                garden = Garden.start(rules)
        huangfan_hands += huangfan > 0
        drawn = result.kind == ResultKind.DRAW
        draws += drawn
        winners = {w.seat for w in result.winners}
        dealt_in = {w.from_seat for w in result.winners if w.win == "discard"}
        for w in result.winners:
            patterns[w.pattern or "none"] += 1
            features.update(w.features)
        for player, seat in enumerate(seat_of_player):
            row = stats[levels_by_player[player]]
            row["seat_hands"] += 1
            row["wins"] += seat in winners
            row["deal_ins"] += seat in dealt_in
            row["gain"] += payments[seat]
            row["draws"] += drawn
        dealer, huangfan, gengfeng = result.dealer_next, result.huangfan_next, result.gengfeng_next
        if new_match:
            gengfeng = 0  # 跟风 counts within a match
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    timings.sort()
    p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))] * 1000 if timings else 0.0
    per_level = {}
    for level, row in stats.items():
        n = row["seat_hands"] or 1
        per_level[level] = {
            "seat_hands": row["seat_hands"],
            "win_rate": round(row["wins"] / n, 4),
            "deal_in_rate": round(row["deal_ins"] / n, 4),
            "avg_gain": round(row["gain"] / n, 3),
            "draw_rate": round(row["draws"] / n, 4),
        }
    return {
        "hands": hands,
        "seed": seed,
        "bots": levels_by_player,
        "rules": rules.to_json(),
        "wins_by_pattern": dict(sorted(patterns.items())),
        "features": dict(sorted(features.items())),
        "draws": draws,
        "huangfan_hands": huangfan_hands,
        "per_level": per_level,
        "decision_p99_ms": round(p99, 3),
        **({"garden": {"matches_finished": matches, "stacks": list(garden.stacks)}} if garden else {}),
        "hands_per_second": round(hands / elapsed, 1) if elapsed > 0 else None,
        "hands_per_cpu_second": round(hands / cpu, 1) if cpu > 0 else None,
    }


def _fail(message: str) -> int:
    print(f"simulate: {message}", file=sys.stderr)
    return 2


def rules_from_args(preset: str | None, options: str | None) -> tuple[Rules | None, str]:
    """`--preset NAME` and `--options JSON` (room options, §11) into `Rules`, or (None, the problem)."""
    try:
        chosen = json.loads(options) if options else {}
    except json.JSONDecodeError as exc:
        return None, f"--options must be a JSON object: {exc}"
    if not isinstance(chosen, dict):
        return None, '--options must be a JSON object of room options, e.g. \'{"payment": "chu_chong"}\''
    if "preset" in chosen:
        return None, "give the preset with --preset, not inside --options"
    try:
        return Rules.of_preset(preset, chosen), ""
    except ValueError as exc:
        return None, str(exc)


def main_simulate(args: Any) -> int:
    """Run from parsed arguments (`hands`, `seed`, `bots`, `preset`, `options`, `export`); print one
    JSON summary. With `export`, each hand is also written to DIR/hand-NNNN.json as a hand export."""
    try:
        hands = int(args.hands)
    except (TypeError, ValueError):
        hands = 0
    if hands < 1:
        return _fail(f"--hands must be a positive integer, not {args.hands!r}")
    seed = args.seed if args.seed is not None else secrets.token_hex(32)
    if not isinstance(seed, str) or not seed:
        return _fail("--seed must be a non-empty string")
    names = [name.strip() for name in (getattr(args, "bots", None) or "easy,easy,easy,easy").split(",")]
    if len(names) != 4:
        return _fail("--bots needs four comma-separated levels, e.g. easy,easy,easy,easy")
    unknown = [name for name in names if name not in levels()]
    if unknown:
        return _fail(f"unknown bot level {unknown[0]!r}; known: {', '.join(levels())}")
    rules, problem = rules_from_args(getattr(args, "preset", None), getattr(args, "options", None))
    if rules is None:
        return _fail(problem)
    on_hand = None
    export_dir = getattr(args, "export", None)
    if export_dir:
        target = Path(export_dir)
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return _fail(f"cannot create --export directory {export_dir}: {exc.strerror or exc}")

        def on_hand(index: int, state: GameState) -> None:
            path = target / f"hand-{index:04d}.json"
            path.write_text(json.dumps(export_of(state), ensure_ascii=False), encoding="utf-8")

    try:
        summary = simulate(hands, seed, names, rules, on_hand)
    except SimulationError as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(summary, ensure_ascii=False))
    return 0
