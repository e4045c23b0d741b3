"""The `hard` bot: `normal`'s plans and claims, with a sharper reading of which tiles will come.

Self-play (bench/bots_bench.py) showed where the strength is: every discard that gives up useful
tiles for safety costs more wins than it saves in deal-ins, because these tables end quickly (about
nine hands in ten have a winner, three in four on a discard). So `hard` defends only against a hand
that is surely close (three or more melds showing a pattern, or two late in the wall); otherwise it
discards purely for speed and value:

- Live tiles: a useful tile counts by how likely its copies are to reach this seat. Opponents'
  rivers and melds show which groups (m, p, s, honours) they shed — those come out as discards, to
  be drawn, claimed or won on — and which they collect — those stay in their hands
  (`defense.live_weights`).
- Value and flexibility: every discard is ranked with the plans one step farther counted as a
  tie-break (`slack=1`), weighted by what each plan pays, so among equally fast discards the one
  that keeps a richer or second plan alive wins, and the junk shortcut is not taken.
- Push or fold by value: against a sure threat it weighs danger at every distance, scaled by what
  the threat's hand pays (`defense.threat_value`: a 清一色 or 混碰 in the making costs 10, a cheap
  混一色 2 + 花) against what its own plan pays, between half and three times its `caution`. A
  cheap hand gives way to an expensive threat even when ready; an expensive one pushes.
- 大吊车: a win on the pair of the one tile held, every other set on the table, pays at least
  1 勒子 (10) whatever the pattern. Ready with three sets on the table and a cheaper hand, `hard`
  takes a pong or chow that keeps it ready when the held tile's live copies times 10 beat its live
  waits times what the hand pays now; holding one tile, it prices its hand at 10 against threats.

On duplicate deals against three `normal` (`bench/bots_duplicate.py`), the figures are in
`STRENGTH.md` next to this file, with everything tried and the ceiling a bot that sees the
opponents' tiles reaches.
"""

from __future__ import annotations

from .. import actions
from ..kinds import ActionKind
from . import evaluate as ev
from .defense import live_weights, read_threats, threat_value
from .normal import NormalBot, Position, claimed_meld

_SURE_THREAT = 0.7  # threat level (defense.read_threat) from which `hard` defends at all
_SHED_BONUS = 0.5  # live_weights: per opponent shedding a group
_KEEP_COST = 0.2  # live_weights: per opponent collecting a group
_VALUE_RATIO = (0.5, 3.0)  # bounds of (threat's value / own plan's value), which scales `caution`
_DADIAOCHE = 10.0  # 大吊车 pays at least 1 勒子 a share (RULES.md §7, step 2)


class HardBot(NormalBot):
    level = "hard"
    caution = (0.2, 0.5, 1.5, 3.0)
    reach = (2.0, 1.3)

    def discard(self, pos: Position, discards: list[actions.Action]) -> actions.Action:
        if not pos.plans:
            return super().discard(pos, discards)
        by_tile = {a.tile: a for a in discards}
        options = self.rank_discards(pos)
        return by_tile[self.pick(pos, options, read_threats(pos.state, pos.seat)).tile]

    def rank_discards(self, pos: Position) -> list[ev.DiscardOption]:
        """Every discard ranked for speed and value, best first, before any danger is weighed."""
        live = live_weights(pos.state, pos.seat, pos.unseen, _SHED_BONUS, _KEEP_COST)
        planner = ev.DiscardPlanner(pos.counts, pos.plans, live, self.reach)
        return planner.rank(pos.weights(), slack=1, claims=self.claim_reach)

    def pick(self, pos: Position, options, threats, cautions=None):
        weighed = self.weigh_threats(pos, options, threats)
        if weighed is None:
            return options[0]
        sure, cautions = weighed
        return super().pick(pos, options, sure, cautions)

    def weigh_threats(self, pos: Position, options, threats):
        """(the sure threats, the caution per distance `pick` weighs their danger with), or None
        when no threat is sure and the first option is taken (the review reads the same figures)."""
        sure = [t for t in threats if t.level >= _SURE_THREAT]
        if not sure:
            return None
        own = pos.weights().get(options[0].plan, 2.0)
        if sum(pos.counts) == 2:
            own = max(own, _DADIAOCHE)  # every other set is on the table: it waits on a pair
        theirs = max(threat_value(pos.state, t.seat) * (2.0 if t.partner else 1.0) for t in sure)
        low, high = _VALUE_RATIO
        ratio = min(high, max(low, theirs / own))
        return sure, tuple(c * ratio for c in self.caution)

    def claim(self, pos: Position, kinds: dict[str, list[actions.Action]], tile: int) -> actions.Action:
        action = super().claim(pos, kinds, tile)
        if (
            action.kind == ActionKind.PASS
            and sum(pos.counts) == 4
            and (ActionKind.PONG in kinds or ActionKind.CHOW in kinds)
        ):
            return self.dadiaoche_claim(pos, kinds, tile) or action
        return action

    def dadiaoche_claim(
        self, pos: Position, kinds: dict[str, list[actions.Action]], tile: int
    ) -> actions.Action | None:
        """Ready with three sets on the table (four tiles held), a pong or chow that leaves one tile
        held, still ready: the win on its pair is a 大吊车, worth at least 10. Taken when 10 (or the
        held tile's plan, if more) times the held tile's live copies beats what the hand pays now
        times its live waits; None otherwise."""
        if not pos.plans:
            return None
        before, closest = ev.closest_plans(pos.counts, pos.plans)
        weights = pos.weights()
        now = max(weights[plan] for plan in closest)
        if before != 0 or now >= _DADIAOCHE:
            return None
        live = live_weights(pos.state, pos.seat, pos.unseen, _SHED_BONUS, _KEEP_COST)
        counts = pos.counts
        waits = 0.0
        for kind in range(len(counts)):
            if live[kind] > 0 and counts[kind] < 4:
                counts[kind] += 1
                if ev.best_shanten(counts, pos.plans)[0] < 0:
                    waits += live[kind]
                counts[kind] -= 1
        best, best_gain = None, now * waits
        hua = pos.hua
        for action in (*kinds.get(ActionKind.PONG, ()), *kinds.get(ActionKind.CHOW, ())):
            shape, remove = claimed_meld(action, tile)
            plans = ev.open_plans(pos.shapes + [shape])
            held = list(counts)
            for t, n in remove.items():
                held[t] -= n
            for keep in (k for k, n in enumerate(held) if n):
                fits = [plan for plan in plans if ev.plan_uses(plan, keep)]
                if not fits:
                    continue
                value = max(_DADIAOCHE, *(float(ev.plan_value(plan, hua)) for plan in fits))
                if value * live[keep] > best_gain:
                    best, best_gain = action, value * live[keep]
        return best
