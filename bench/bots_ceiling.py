"""How strong a bot built on these plans could get at all: `hard` that sees the opponents' tiles.

    .venv/bin/python bench/bots_ceiling.py [--hands 4000] [--seed S[,S2,...]] [--against normal|easy|both]

A bot may read only its own concealed tiles and public information (`games.engine.bots`). This
bench breaks that rule on purpose, to put a number on what reading the opponents better could ever
be worth. Its `sighted` bot — a bench fixture, never a level a room can pick — is `hard` with two
cheats, each of which a fair bot can only approximate:

- it never deals in: a discard that would complete an opponent's hand is dropped whenever another
  discard is possible (the opponents' exact waits, `GameState.winning_tiles`);
- it counts only the copies that can reach it: an unseen copy held by an opponent whose closest
  plans use it stays in that hand, so it counts for nothing; the rest (in the wall, or an
  opponent's junk, which will be discarded) count as usual.

It plays against three `normal` (the `hard` target: ≥ 1.5× a normal seat's win rate) and three
`easy` (the `normal` target), seats rotating, and prints what `bench/bots_bench.py` prints.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots_bench import across, match, parse_run  # noqa: E402

from games.engine.actions import Action  # noqa: E402
from games.engine.bots import evaluate as ev  # noqa: E402
from games.engine.bots import register  # noqa: E402
from games.engine.bots.defense import read_threats  # noqa: E402
from games.engine.bots.hard import HardBot  # noqa: E402
from games.engine.bots.normal import Position  # noqa: E402
from games.engine.tiles import N_KINDS  # noqa: E402


def reachable_copies(state, me: int, unseen: list[int]) -> list[float]:
    """`unseen`, less the copies an opponent holds and keeps (their closest plans use the kind)."""
    live = [float(n) for n in unseen]
    for other in range(4):
        if other == me:
            continue
        counts = state.counts[other]
        plans = Position(state, other).plans
        closest = ev.closest_plans(counts, plans)[1] if plans else []
        for kind in range(N_KINDS):
            if counts[kind] and any(ev.plan_uses(plan, kind) for plan in closest):
                live[kind] -= counts[kind]
    return live


def deal_in_tiles(state, me: int) -> set[int]:
    """Every tile that would complete some opponent's hand now."""
    return {tile for other in range(4) if other != me for tile in state.winning_tiles(other)}


class SightedBot(HardBot):
    """`hard`, reading the opponents' concealed tiles (see the module docstring). Bench only."""

    level = "sighted"

    def discard(self, pos: Position, discards: list[Action]) -> Action:
        losing = deal_in_tiles(pos.state, pos.seat)
        safe = [a for a in discards if a.tile not in losing] or discards
        by_tile = {a.tile: a for a in safe}
        if not pos.plans:
            return super().discard(pos, safe)
        live = reachable_copies(pos.state, pos.seat, pos.unseen)
        planner = ev.DiscardPlanner(pos.counts, pos.plans, live, self.reach)
        options = [
            o for o in planner.rank(pos.weights(), slack=1, claims=self.claim_reach) if o.tile in by_tile
        ]
        return by_tile[self.pick(pos, options, read_threats(pos.state, pos.seat)).tile]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", choices=("normal", "easy", "both"), default="both")
    args, seeds = parse_run(parser, "bots-ceiling")
    register(SightedBot.level, SightedBot)
    weak_levels = ("normal", "easy") if args.against == "both" else (args.against,)
    for weak in weak_levels:
        results = [match(args.hands, seed, SightedBot.level, weak) for seed in seeds]
        if len(results) > 1:
            across(SightedBot.level, weak, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
