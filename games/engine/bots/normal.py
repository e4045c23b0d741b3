"""The `normal` bot: plans for a qualifying pattern, claims with judgement, defends when it must.

Each decision reads the bot's own tiles and public information only (`Position`):

- Discard: `evaluate.DiscardPlanner` (behind `evaluate_discards`) ranks the discards by the
  distance to the closest open plan (混一色 / 清一色 / 碰碰胡 / 混碰 / 风一色), then by useful tiles
  weighted by what the plan pays. Each candidate then pays a penalty for its danger (`defense.danger`, 承包 risk), scaled by
  how far the bot is from ready: a ready hand pushes, a far hand folds against a visible threat.
  With no threat on the table, a tile no closest plan can use is discarded without ranking.
- Claims: a pong, kong or chow is taken only if it brings the hand closer under a plan it leaves
  open (a chow keeps only the chow's suit; a pong of a second suit keeps only 碰碰胡); of several
  that bring it equally close, the one whose best discard afterwards keeps the most useful tiles.
  Wins and robbed kongs are always taken: passing one is 漏胡. A tile no closest plan uses is passed
  at once.
- Kongs on the bot's own turn: taken when they do not set the hand back.
- 敲 (`declare_ready`): a discard that leaves the hand ready is made as a declaration (only a
  declared seat may win); once declared, the only move, the drawn tile, is played.
"""

from __future__ import annotations

import math

from ..actions import Action
from ..kinds import ActionKind, MeldKind, Phase
from ..scoring.core import hua_of
from . import evaluate as ev
from .defense import chengbao_risk, danger, read_threats, unseen_counts

# What one unit of estimated deal-in chance costs, in steps of distance, when the hand is ready,
# one, two, three or more steps away. Kept light: in self-play every useful tile given up for
# safety cost more wins than it saved in deal-ins (about nine hands in ten have a winner).
_CAUTION = (0.2, 0.5, 1.0, 2.0)


class Position:
    """One seat's knowledge at a decision: own tiles, own melds, what it cannot see.

    `unseen` and `partner_watch` are read on first use: a claim decision never needs them."""

    __slots__ = ("state", "seat", "counts", "melds", "shapes", "plans", "_unseen", "_partner_watch")

    def __init__(self, state, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.counts = list(state.counts[seat])
        self.melds = melds = state.melds[seat]
        if melds:
            self.shapes = [ev.MeldShape(m.tiles[0], m.kind == MeldKind.CHOW) for m in melds]
            self.plans = ev.open_plans(self.shapes)
        else:
            self.shapes = []
            self.plans = list(ev.ALL_PLANS_OPEN)
        self._unseen = None
        self._partner_watch = None

    @property
    def unseen(self) -> list[int]:
        """Copies of each kind this seat cannot see (`defense.unseen_counts`)."""
        unseen = self._unseen
        if unseen is None:
            unseen = self._unseen = unseen_counts(self.state, self.seat)
        return unseen

    @property
    def partner_watch(self) -> bool:
        """Some opponent is one claim from becoming this seat's 承包 partner."""
        watch = self._partner_watch
        if watch is None:
            feeds, seat = self.state.feeds, self.seat
            watch = self._partner_watch = any(feeds[o][seat] == 2 for o in range(4) if o != seat)
        return watch

    @property
    def hua(self) -> int:
        """The 花 this seat holds now (flowers, kongs, honour pongs)."""
        return hua_of(self.counts, self.melds, self.state.flowers[self.seat])

    def weights(self) -> dict[int, float]:
        """What each open plan pays (`evaluate.plan_value`) at this seat's 花."""
        hua = self.hua
        values = _PLAN_VALUES.get(hua)
        if values is None:
            values = _PLAN_VALUES[hua] = tuple(
                float(ev.plan_value(plan, hua)) for plan in range(len(ev.ALL_PLANS))
            )
        return {plan: values[plan] for plan in self.plans}

    def distance(self) -> int:
        """Distance of the concealed tiles to the closest open plan (99: no plan left)."""
        if not self.plans:
            return 99
        return ev.best_shanten(self.counts, self.plans)[0]

    def distance_after(self, remove: dict[int, int], new_meld: ev.MeldShape | None) -> int:
        """Distance after taking tiles out of the hand (for a meld), under the plans left open."""
        counts = self.counts
        for tile, n in remove.items():
            counts[tile] -= n
        try:
            shapes = self.shapes + [new_meld] if new_meld is not None else self.shapes
            plans = ev.open_plans(shapes)
            return ev.best_shanten(counts, plans)[0] if plans else 99
        finally:
            for tile, n in remove.items():
                counts[tile] += n


# Per 花 count: each plan's value as a float, indexed by plan (a few dozen 花 counts occur).
_PLAN_VALUES: dict[int, tuple[float, ...]] = {}


def _by_kind(legal: list[Action]) -> dict[str, list[Action]]:
    out: dict[str, list[Action]] = {}
    for action in legal:
        out.setdefault(action.kind, []).append(action)
    return out


class NormalBot:
    level = "normal"
    value_weighted = True
    claim_reach = True
    reach = (ev.PONG_REACH, ev.CHOW_REACH)
    caution = _CAUTION

    def choose(self, state, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do")
        kinds = _by_kind(legal)
        for kind in (ActionKind.SELF_WIN, ActionKind.WIN):
            if kind in kinds:
                return kinds[kind][0]
        if len(legal) == 1:
            return legal[0]  # say a 敲 declared seat, which may only discard its drawn tile
        if state.phase != Phase.TURN:
            if state.phase == Phase.ROB:
                return kinds[ActionKind.PASS][0]
            return self.claim(Position(state, seat), kinds, state.last_discard)
        pos = Position(state, seat)
        kong = self.turn_kong(pos, kinds)
        if kong is not None:
            return kong
        action = self.discard(pos, kinds[ActionKind.DISCARD])
        for declare in kinds.get(ActionKind.DECLARE, ()):
            if declare.tile == action.tile:
                return declare  # 敲: only a declared seat may win, so declare whenever ready
        return action

    # ---------------------------------------------------------------- own turn

    def turn_kong(self, pos: Position, kinds: dict[str, list[Action]]) -> Action | None:
        """A concealed or added kong that does not set the hand back (it earns 花 and a draw)."""
        if ActionKind.CONCEALED_KONG not in kinds and ActionKind.ADDED_KONG not in kinds:
            return None
        before = pos.distance()
        for action in kinds.get(ActionKind.CONCEALED_KONG, ()):
            if pos.distance_after({action.tile: 4}, ev.MeldShape(action.tile, False)) <= before:
                return action
        for action in kinds.get(ActionKind.ADDED_KONG, ()):
            if pos.distance_after({action.tile: 1}, None) > before:
                continue
            # An added kong can be robbed (the konger pays all three shares): not into a threat.
            threats = read_threats(pos.state, pos.seat)
            if danger(action.tile, threats, pos.unseen) < 0.5:
                return action
        return None

    def discard(self, pos: Position, discards: list[Action]) -> Action:
        by_tile = {a.tile: a for a in discards}
        threats = read_threats(pos.state, pos.seat)
        if not pos.plans:
            # No qualifying hand is possible any more: discard purely for safety.
            return by_tile[min(by_tile, key=lambda t: (self.risk(pos, t, threats), -pos.counts[t], t))]
        planner = ev.DiscardPlanner(pos.counts, pos.plans, pos.unseen, self.reach)
        if not threats:
            junk = planner.junk()
            if junk:
                return by_tile[junk[0]]
        weights = pos.weights() if self.value_weighted else None
        options = planner.rank(weights, claims=self.claim_reach)
        return by_tile[self.pick(pos, options, threats).tile]

    def risk(self, pos: Position, tile: int, threats) -> float:
        risk = danger(tile, threats, pos.unseen)
        if pos.partner_watch:
            risk += 0.5 * chengbao_risk(pos.state, pos.seat, tile, pos.unseen, threats)
        return risk

    def pick(
        self,
        pos: Position,
        options: list[ev.DiscardOption],
        threats,
        cautions: tuple[float, ...] | None = None,
    ) -> ev.DiscardOption:
        """Offence (distance, then weighted useful tiles) against danger, scaled by distance
        (`cautions`, per distance; the bot's own `caution` unless given).

        `options` are ranked best first (as `DiscardPlanner.rank` returns them), so the first has
        the top score among the closest discards."""
        best = options[0]
        if not threats:
            return best
        top = best.score or 1.0
        step = best.shanten if best.shanten >= 0 else 0
        cautions = cautions or self.caution
        caution = cautions[step if step < len(cautions) else -1]

        if not caution:
            return best
        # Half the useful tiles costs about a third of a step of distance. A discard two steps
        # worse than the best is never worth its safety at these cautions.
        limit = best.shanten + 1

        log = math.log

        def offence(option: ev.DiscardOption) -> float:
            share = option.score / top  # kept within [0.05, 1]
            return -option.shanten + 0.5 * log(0.05 if share < 0.05 else 1.0 if share > 1.0 else share)

        # Best offence first, ties to the earlier option: the closest discards and those one step
        # farther each come in falling offence (ranked by score within a distance), so merging the
        # two runs orders them without scoring every option. Danger only lowers a discard's
        # utility, so once the offence alone cannot beat the best utility found the rest need no
        # danger reading.
        close_end = next_end = 0
        for option in options:
            if option.shanten > limit:
                break
            next_end += 1
            if option.shanten == best.shanten:
                close_end += 1
        i, j = 0, close_end
        off_i = offence(options[0])
        off_j = offence(options[j]) if j < next_end else -math.inf
        chosen, chosen_utility = best, -math.inf
        while True:
            if off_i >= off_j:
                if i == close_end:
                    break  # both runs used up
                value, option = off_i, options[i]
                i += 1
                off_i = offence(options[i]) if i < close_end else -math.inf
            else:
                value, option = off_j, options[j]
                j += 1
                off_j = offence(options[j]) if j < next_end else -math.inf
            if value < chosen_utility:
                break
            utility = value - caution * self.risk(pos, option.tile, threats)
            if utility > chosen_utility:
                chosen, chosen_utility = option, utility
        return chosen

    # ---------------------------------------------------------------- claims

    def claim(self, pos: Position, kinds: dict[str, list[Action]], tile: int) -> Action:
        """Take the claim that brings the hand closest to a plan it keeps open, else pass."""
        if pos.plans:
            before, closest = ev.closest_plans(pos.counts, pos.plans)
        else:
            before, closest = 99, []
        if ActionKind.EXPOSED_KONG not in kinds and not any(ev.plan_uses(plan, tile) for plan in closest):
            # A pong or chow of a tile no closest plan uses cannot bring the hand closer: a claimed
            # tile gains at most one step, under a plan already a step farther away.
            return kinds[ActionKind.PASS][0]
        progress: list[tuple[int, int, Action]] = []
        for rank, kind in enumerate(("exposed_kong", "pong", "chow")):
            for action in kinds.get(kind, ()):
                after = self.after_claim(pos, action, tile)
                # A kong draws a replacement, so no worse than now is progress (and earns 花).
                if after <= before if kind == ActionKind.EXPOSED_KONG else after < before:
                    progress.append((after, rank, action))
        if not progress:
            return kinds[ActionKind.PASS][0]
        after, rank, action = min(progress, key=lambda p: p[:2])
        tied = [p[2] for p in progress if p[0] == after and p[1] > 0]
        if rank == 0 or len(tied) < 2:
            return action
        # Several pongs / chows bring the hand equally close (say 7s with 56s or with 89s): take the
        # one that leaves the better hand, by the useful tiles of the best discard after it.
        return min(tied, key=lambda a: self.claim_outlook(pos, a, tile))

    def claim_outlook(self, pos: Position, action: Action, tile: int) -> tuple[int, float, int]:
        """(distance, minus the useful-tile score of the best discard, pong before chow) after
        taking `action`: lower is better."""
        shape, remove = claimed_meld(action, tile)
        counts = list(pos.counts)
        for t, n in remove.items():
            counts[t] -= n
        plans = ev.open_plans(pos.shapes + [shape])
        if not plans:
            return (99, 0.0, 0)
        best = ev.DiscardPlanner(counts, plans, pos.unseen, self.reach).rank(claims=self.claim_reach)[0]
        return (best.shanten, -best.score, 0 if action.kind == ActionKind.PONG else 1)

    @staticmethod
    def after_claim(pos: Position, action: Action, tile: int) -> int:
        shape, remove = claimed_meld(action, tile)
        return pos.distance_after(remove, shape)


def claimed_meld(action: Action, tile: int) -> tuple[ev.MeldShape, dict[int, int]]:
    """The meld a claim of `tile` declares, and the tiles it takes out of the hand."""
    if action.kind == ActionKind.CHOW:
        start = action.tile
        return ev.MeldShape(start, True), {t: 1 for t in (start, start + 1, start + 2) if t != tile}
    return ev.MeldShape(tile, False), {tile: 3 if action.kind == ActionKind.EXPOSED_KONG else 2}
