"""The `hard` bot: `normal`'s plans and claims, with a sharper reading of which tiles will come.

Self-play (bench/bots_bench.py) showed where the strength is: every discard that gives up useful
tiles for safety costs more wins than it saves in deal-ins, because these tables end quickly (about
nine hands in ten have a winner, three in four on a discard). So `hard` defends only against a hand
that is surely close (three or more melds showing a pattern, or two late in the wall) and only
while its own hand is still far from ready; otherwise it discards purely for speed and value:

- Live tiles: a useful tile counts by how likely its copies are to reach this seat. Opponents'
  rivers and melds show which groups (m, p, s, honours) they shed — those come out as discards, to
  be drawn, claimed or won on — and which they collect — those stay in their hands
  (`defense.live_weights`).
- Value and flexibility: every discard is ranked with the plans one step farther counted as a
  tie-break (`slack=1`), weighted by what each plan pays, so among equally fast discards the one
  that keeps a richer or second plan alive wins, and the junk shortcut is not taken.

Measured against three `normal` bots (`bench/bots_bench.py --only hard --hands 4000 --seed
A,B,C,D,E,F`, seats rotating): win rate 1.00-1.10 × a normal seat's (mean 1.06), gain per hand
-0.01 on average (-0.41 on the worst seed).
Everything tried to go further, and the ceiling even a bot that sees the opponents' tiles reaches
(`bench/bots_ceiling.py`, about 1.35×), is in `STRENGTH.md` next to this file.
"""

from __future__ import annotations

from .. import actions
from . import evaluate as ev
from .defense import live_weights, read_threats
from .normal import NormalBot, Position

_SURE_THREAT = 0.7  # threat level (defense.read_threat) from which `hard` defends at all
_SHED_BONUS = 0.5  # live_weights: per opponent shedding a group
_KEEP_COST = 0.2  # live_weights: per opponent collecting a group


class HardBot(NormalBot):
    level = "hard"
    caution = (0.0, 0.0, 1.5, 3.0)
    reach = (2.0, 1.3)

    def discard(self, pos: Position, discards: list[actions.Action]) -> actions.Action:
        if not pos.plans:
            return super().discard(pos, discards)
        by_tile = {a.tile: a for a in discards}
        live = live_weights(pos.state, pos.seat, pos.unseen, _SHED_BONUS, _KEEP_COST)
        planner = ev.DiscardPlanner(pos.counts, pos.plans, live, self.reach)
        options = planner.rank(pos.weights(), slack=1, claims=self.claim_reach)
        return by_tile[self.pick(pos, options, read_threats(pos.state, pos.seat)).tile]

    def pick(self, pos: Position, options, threats):
        sure = [t for t in threats if t.level >= _SURE_THREAT]
        if not sure:
            return options[0]
        return super().pick(pos, options, sure)
