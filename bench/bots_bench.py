"""Bot strength and speed by self-play (issue 5). Prints figures; asserts nothing.

    .venv/bin/python bench/bots_bench.py [--hands 4000] [--seed S[,S2,...]] [--only normal|hard|speed]
        [--preset standard|lazi|home] [--options JSON]

`--preset` and `--options` (room options, rules §11, as `python -m games.engine simulate` takes them)
set the rules of every match; for example the home game with 敲, where the bots' 敲 check is the
costly part of a decision:

    .venv/bin/python bench/bots_bench.py --only speed --preset home --options '{"declare_ready": true}'

Runs, with seats rotating between hands (as `python -m games.engine simulate` does):

1. `normal,easy,easy,easy` — normal's win rate against an easy seat's, and its gain per hand;
2. `hard,normal,normal,normal` — the same for hard against normal;
3. `normal,normal,normal,normal` — hands per CPU second and the decision p99 (every seat's
   decision, timed in CPU time).

Several comma-separated seeds run each match once per seed, and a last line per match gives the
spread of the ratio and the gain over them (a direction that holds on one seed only is noise: over
4000 hands a win rate moves by about ±0.007 between seeds, a ratio by about ±0.05).

Targets: the stronger bot wins ≥ 1.5× as often as a weaker seat and gains on average; a decision
≤ 10 ms at p99; four normal bots ≥ 100 hands/s on one core.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import get_bot, register  # noqa: E402
from games.engine.rules import Rules  # noqa: E402
from games.engine.simulate import rules_from_args, simulate  # noqa: E402


class _Timed:
    """Wraps a bot to time each of its decisions in CPU time (`simulate` times all seats by the
    wall clock, which other processes on a shared machine inflate)."""

    def __init__(self, bot, sink: list[float]) -> None:
        self.bot, self.sink, self.level = bot, sink, bot.level

    def choose(self, state, seat: int):
        start = time.process_time()
        action = self.bot.choose(state, seat)
        self.sink.append(time.process_time() - start)
        return action


def _p99_ms(times: list[float]) -> float:
    times = sorted(times)
    return times[min(len(times) - 1, int(len(times) * 0.99))] * 1000 if times else 0.0


def match(hands: int, seed: str, strong: str, weak: str, rules: Rules) -> tuple[float, float]:
    strong_times: list[float] = []
    factory = type(get_bot(strong))
    register(strong, lambda: _Timed(factory(), strong_times))
    started = time.process_time()
    try:
        summary = simulate(hands, seed, [strong, weak, weak, weak], rules)
    finally:
        register(strong, factory)
    cpu = time.process_time() - started
    a, b = summary["per_level"][strong], summary["per_level"][weak]
    ratio = a["win_rate"] / b["win_rate"] if b["win_rate"] else float("inf")
    print(f"{strong} vs 3×{weak}: {hands} hands, seed {seed!r}")
    for level, row in ((strong, a), (weak, b)):
        print(
            f"  {level:7s} win {row['win_rate']:.4f}  deal-in {row['deal_in_rate']:.4f}  "
            f"gain/hand {row['avg_gain']:+.3f}  draw {row['draw_rate']:.4f}"
        )
    print(
        f"  win-rate ratio {ratio:.2f} (target ≥ 1.5); decision p99 {summary['decision_p99_ms']} ms "
        f"(all seats, wall), {_p99_ms(strong_times):.3f} ms ({strong} alone, CPU)"
    )
    print(f"  {hands / cpu:.1f} hands per CPU second")
    return ratio, a["avg_gain"]


def across(strong: str, weak: str, results: list[tuple[float, float]]) -> None:
    """One line over all seeds: a target met on some seeds only is not met."""
    ratios = [r for r, _ in results]
    gains = [g for _, g in results]
    print(
        f"{strong} vs 3×{weak} over {len(results)} seeds: win-rate ratio min {min(ratios):.2f} "
        f"mean {sum(ratios) / len(ratios):.2f} max {max(ratios):.2f}; gain/hand min {min(gains):+.3f} "
        f"mean {sum(gains) / len(gains):+.3f}"
    )


def _speed(hands: int, seed: str, rules: Rules) -> None:
    times: list[float] = []
    factory = type(get_bot("normal"))
    register("normal", lambda: _Timed(factory(), times))
    started = time.process_time()
    try:
        summary = simulate(hands, seed, ["normal"] * 4, rules)
    finally:
        register("normal", factory)
    cpu = time.process_time() - started
    print(f"4×normal: {hands} hands, seed {seed!r}, rules {_options_text(rules)}")
    print(
        f"  {hands / cpu:.1f} hands per CPU second (target ≥ 100); decision p99 {_p99_ms(times):.3f} ms "
        f"(CPU, {len(times)} decisions), {summary['decision_p99_ms']} ms (wall)"
    )


def _options_text(rules: Rules) -> str:
    """The preset and the options that differ from the defaults, for the heading of a run."""
    default = Rules().to_json()
    changed = {k: v for k, v in rules.to_json().items() if k != "preset" and v != default[k]}
    return rules.preset + (f" {changed}" if changed else "")


def parse_run(parser: argparse.ArgumentParser, default_seed: str) -> tuple[argparse.Namespace, list[str]]:
    """Adds `--hands` and `--seed` (comma-separated) to `parser`, parses, and checks them."""
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", default=default_seed)
    args = parser.parse_args()
    if args.hands < 1:
        parser.error("--hands must be positive")
    seeds = [seed for seed in args.seed.split(",") if seed]
    if not seeds:
        parser.error("--seed needs at least one non-empty seed")
    return args, seeds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("normal", "hard", "speed"), help="run one of the three")
    parser.add_argument("--preset", choices=("standard", "lazi", "home"), default="standard")
    parser.add_argument("--options", help="room options as JSON, e.g. '{\"declare_ready\": true}'")
    args, seeds = parse_run(parser, "bots-bench")
    rules, problem = rules_from_args(args.preset, args.options)
    if rules is None:
        parser.error(problem)
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for seed in seeds:
        if args.only in (None, "normal"):
            results.setdefault(("normal", "easy"), []).append(
                match(args.hands, seed, "normal", "easy", rules)
            )
        if args.only in (None, "hard"):
            results.setdefault(("hard", "normal"), []).append(
                match(args.hands, seed, "hard", "normal", rules)
            )
        if args.only in (None, "speed"):
            _speed(max(1, args.hands // 4), seed, rules)
    if len(seeds) > 1:
        for (strong, weak), rows in results.items():
            across(strong, weak, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
