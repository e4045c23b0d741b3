"""Pattern-aware hand evaluation for the bots.

Under Shanghai rules only qualifying hands win (RULES.md §5), so plain shanten is the wrong
measure: a hand one tile from an ordinary mixed hand is worthless. A bot instead measures the
distance to each qualifying *plan*:

- `HUN[s]`   one suit `s` plus honours, any sets (混一色; 清一色 if no honours end up in it)
- `QING[s]`  one suit `s` only (清一色)
- `PENG`     pongs and a pair, any tiles (碰碰胡)
- `HUNPENG[s]` pongs and a pair in suit `s` plus honours (混碰 / 清碰)
- `FENG`     honours only, any arrangement (风一色 / 风碰)

Distances use the usual shanten convention over the concealed tiles: with `3n+1` tiles, 0 means
ready (听牌); with `3n+2` tiles, -1 means complete. Tiles outside a plan simply count for nothing, so
the distance already charges for replacing them.

Hands are 34-count arrays (`tiles.to_counts`). The one-suit shanten reads a per-suit table of
(sets, partial sets, pair) frontiers keyed by the suit's counts in base 5, filled lazily and shared
by every bot in the process, so a discard decision costs dictionary look-ups, not a search.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import reduce
from itertools import compress
from operator import add, not_
from typing import NamedTuple

from games.engine.tiles import N_KINDS

HUN = (0, 1, 2)
QING = (3, 4, 5)
HUNPENG = (6, 7, 8)
PENG = 9
FENG = 10
ALL_PLANS = (*HUN, *QING, *HUNPENG, PENG, FENG)

PLAN_NAMES = {
    0: "hunyise-m",
    1: "hunyise-p",
    2: "hunyise-s",
    3: "qingyise-m",
    4: "qingyise-p",
    5: "qingyise-s",
    6: "hunpeng-m",
    7: "hunpeng-p",
    8: "hunpeng-s",
    9: "pengpeng",
    10: "fengyise",
}

HONOUR_CODES = tuple(range(27, 34))
_POW5 = tuple(5**i for i in range(9))
_NO_HONOURS = (0, 0)


def plan_allows(plan: int, code: int) -> bool:
    """Whether a tile kind can belong to a hand finished under `plan`."""
    if plan == PENG:
        return True
    if plan == FENG:
        return code >= 27
    suit = plan % 3
    if code >= 27:
        return plan not in QING
    return code // 9 == suit


# --------------------------------------------------------------------------------------------
# One suit: frontier of (sets, partial sets, pair) over the suit's counts.
#
# The tens of thousands of suit shapes met in play share a few hundred distinct frontiers, so each
# frontier is stored once under a small id: a suit key maps to its frontier id, a key's frontier is
# built from its sub-keys' ids (the merge memoised on those ids, so a new key costs a few look-ups),
# and the distance of a frontier with given honours (`_one_suit_cached`) is memoised per id.

_FRONTIERS: list[tuple[tuple[int, int, int], ...]] = [((0, 0, 0),)]
_FRONTIER_IDS: dict[tuple[tuple[int, int, int], ...], int] = {((0, 0, 0),): 0}
_KEY_FID: dict[int, int] = {0: 0}
# The tables keyed by suit shape grow with the shapes met (about 70 000 after 3 000 hands); past
# these sizes they start again, so a long-running server stays bounded. Ids and frontiers stay.
_KEY_FID_LIMIT = 400_000
_SHAPES_LIMIT = 300_000
_MERGED: dict[tuple[int, int, int, int, int, int], int] = {}


def suit_key(counts: Sequence[int], suit: int) -> int:
    """Base-5 key of one suit's nine counts (rank 1 is the lowest digit)."""
    base = suit * 9
    key = 0
    for i in range(8, -1, -1):
        key = key * 5 + counts[base + i]
    return key


def _pareto(options: Iterable[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    """Keep, per pair flag, the (sets, partials) options that no other option beats in both."""
    kept: list[tuple[int, int, int]] = []
    for m, t, h in sorted(set(options), reverse=True):
        if not any(km >= m and kt >= t and kh == h for km, kt, kh in kept):
            kept.append((m, t, h))
    return tuple(kept)


def suit_frontier(key: int) -> tuple[tuple[int, int, int], ...]:
    """All useful ways to split one suit into sets, partial sets and at most one pair.

    Returns (sets, partials, pair) triples where no other triple with the same pair flag has at
    least as many sets and partials. A pair counts either as the hand's pair or as a partial set.
    """
    fid = _KEY_FID.get(key)
    if fid is None:
        fid = _key_fid(key)
    return _FRONTIERS[fid]


def _key_fid(key: int) -> int:
    """The frontier id of a suit key, from the ids of the keys left after each use of its lowest
    rank: leave one tile unused, a pong, a pair (as the pair or a partial set), a run, and the two
    partial runs. -1 marks a use the counts do not allow."""
    fid = _KEY_FID.get(key)
    if fid is not None:
        return fid
    rest = key
    i = 0
    while rest % 5 == 0:
        rest //= 5
        i += 1
    # Counts of ranks i, i + 1 and i + 2 (zero past rank 9: the key has nine digits).
    c0, c1, c2 = rest % 5, rest // 5 % 5, rest // 25 % 5
    p = _POW5[i]
    q = 5 * p
    r = 25 * p
    parts = (
        _key_fid(key - p),
        _key_fid(key - 3 * p) if c0 >= 3 else -1,
        _key_fid(key - 2 * p) if c0 >= 2 else -1,
        _key_fid(key - p - q - r) if c1 and c2 else -1,
        _key_fid(key - p - q) if c1 else -1,
        _key_fid(key - p - r) if c2 else -1,
    )
    fid = _MERGED.get(parts)
    if fid is None:
        fid = _MERGED[parts] = _intern(_merge(parts))
    if len(_KEY_FID) >= _KEY_FID_LIMIT:
        _KEY_FID.clear()
        _KEY_FID[0] = 0
    _KEY_FID[key] = fid
    return fid


def _merge(parts: tuple[int, int, int, int, int, int]) -> tuple[tuple[int, int, int], ...]:
    """The frontier of a key from its sub-keys' frontier ids (see `_key_fid`)."""
    single, pong, pair, run, adjacent, gapped = parts
    options: list[tuple[int, int, int]] = list(_FRONTIERS[single])
    if pong >= 0:
        options.extend((m + 1, t, h) for m, t, h in _FRONTIERS[pong])
    if pair >= 0:
        for m, t, h in _FRONTIERS[pair]:
            options.append((m, t + 1, h))
            if h == 0:
                options.append((m, t, 1))
    if run >= 0:
        options.extend((m + 1, t, h) for m, t, h in _FRONTIERS[run])
    for partial in (adjacent, gapped):
        if partial >= 0:
            options.extend((m, t + 1, h) for m, t, h in _FRONTIERS[partial])
    return _pareto(options)


def _intern(frontier: tuple[tuple[int, int, int], ...]) -> int:
    fid = _FRONTIER_IDS.get(frontier)
    if fid is None:
        fid = _FRONTIER_IDS[frontier] = len(_FRONTIERS)
        _FRONTIERS.append(frontier)
    return fid


def honour_parts(counts: Sequence[int]) -> tuple[int, int]:
    """(pongs, pairs) among the honours; honours never form sequences."""
    pongs = pairs = 0
    for code in HONOUR_CODES:
        n = counts[code]
        if n >= 3:
            pongs += 1
        elif n == 2:
            pairs += 1
    return pongs, pairs


def _combine(frontier, honours: tuple[int, int], need: int) -> int:
    """Shanten from a suit frontier plus honour (pongs, pairs), for `need` sets still to make."""
    hm, hq = honours
    best = 0
    for m, t, h in frontier:
        # (sets, partial sets, pair) for each place the hand's pair can come from.
        if h:
            choices = ((m + hm, t + hq, 1),)
        else:
            choices = [(m + hm, t + hq, 0)]
            if hq:
                choices.append((m + hm, t + hq - 1, 1))
            elif hm:
                choices.append((m + hm - 1, t, 1))
        for sets, partial, head in choices:
            if sets > need:
                sets = need
            room = need - sets
            score = 2 * sets + (partial if partial < room else room) + head
            if score > best:
                best = score
    return 2 * need - best


def need_sets(n_concealed: int) -> int:
    """Sets still to make in the concealed part: 13 or 14 tiles need 4, 10 or 11 need 3, …"""
    return (n_concealed - 1) // 3 if n_concealed % 3 == 1 else (n_concealed - 2) // 3


def one_suit_shanten(counts: Sequence[int], suit: int, with_honours: bool, need: int) -> int:
    frontier = suit_frontier(suit_key(counts, suit))
    return _combine(frontier, honour_parts(counts) if with_honours else _NO_HONOURS, need)


def pong_shanten(counts: Sequence[int], allowed: Iterable[int], need: int) -> int:
    """Distance to all pongs and one pair, using only the tile kinds in `allowed`."""
    pongs = pairs = 0
    for code in allowed:
        n = counts[code]
        if n >= 3:
            pongs += 1
        elif n == 2:
            pairs += 1
    return _pong_value(pongs, pairs, need)


def honours_shanten(counts: Sequence[int], n_concealed: int) -> int:
    """Distance to an all-honour hand: every suited tile must be replaced."""
    suited = n_concealed - sum(counts[27:34])
    return suited if n_concealed % 3 == 1 else suited - 1


_SUIT_RANGES = tuple(tuple(range(s * 9, s * 9 + 9)) for s in range(3))
_PLAN_KINDS = {
    **{plan: _SUIT_RANGES[plan % 3] + HONOUR_CODES for plan in HUN},
    **{plan: _SUIT_RANGES[plan % 3] for plan in QING},
    **{plan: _SUIT_RANGES[plan % 3] + HONOUR_CODES for plan in HUNPENG},
    PENG: tuple(range(N_KINDS)),
    FENG: HONOUR_CODES,
}


def plan_kinds(plan: int) -> tuple[int, ...]:
    """The tile kinds a plan can use."""
    return _PLAN_KINDS[plan]


def shanten(plan: int, counts: Sequence[int], n_concealed: int | None = None) -> int:
    """Distance of the concealed tiles `counts` to a finished hand under `plan`."""
    if n_concealed is None:
        n_concealed = sum(counts)
    need = need_sets(n_concealed)
    if plan == FENG:
        return honours_shanten(counts, n_concealed)
    if plan < 3:
        formula = one_suit_shanten(counts, plan, True, need)
    elif plan < 6:
        formula = one_suit_shanten(counts, plan - 3, False, need)
    else:
        formula = pong_shanten(counts, _PLAN_KINDS[plan], need)
    return max(formula, junk_bound(n_concealed - sum(counts[k] for k in _PLAN_KINDS[plan]), n_concealed))


def junk_bound(junk: int, n_concealed: int) -> int:
    """The least distance a hand with `junk` tiles outside its plan can have: each junk tile needs
    a draw to replace it (the set-counting formula alone would let a junk tile be the last single)."""
    return junk if n_concealed % 3 == 1 else junk - 1


def useful_tiles(plan: int, counts: list[int], unseen: Sequence[int], current: int | None = None) -> int:
    """How many unseen tiles would bring a 3n+1 hand closer to finishing under `plan`.

    `counts` is modified during the call and restored before it returns.
    """
    n = sum(counts)
    if current is None:
        current = shanten(plan, counts, n)
    total = 0
    kinds = _PLAN_KINDS[plan]
    if plan == FENG:
        return sum(unseen[k] for k in kinds if counts[k] < 4) if current >= 0 else 0
    for k in kinds:
        left = unseen[k]
        if not left or counts[k] >= 4:
            continue
        counts[k] += 1
        if shanten(plan, counts, n + 1) < current:
            total += left
        counts[k] -= 1
    return total


# --------------------------------------------------------------------------------------------
# Which plans are still open, given the declared melds.


class MeldShape(NamedTuple):
    """What evaluation needs to know about one declared meld."""

    tile: int  # the meld's lowest tile
    is_chow: bool


def open_plans(melds: Iterable[MeldShape]) -> list[int]:
    """The plans the declared melds still allow."""
    suits: set[int] = set()
    has_chow = has_honour = False
    for meld in melds:
        if meld.tile >= 27:
            has_honour = True
        else:
            suits.add(meld.tile // 9)
        if meld.is_chow:
            has_chow = True
    plans: list[int] = []
    if len(suits) <= 1:
        for s in range(3):
            if suits and s not in suits:
                continue
            plans.append(HUN[s])
            if not has_honour:
                plans.append(QING[s])
            if not has_chow:
                plans.append(HUNPENG[s])
    if not has_chow:
        plans.append(PENG)
    if not suits:
        plans.append(FENG)
    return plans


# The plans open to a hand with no declared melds, in `open_plans` order.
ALL_PLANS_OPEN = tuple(open_plans(()))

# --------------------------------------------------------------------------------------------
# Discard evaluation.


class DiscardOption(NamedTuple):
    """One candidate discard: the plan it serves best, its distance and the tiles that help."""

    tile: int
    plan: int
    shanten: int
    useful: int
    score: float


def plan_value(plan: int, hua: int) -> int:
    """Rough points a finished hand under `plan` pays per share (RULES.md §7, no doubles)."""
    if plan in HUN or plan == PENG:
        return min(2 + hua, 10)
    if plan in QING or plan in HUNPENG:
        return 10
    return 20


def _one_suit_cached(key: int, hm: int, hq: int, need: int) -> int:
    """`_combine` of a suit key's frontier, memoised per frontier id (see `_key_fid`)."""
    fid = _KEY_FID.get(key)
    if fid is None:
        fid = _key_fid(key)
    packed = (fid << 10) | (hm << 7) | (hq << 3) | need
    value = _COMBINED.get(packed)
    if value is None:
        value = _combine(_FRONTIERS[fid], (hm, hq), need)
        _COMBINED[packed] = value
    return value


_COMBINED: dict[int, int] = {}
_SHAPES: dict[int, tuple[int, tuple[int, ...], bool, bool]] = {}


def _one_suit_shape(key: int, hm: int, hq: int, need: int) -> tuple[int, tuple[int, ...], bool, bool]:
    """Shanten of a suit + honours shape, the suit ranks whose draw improves it, and whether
    drawing an honour held once (making a pair) or twice (making a pong) improves it."""
    tail = (hm << 7) | (hq << 3) | need
    packed = (key << 10) | tail
    shape = _SHAPES.get(packed)
    if shape is None:
        current = _one_suit_cached(key, hm, hq, need)
        fid_of, values = _KEY_FID.get, _COMBINED
        ranks = []
        rest = key
        for r in range(9):
            if rest % 5 < 4:
                drawn = key + _POW5[r]
                fid = fid_of(drawn)
                value = None if fid is None else values.get((fid << 10) | tail)
                if value is None:
                    value = _one_suit_cached(drawn, hm, hq, need)
                if value < current:
                    ranks.append(r)
            rest //= 5
        single_helps = _one_suit_cached(key, hm, hq + 1, need) < current
        pair_helps = hq > 0 and _one_suit_cached(key, hm + 1, hq - 1, need) < current
        shape = (current, tuple(ranks), single_helps, pair_helps)
        if len(_SHAPES) >= _SHAPES_LIMIT:
            _SHAPES.clear()
        _SHAPES[packed] = shape
    return shape


def _pong_value(pongs: int, pairs: int, need: int) -> int:
    head = 1 if pairs else 0
    if not pairs and pongs > need:
        head = 1
        pongs -= 1
    if pongs > need:
        pongs = need
    room = need - pongs
    partial = pairs - head
    return 2 * need - 2 * pongs - (partial if partial < room else room) - head


_PONG_GROUPS = {6: (0, 3), 7: (1, 3), 8: (2, 3), PENG: (0, 1, 2, 3)}
_GROUP = tuple(k // 9 if k < 27 else 3 for k in range(N_KINDS))
_ALLOWS = {plan: tuple(plan_allows(plan, k) for k in range(N_KINDS)) for plan in ALL_PLANS}
_KINDS = tuple(range(N_KINDS))
_NO_UNSEEN = (0,) * N_KINDS  # for distances only: no useful-tile sums
_RANK_POW = tuple(_POW5[k % 9] if k < 27 else 0 for k in range(N_KINDS))
# Per tuple of closest plans: which kinds any of them can use (a few dozen tuples occur).
_USABLE: dict[tuple[int, ...], tuple[bool, ...]] = {}


class _Hand:
    """Per-group summaries of one concealed hand, updated tile by tile (the discard loop's state).

    Groups are 0 m, 1 p, 2 s, 3 honours. For each: tiles held, pongs, pairs, and the unseen copies
    of the kinds held 0 / 1 / 2 / 3 times (the useful-tile sums of a draw of each kind)."""

    __slots__ = (
        "counts",
        "unseen",
        "keys",
        "size",
        "pong",
        "pair",
        "u0",
        "u1",
        "u2",
        "u3",
        "pong_reach",
        "chow_reach",
    )

    def __init__(
        self, counts: list[int], unseen: Sequence[int], pong_reach: float = 3.0, chow_reach: float = 1.6
    ) -> None:
        self.counts = counts
        self.unseen = unseen
        self.pong_reach = pong_reach
        self.chow_reach = chow_reach
        # One pass over the kinds held (about eleven of 34); sums keep the kinds' order, so float
        # weights add up exactly as a full pass would.
        keys, size, pong, pair = [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]
        u1, u2, u3 = [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]
        group, rank_pow = _GROUP, _RANK_POW
        for k in compress(_KINDS, counts):
            c = counts[k]
            g = group[k]
            size[g] += c
            keys[g] += c * rank_pow[k]
            if c == 1:
                u1[g] += unseen[k]
            elif c == 2:
                pair[g] += 1
                u2[g] += unseen[k]
            else:
                pong[g] += 1
                if c == 3:
                    u3[g] += unseen[k]
        if unseen is _NO_UNSEEN:
            u0 = [0, 0, 0, 0]
        else:
            u0 = [
                reduce(add, compress(unseen[0:9], map(not_, counts[0:9])), 0),
                reduce(add, compress(unseen[9:18], map(not_, counts[9:18])), 0),
                reduce(add, compress(unseen[18:27], map(not_, counts[18:27])), 0),
                reduce(add, compress(unseen[27:34], map(not_, counts[27:34])), 0),
            ]
        self.keys = keys
        self.size, self.pong, self.pair = size, pong, pair
        self.u0, self.u1, self.u2, self.u3 = u0, u1, u2, u3

    def _move(self, k: int, c: int, d: int) -> None:
        """Count of kind `k` goes from `c` to `c + d` (d is 1 or -1)."""
        g = _GROUP[k]
        left = self.unseen[k]
        self.size[g] += d
        new = c + d
        self.counts[k] = new
        # Leave the old category, then enter the new one (unrolled: this is the hottest code).
        if c == 0:
            self.u0[g] -= left
        elif c == 1:
            self.u1[g] -= left
        elif c == 2:
            self.pair[g] -= 1
            self.u2[g] -= left
        else:
            self.pong[g] -= 1
            if c == 3:
                self.u3[g] -= left
        if new == 0:
            self.u0[g] += left
        elif new == 1:
            self.u1[g] += left
        elif new == 2:
            self.pair[g] += 1
            self.u2[g] += left
        else:
            self.pong[g] += 1
            if new == 3:
                self.u3[g] += left
        if k < 27:
            self.keys[g] += d * _POW5[k - 9 * g]

    def remove(self, k: int) -> None:
        self._move(k, self.counts[k], -1)

    def restore(self, k: int) -> None:
        self._move(k, self.counts[k], 1)

    def distance(self, plan: int, need: int, n: int) -> int:
        """Distance of this hand of `n` tiles under `plan` (the same as `shanten`)."""
        short = 1 if n % 3 == 2 else 0  # a 3n+2 hand's last junk tile is simply discarded
        if plan == FENG:
            return n - self.size[3] - short
        if plan < 6:
            suit = plan % 3
            with_honours = plan < 3
            hm, hq = (self.pong[3], self.pair[3]) if with_honours else (0, 0)
            formula = _one_suit_cached(self.keys[suit], hm, hq, need)
            inside = self.size[suit] + (self.size[3] if with_honours else 0)
        else:
            pong, pair, size = self.pong, self.pair, self.size
            if plan == PENG:
                formula = _pong_value(
                    pong[0] + pong[1] + pong[2] + pong[3], pair[0] + pair[1] + pair[2] + pair[3], need
                )
                inside = n
            else:
                suit = plan - 6
                formula = _pong_value(pong[suit] + pong[3], pair[suit] + pair[3], need)
                inside = size[suit] + size[3]
        junk_limit = n - inside - short
        return formula if formula > junk_limit else junk_limit

    def distances(self, plans: Iterable[int], need: int, n: int) -> dict[int, int]:
        """`distance` under each of `plans`, in one pass (the honour parts read once)."""
        short = 1 if n % 3 == 2 else 0
        size, pong, pair, keys = self.size, self.pong, self.pair, self.keys
        hm, hq, hs = pong[3], pair[3], size[3]
        key_fid, combined = _KEY_FID, _COMBINED
        out: dict[int, int] = {}
        for plan in plans:
            if plan < 6:
                if plan < 3:
                    suit, tail, inside = plan, (hm << 7) | (hq << 3) | need, size[plan] + hs
                else:
                    suit, tail, inside = plan - 3, need, size[plan - 3]
                key = keys[suit]
                fid = key_fid.get(key)
                formula = None if fid is None else combined.get((fid << 10) | tail)
                if formula is None:
                    formula = (
                        _one_suit_cached(key, hm, hq, need) if plan < 3 else _one_suit_cached(key, 0, 0, need)
                    )
            elif plan < 9:
                suit = plan - 6
                formula = _pong_value(pong[suit] + hm, pair[suit] + hq, need)
                inside = size[suit] + hs
            elif plan == PENG:
                formula = _pong_value(
                    pong[0] + pong[1] + pong[2] + hm, pair[0] + pair[1] + pair[2] + hq, need
                )
                inside = n
            else:
                out[plan] = n - hs - short
                continue
            junk_limit = n - inside - short
            out[plan] = formula if formula > junk_limit else junk_limit
        return out

    def _all_draws(self, g: int) -> int:
        return self.u0[g] + self.u1[g] + self.u2[g] + self.u3[g]

    def one_suit(self, suit: int, with_honours: bool, need: int, n: int) -> tuple[int, int, float]:
        """(shanten, useful tiles, reach) of a 3n+1 hand of `n` tiles under HUN/QING of `suit`."""
        if with_honours:
            hm, hq = self.pong[3], self.pair[3]
            key = self.keys[suit]
            shape = _SHAPES.get((key << 10) | (hm << 7) | (hq << 3) | need)
            junk = n - self.size[suit] - self.size[3]
        else:
            hm = hq = 0
            key = self.keys[suit]
            shape = _SHAPES.get((key << 10) | need)
            junk = n - self.size[suit]
        if shape is None:
            shape = _one_suit_shape(key, hm, hq, need)
        formula, ranks, single_helps, pair_helps = shape
        if formula < junk:
            # Too many tiles outside the plan: any draw inside it (replacing one) is progress.
            useful = self._all_draws(suit) + (self._all_draws(3) if with_honours else 0)
            return junk, useful, float(useful)
        unseen, counts = self.unseen, self.counts
        base = suit * 9
        useful = 0
        reach = 0.0
        ready = formula == 0  # then every useful tile wins, from any discarder
        for r in ranks:
            left = unseen[base + r]
            useful += left
            if ready:
                reach += left
            else:
                reach += left * (self.pong_reach if counts[base + r] == 2 else self.chow_reach)
        if with_honours:
            if single_helps:
                useful += self.u1[3]
                reach += self.u1[3]
            if pair_helps:
                useful += self.u2[3]
                reach += self.u2[3] * (1.0 if ready else self.pong_reach)
        return formula, useful, reach

    def pongs(self, groups: Sequence[int], need: int, n: int) -> tuple[int, int, float]:
        """(shanten, useful tiles, reach) of a 3n+1 hand of `n` tiles under a pong plan over `groups`."""
        pongs = pairs = inside = 0
        for g in groups:
            pongs += self.pong[g]
            pairs += self.pair[g]
            inside += self.size[g]
        formula = _pong_value(pongs, pairs, need)
        junk = n - inside
        if formula < junk:
            useful = sum(self._all_draws(g) for g in groups)
            return junk, useful, float(useful)
        useful = 0
        reach = 0.0
        if _pong_value(pongs, pairs + 1, need) < formula:
            got = sum(self.u1[g] for g in groups)
            useful += got
            reach += got
        if pairs and _pong_value(pongs + 1, pairs - 1, need) < formula:
            got = sum(self.u2[g] for g in groups)
            useful += got
            reach += got * (1.0 if formula == 0 else self.pong_reach)
        return formula, useful, reach

    def feng(self, n: int) -> tuple[int, int, float]:
        current = n - self.size[3]
        useful = self._all_draws(3) if current >= 0 else 0
        return current, useful, float(useful)


# How much more often a useful tile arrives when it can also be claimed: a pong from any of the
# three discarders, a chow only from the player before (a draw alone counts 1). When ready, every
# waiting tile can be won from any discard, so they all count the same.
PONG_REACH = 3.0
CHOW_REACH = 1.6


def _plan_after(hand: _Hand, plan: int, need: int, n: int) -> tuple[int, int, float]:
    if plan < 3:
        return hand.one_suit(plan, True, need, n)
    if plan < 6:
        return hand.one_suit(plan - 3, False, need, n)
    if plan == FENG:
        return hand.feng(n)
    return hand.pongs(_PONG_GROUPS[plan], need, n)


def _evaluator(hand: _Hand, plan: int, need: int, n: int):
    """The bound method and arguments `_plan_after` would call for `plan` (looked up once per rank)."""
    if plan < 6:
        return hand.one_suit, (plan % 3, plan < 3, need, n)
    if plan == FENG:
        return hand.feng, (n,)
    return hand.pongs, (_PONG_GROUPS[plan], need, n)


class DiscardPlanner:
    """One discard decision over a 3n+2 concealed hand: the per-group summaries and the distance
    under every open plan are computed once, then read by `junk` and by `rank`.

    `counts` is modified while `rank` runs and restored before it returns; it must not change
    between the planner's creation and its last use.
    """

    __slots__ = ("counts", "plans", "hand", "n", "need", "base", "best")

    def __init__(
        self,
        counts: list[int],
        plans: Sequence[int],
        unseen: Sequence[int],
        reach: tuple[float, float] | None = None,
    ) -> None:
        n = sum(counts)
        if n % 3 != 2:
            raise ValueError(f"evaluate_discards needs 3n+2 concealed tiles, got {n}")
        self.counts = counts
        self.plans = plans = plans or [PENG]
        self.n = n
        self.need = need = need_sets(n)
        self.hand = hand = _Hand(counts, unseen, *(reach or (PONG_REACH, CHOW_REACH)))
        self.base = base = hand.distances(plans, need, n)
        self.best = min(base.values())

    def junk(self) -> list[int]:
        """Kinds held that no plan at the closest distance can use, lowest first (`junk_tiles`)."""
        best, base, counts = self.best, self.base, self.counts
        closest = tuple(plan for plan in self.plans if base[plan] == best)
        usable = _USABLE.get(closest)
        if usable is None:
            usable = _USABLE[closest] = tuple(
                any(_ALLOWS[plan][k] for plan in closest) for k in range(N_KINDS)
            )
        return [k for k in compress(_KINDS, counts) if not usable[k]]

    def rank(
        self,
        weights: dict[int, float] | None = None,
        slack: int = 0,
        claims: bool = False,
        breadth: int = 0,
    ) -> list[DiscardOption]:
        """The ranked discards (see `evaluate_discards`)."""
        hand, counts, base, need, n = self.hand, self.counts, self.base, self.need, self.n
        live = [plan for plan in self.plans if base[plan] <= self.best + breadth + slack]
        specs = [(plan, _ALLOWS[plan], weights.get(plan, 1.0) if weights else 1.0) for plan in live]
        options: list[DiscardOption] = []
        if len(specs) == 1:
            _single_plan(hand, specs[0], _plan_after(hand, live[0], need, n - 1), need, n, claims, options)
            options.sort(key=_option_order)
            return options
        # A discard outside a plan's kinds leaves that plan's tiles as they are: one result serves all.
        evaluators = []
        for plan, allows, w in specs:
            after, args = _evaluator(hand, plan, need, n - 1)
            evaluators.append((plan, allows, w, after, args, after(*args)))
        remove, restore = hand.remove, hand.restore
        for tile in compress(_KINDS, counts):
            removed = False
            per_plan: list[tuple[int, int, int, float, float]] = []
            best_s = 99
            for plan, allows, w, after, args, outside in evaluators:
                if allows[tile]:
                    if not removed:
                        remove(tile)
                        removed = True
                    s, u, reach = after(*args)
                else:
                    s, u, reach = outside
                if s < best_s:
                    best_s = s
                per_plan.append((plan, s, u, reach, w))
            if removed:
                restore(tile)
            score = 0.0
            best_plan, best_useful, best_term = per_plan[0][0], 0, -1.0
            for plan, s, u, reach, w in per_plan:
                if s > best_s + slack:
                    continue
                term = w * (reach if claims else u)
                if s != best_s:
                    term *= 0.1 ** (s - best_s)
                score += term
                if s == best_s and term > best_term:
                    best_plan, best_useful, best_term = plan, u, term
            options.append(DiscardOption(tile, best_plan, best_s, best_useful, score))
        options.sort(key=_option_order)
        return options


def _option_order(option: DiscardOption) -> tuple[int, float, int]:
    return (option.shanten, -option.score, option.tile)


def evaluate_discards(
    counts: list[int],
    plans: Sequence[int],
    unseen: Sequence[int],
    weights: dict[int, float] | None = None,
    slack: int = 0,
    claims: bool = False,
    breadth: int = 0,
    reach: tuple[float, float] | None = None,
) -> list[DiscardOption]:
    """Rank the discards of a 3n+2 concealed hand, best first.

    A discard's distance is the smallest distance over the open plans after it; among the discards
    with the smallest distance, the score is the weighted count of useful tiles, summed over the
    plans within `slack` of that distance (the best plan counts fully, looser plans are tie-breakers
    weighted 1/10 per step). `weights` maps plan to value weight (default 1). With `claims`, useful
    tiles that can also be claimed count more (`reach` = (pong, chow) weights, by default
    `PONG_REACH`, `CHOW_REACH`).

    Only plans within `breadth + slack` of the closest are looked at (the others cannot score), so
    the distance of a discard that sets the hand back can be overstated unless `breadth` is large;
    the leading discards are always exact. `counts` is modified during the call and restored.
    """
    return DiscardPlanner(counts, plans, unseen, reach).rank(weights, slack, claims, breadth)


def best_shanten(counts: Sequence[int], plans: Sequence[int]) -> tuple[int, int]:
    """(distance, plan) of the closest open plan for the concealed tiles `counts`."""
    n = sum(counts)
    dist = _Hand(counts, _NO_UNSEEN).distances(plans or (PENG,), need_sets(n), n)
    best = (99, PENG)
    for plan, s in dist.items():
        if s < best[0]:
            best = (s, plan)
    return best


def plan_uses(plan: int, code: int) -> bool:
    """`plan_allows`, read from a table."""
    return _ALLOWS[plan][code]


def closest_plans(counts: Sequence[int], plans: Sequence[int]) -> tuple[int, list[int]]:
    """(distance, plans at that distance) for the concealed tiles `counts`."""
    n = sum(counts)
    dist = _Hand(counts, _NO_UNSEEN).distances(plans or (PENG,), need_sets(n), n)
    best = min(dist.values())
    return best, [plan for plan, d in dist.items() if d == best]


def _single_plan(hand: _Hand, spec, outside, need: int, n: int, claims: bool, options: list) -> None:
    """`evaluate_discards` for one plan: the same results without the per-plan bookkeeping."""
    plan, allows, w = spec
    if plan < 6:
        _single_one_suit(hand, spec, outside, need, n, claims, options)
        return
    if plan != FENG:
        _single_pongs(hand, spec, outside, need, n, claims, options)
        return
    counts = hand.counts
    move = hand._move
    after, args = _evaluator(hand, plan, need, n - 1)
    append = options.append
    for tile in compress(_KINDS, counts):
        if allows[tile]:
            c = counts[tile]
            move(tile, c, -1)
            s, u, reach = after(*args)
            move(tile, c - 1, 1)
        else:
            s, u, reach = outside
        append(DiscardOption(tile, plan, s, u, w * (reach if claims else u)))


def _single_one_suit(hand: _Hand, spec, outside, need: int, n: int, claims: bool, options: list) -> None:
    """`_single_plan` for 混一色 / 清一色: a discard inside the plan changes only the suit's shape
    or the honours' pong and pair counts, so its result is read straight from the shape tables,
    without updating the hand summary (`_Hand.one_suit` whenever the tiles outside the plan decide
    the distance)."""
    plan, allows, w = spec
    suit = plan % 3
    with_honours = plan < 3
    counts, unseen, size = hand.counts, hand.unseen, hand.size
    base = suit * 9
    key = hand.keys[suit]
    if with_honours:
        hm, hq = hand.pong[3], hand.pair[3]
        junk = n - size[suit] - size[3]
    else:
        hm = hq = 0
        junk = n - size[suit]
    tail = (hm << 7) | (hq << 3) | need
    pong_reach, chow_reach = hand.pong_reach, hand.chow_reach
    sums = (hand.u0, hand.u1, hand.u2, hand.u3)
    u1, u2 = hand.u1, hand.u2
    move = hand._move
    after, args = hand.one_suit, (suit, with_honours, need, n - 1)
    append = options.append
    for tile in compress(_KINDS, counts):
        if not allows[tile]:
            s, u, reach = outside
            append(DiscardOption(tile, plan, s, u, w * (reach if claims else u)))
            continue
        c = counts[tile]
        left = unseen[tile]
        if tile < 27:  # a tile of the plan's suit
            r, g = tile - base, suit
            shape_key = key - _POW5[r]
            shape = _SHAPES.get((shape_key << 10) | tail)
            if shape is None:
                shape = _one_suit_shape(shape_key, hm, hq, need)
            single_got, pair_got = u1[3], u2[3]
        else:  # an honour (混一色): a pair broken to a single, or a pong to a pair
            r, g = -1, 3
            pongs_after = hm - (c == 3)
            pairs_after = hq + (c == 3) - (c == 2)
            shape = _SHAPES.get((key << 10) | (pongs_after << 7) | (pairs_after << 3) | need)
            if shape is None:
                shape = _one_suit_shape(key, pongs_after, pairs_after, need)
            # The honours' unseen-copy sums as `_Hand._move` would leave them.
            single_got = u1[3] - left if c == 1 else u1[3] + left if c == 2 else u1[3]
            pair_got = u2[3] - left if c == 2 else u2[3] + left if c == 3 else u2[3]
        if shape[0] < junk:  # the tiles outside the plan decide: the general path
            move(tile, c, -1)
            s, u, reach = after(*args)
            move(tile, c - 1, 1)
            append(DiscardOption(tile, plan, s, u, w * (reach if claims else u)))
            continue
        s, ranks, single_helps, pair_helps = shape
        u = 0
        reach = 0.0
        ready = s == 0
        for rank in ranks:
            got = unseen[base + rank]
            u += got
            if ready:
                reach += got
            else:
                held = counts[base + rank] - (rank == r)
                reach += got * (pong_reach if held == 2 else chow_reach)
        if with_honours:
            if single_helps:
                u += single_got
                reach += single_got
            if pair_helps:
                u += pair_got
                reach += pair_got * (1.0 if ready else pong_reach)
        # The general path takes the tile out of its unseen-copy sum and puts it back; with float
        # weights that round trip can move the last bit, so it is made here too.
        if c == 4:
            sums[3][g] = sums[3][g] + left - left
        else:
            sums[c][g] = sums[c][g] - left + left
            sums[c - 1][g] = sums[c - 1][g] + left - left
        append(DiscardOption(tile, plan, s, u, w * (reach if claims else u)))


def _single_pongs(hand: _Hand, spec, outside, need: int, n: int, claims: bool, options: list) -> None:
    """`_single_plan` for 碰碰胡 / 混碰: a discard changes only its group's pong, pair and
    unseen-copy sums, so its result is read from those, without updating the hand summary
    (`_Hand.pongs` whenever the tiles outside the plan decide the distance)."""
    plan, allows, w = spec
    groups = _PONG_GROUPS[plan]
    counts, unseen = hand.counts, hand.unseen
    sums = (hand.u0, hand.u1, hand.u2, hand.u3)
    u1, u2 = hand.u1, hand.u2
    pongs = pairs = inside = 0
    for g in groups:
        pongs += hand.pong[g]
        pairs += hand.pair[g]
        inside += hand.size[g]
    junk = n - inside  # the same after a discard inside the plan: one tile fewer on both sides
    pong_reach = hand.pong_reach
    move = hand._move
    append = options.append
    for tile in compress(_KINDS, counts):
        if not allows[tile]:
            s, u, reach = outside
        else:
            c = counts[tile]
            pongs_after = pongs - (c == 3)
            pairs_after = pairs + (c == 3) - (c == 2)
            s = _pong_value(pongs_after, pairs_after, need)
            if s < junk:
                move(tile, c, -1)
                s, u, reach = hand.pongs(groups, need, n - 1)
                move(tile, c - 1, 1)
            else:
                g = _GROUP[tile]
                left = unseen[tile]
                u = 0
                reach = 0.0
                if _pong_value(pongs_after, pairs_after + 1, need) < s:
                    # The tile's group as `_Hand._move` would leave it: a single gone, or a pair
                    # broken to a single.
                    got = sum(
                        (u1[h] - left if c == 1 else u1[h] + left if c == 2 else u1[h]) if h == g else u1[h]
                        for h in groups
                    )
                    u += got
                    reach += got
                if pairs_after and _pong_value(pongs_after + 1, pairs_after - 1, need) < s:
                    got = sum(
                        (u2[h] - left if c == 2 else u2[h] + left if c == 3 else u2[h]) if h == g else u2[h]
                        for h in groups
                    )
                    u += got
                    reach += got * (1.0 if s == 0 else pong_reach)
                # The round trip of the general path, bit for bit (see `_single_one_suit`).
                if c == 4:
                    sums[3][g] = sums[3][g] + left - left
                else:
                    sums[c][g] = sums[c][g] - left + left
                    sums[c - 1][g] = sums[c - 1][g] + left - left
        append(DiscardOption(tile, plan, s, u, w * (reach if claims else u)))


def junk_tiles(counts: list[int], plans: Sequence[int]) -> list[int]:
    """Kinds held that no plan at the closest distance can use, lowest first.

    Discarding one of them keeps every closest plan exactly as it is (the same distance and the same
    useful tiles), so when there are any, a bot playing for speed alone need not rank the rest.
    """
    if not plans:
        return []
    return DiscardPlanner(counts, plans, [0] * N_KINDS).junk()
