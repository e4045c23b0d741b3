"""What a bot can read about its opponents, and how dangerous a discard is.

Everything here uses public information only (melds, rivers, flowers, wall count, claim counts)
plus the bot's own tiles, through `unseen`: the copies of each kind the bot cannot see. Another
seat's concealed kong lies face down (`GameState.view`): it shows that a kong is there, never its
kind, so nothing here reads its tiles.

Under Shanghai rules an opponent can only win with a qualifying pattern, so their melds say a lot:
melds all in one suit (plus honours) point at 混一色 / 清一色 and make that suit and the honours
dangerous; melds that are all pongs in several suits point at 碰碰胡, where only tiles the opponent
may hold a pair of are dangerous; a chow together with melds in two suits means no pattern is left
and the opponent is harmless.

Under 敲 (`declare_ready`) the melds are not needed to judge closeness: only a declared seat may
win, so a declared seat is a sure threat (level 1) and every other seat is harmless.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import sub
from typing import NamedTuple

from ..kinds import MeldKind
from ..scoring.core import meld_hua

# Threat by number of declared melds (more melds: closer to ready, and fewer tiles to hide).
_MELD_THREAT = (0.0, 0.0, 0.2, 0.7, 1.0)
_FULL_WALL = 80  # about the wall left after the deal and the flower replacements


class Threat(NamedTuple):
    """One opponent as seen from the table: how close they look and which tiles fit them.

    (A named tuple: read several times per decision and built cheaply.)"""

    seat: int
    level: float  # 0 (harmless) … 1 (surely ready)
    suits: tuple[bool, bool, bool]  # which suits a one-suit hand of theirs could be in
    pongs: bool  # an all-pongs hand is still possible
    suited_ok: bool  # a hand with suit tiles is still possible (false: only honours)
    partner: bool  # already 承包 partners with the reader: their wins cost the reader more


def visible_counts(state) -> list[int]:
    """Copies of each of the 34 kinds everyone can see: declared melds (not concealed kongs, which
    lie face down) and unclaimed river tiles.

    The same for every seat, and it only grows by river tiles between melds, so the answer for the
    last state read is kept and brought up to date: new river tiles are added, and any change in
    the melds (a meld added or replaced; a claim also marks a river tile claimed) recounts from
    scratch. Callers must not modify the returned list."""
    return _visible(state)[0]


def _visible(state) -> tuple[list[int], list[int]]:
    """(`visible_counts`, 4 minus it per kind), kept up to date together."""
    melds = state.melds
    meld_mark = tuple(map(tuple, melds))  # the meld objects themselves: any change replaces one
    rivers = state.rivers
    cached = _VISIBLE[0]
    if cached is not None and cached[0] is state and cached[1] == meld_mark:
        _, _, seen, left, lengths = cached
        for seat in range(4):
            river = rivers[seat]
            done = lengths[seat]
            size = len(river)
            if size == done:
                continue
            if size < done:
                break  # not a hand that only grew: recount
            for r in river[done:]:
                if not r.claimed:
                    seen[r.tile] += 1
                    left[r.tile] -= 1
            lengths[seat] = size
        else:
            return seen, left
    seen = [0] * 34
    for seat_melds in melds:
        for meld in seat_melds:
            if meld.kind != _FACE_DOWN:
                for t in meld.tiles:
                    seen[t] += 1
    for river in rivers:
        for r in river:
            if not r.claimed:
                seen[r.tile] += 1
    left = [4 - n for n in seen]
    _VISIBLE[0] = (state, meld_mark, seen, left, [len(r) for r in rivers])
    return seen, left


_VISIBLE: list = [None]
_FACE_DOWN = "kong_concealed"  # a meld whose kind only its owner sees


def unseen_counts(state, seat: int) -> list[int]:
    """Copies of each of the 34 kinds that `seat` cannot see (in other hands, other seats'
    concealed kongs or the wall)."""
    unseen = list(map(sub, _visible(state)[1], state.counts[seat]))
    for meld in state.melds[seat]:
        if meld.kind == _FACE_DOWN:  # its own concealed kong: known to this seat alone
            unseen[meld.tiles[0]] -= 4
    if min(unseen) < 0:  # only a hand-built table can show more than four copies
        unseen = [n if n > 0 else 0 for n in unseen]
    return unseen


def group_reads(state, me: int) -> list[tuple[int, int, int, int]]:
    """What each opponent (in turn order after `me`) seems to do with each group (m, p, s,
    honours): 1 collecting (a meld in it, or none of four or more discards from it), -1 shedding
    (two or more discards from it and no meld), 0 unknown. Public information only."""
    reads = []
    for k in (1, 2, 3):
        other = (me + k) % 4
        shed = [0, 0, 0, 0]
        river = state.rivers[other]
        for r in river:
            tile = r.tile
            shed[tile // 9 if tile < 27 else 3] += 1
        kept = [0, 0, 0, 0]
        for meld in state.melds[other]:
            if meld.kind != _FACE_DOWN:
                tile = meld.tiles[0]
                kept[tile // 9 if tile < 27 else 3] += 1
        settled = len(river) >= 4
        reads.append(
            tuple(
                1 if kept[g] or (settled and not shed[g]) else (-1 if shed[g] >= 2 else 0) for g in range(4)
            )
        )
    return reads


def live_weights(state, me: int, unseen: Sequence[int], shed_bonus: float, keep_cost: float) -> list[float]:
    """`unseen`, each kind weighted by how likely its copies are to reach `me`: a group that
    opponents shed comes out of their hands as discards (and can be claimed), a group they collect
    stays in their hands. Weight per group: 1 + shed_bonus × shedders − keep_cost × collectors."""
    reads = group_reads(state, me)
    mult = []
    for g in range(4):
        w = 1.0
        for row in reads:
            if row[g] < 0:
                w += shed_bonus
            elif row[g] > 0:
                w -= keep_cost
        mult.append(w if w > 0.1 else 0.1)
    m, p, s, h = mult
    return [n * (m if k < 9 else p if k < 18 else s if k < 27 else h) for k, n in enumerate(unseen)]


def lateness(wall_remaining: int) -> float:
    """0 at the start of a hand, 1 when the wall is empty."""
    left = wall_remaining / _FULL_WALL
    return 1.0 - left if left < 1.0 else 0.0


def read_threat(state, me: int, other: int) -> Threat:
    """What `other`'s melds and river say about the hand they are building."""
    return _threat(state, me, other, lateness(state.wall_remaining))


def _threat(state, me: int, other: int, late: float) -> Threat:
    """`read_threat` with the wall's lateness already read."""
    melds = state.melds[other]
    shape = _hand_shape(state, other, melds)
    declaring = _declaring(state)
    if declaring and not state.declared[other]:
        # 敲: a seat that has not declared cannot win, whatever its melds show.
        return Threat(other, 0.0, (False, False, False), False, True, False)
    if shape is None:
        if not declaring:
            return Threat(other, 0.0, (False, False, False), False, True, False)
        # Declared, so surely ready on something its melds do not show: anything may fit.
        shape = ((True, True, True), True)
    suits, pongs = shape
    n = len(melds)
    if declaring:
        level = 1.0  # 敲: a declared seat is ready, and everyone knows it
    else:
        level = _MELD_THREAT[n if n < 4 else 4] + (0.3 * (late - 0.5) if late > 0.5 else 0.0)
    feeds = state.feeds
    partner = feeds[other][me] >= 3 or feeds[me][other] >= 3
    return Threat(other, min(level, 1.0), suits, pongs, True, partner)


def _hand_shape(state, other: int, melds) -> tuple[tuple[bool, bool, bool], bool] | None:
    """(suits a one-suit hand of `other` could be in, all pongs still possible), or None when no
    pattern is left. Read from their melds and river only, which within one hand only grow (an
    added kong keeps its pong's suit), so the reading is kept per seat until either grows."""
    river = state.rivers[other]
    mark = (len(melds), len(river))
    kept = _HAND_SHAPES[0]
    if kept is None or kept[0] is not state:
        kept = _HAND_SHAPES[0] = (state, {})
    known = kept[1].get(other)
    if known is not None and known[0] == mark:
        return known[1]
    suits_in: set[int] = set()
    has_chow = False
    for meld in melds:
        if meld.kind == _FACE_DOWN:
            continue  # any kind: it says nothing about the suit
        first = meld.tiles[0]
        if first < 27:
            suits_in.add(first // 9)
        if meld.kind == MeldKind.CHOW:
            has_chow = True
    one_suit = len(suits_in) <= 1
    pongs = not has_chow
    if not one_suit and not pongs:
        shape = None
    elif suits_in:
        shape = (tuple(s in suits_in and one_suit for s in range(3)), pongs)
    else:
        # No suit declared yet: a suit they keep discarding is unlikely to be theirs.
        shed = [0, 0, 0]
        for r in river:
            if r.tile < 27:
                shed[r.tile // 9] += 1
        shape = (tuple(shed[s] <= 2 for s in range(3)), pongs)
    kept[1][other] = (mark, shape)
    return shape


_HAND_SHAPES: list = [None]


def threat_value(state, other: int) -> float:
    """Rough points a win of `other` pays per share (as `evaluate.plan_value` prices a plan), read
    from its face-up melds and its flowers: honours only, 20; one suit and no honour meld (清一色
    in the making) or one suit in pongs (混碰), 10; otherwise 2 + 花 (a face-down kong counts 2).
    With no meld shown, 2 + flowers: nothing yet says the hand is expensive."""
    melds = state.melds[other]
    hua = len(state.flowers[other])
    suits = set()
    honours = chows = False
    shown = 0
    for meld in melds:
        if meld.kind == _FACE_DOWN:
            hua += 2
            continue
        shown += 1
        hua += meld_hua(meld)
        first = meld.tiles[0]
        if first < 27:
            suits.add(first // 9)
        else:
            honours = True
        chows = chows or meld.kind == MeldKind.CHOW
    if shown and not suits:
        return 20.0
    if len(suits) == 1 and (not honours or not chows):
        return 10.0
    return float(min(2 + hua, 10))


def _declaring(state) -> bool:
    """敲 (`declare_ready`) is played: only a declared seat can win, and declaring is public.
    (Positions built by hand in tests may carry no rules: then it is not played.)"""
    rules = getattr(state, "rules", None)
    return rules is not None and rules.declare_ready


def read_threats(state, me: int) -> list[Threat]:
    """The three opponents' threats; empty while nobody can be close (few melds, early; under 敲,
    nobody declared) and no one is a claim away from becoming the reader's 承包 partner."""
    feeds = state.feeds
    late = lateness(state.wall_remaining)
    if _declaring(state):
        if not any(state.declared[s] for s in range(4) if s != me) and not any(
            feeds[s][me] == 2 for s in range(4) if s != me
        ):
            return []
    elif late <= 0.5:
        melds = state.melds
        for s in range(4):
            if s != me and (len(melds[s]) >= 2 or feeds[s][me] == 2):
                break
        else:
            return []
    return [_threat(state, me, (me + k) % 4, late) for k in (1, 2, 3)]


def fit(threat: Threat, tile: int, unseen: Sequence[int]) -> float:
    """How likely `tile` completes a hand of the kind `threat` can still make (0 … 1)."""
    left = unseen[tile]
    # Pair and pong waits need copies in the opponent's hand; with none unseen they are impossible.
    pair_wait = 1.0 if left >= 2 else (0.5 if left == 1 else 0.0)
    if tile >= 27:
        return pair_wait
    if threat.suits[tile // 9]:
        # Sequences in their suit wait on tiles whatever the copies: never fully safe.
        return max(pair_wait, 0.7)
    if threat.pongs:
        return 0.6 * pair_wait
    return 0.0


# Of the tiles that fit an opponent's hand, the share that are among their waits once they are ready.
WAIT_SHARE = 0.15


def danger(tile: int, threats: Sequence[Threat], unseen: Sequence[int]) -> float:
    """Rough chance that discarding `tile` deals in, summed over the opponents (a partner's win
    costs double, so it counts double)."""
    total = 0.0
    for threat in threats:
        if threat.level:
            weight = threat.level * (2.0 if threat.partner else 1.0)
            total += weight * fit(threat, tile, unseen)
    return total * WAIT_SHARE


def chengbao_risk(state, me: int, tile: int, unseen: Sequence[int], threats: Sequence[Threat]) -> float:
    """Rough chance that discarding `tile` gives an opponent their third claim from the reader,
    making the two 承包 partners (the reader then pays double when that player wins)."""
    risk = 0.0
    feeds = state.feeds
    for other in range(4):
        if other == me or feeds[other][me] != 2 or feeds[me][other] >= 3:
            continue
        threat = next((t for t in threats if t.seat == other), None) or read_threat(state, me, other)
        suited_fit = tile >= 27 or threat.suits[tile // 9] or threat.pongs
        if not suited_fit:
            continue
        # A pong needs two of the unseen copies in their hand.
        share = sum(state.counts[other]) / max(1, sum(unseen))
        left = unseen[tile]
        risk += left * (left - 1) / 2 * share * share
        if other == (me + 1) % 4 and tile < 27 and threat.suits[tile // 9]:
            risk += 0.3
    return risk
