"""Hot paths over 34-count arrays: completeness, splits, waits, shanten.

The counts given here are the *concealed* part of a hand (declared melds are left out); a complete
concealed part holds `n` sets and one pair, so its size is `3n + 2`.

Speed comes from per-suit lookup tables built once at import: every arrangement of one suit (its nine
counts as a tuple) that is a whole number of sets, or sets plus a pair, is a key of `SUIT_TABLE`.
`is_complete` is then three slices, three dict look-ups and C-level checks of the honours, with no
recursion. `waits`, `splits` and `shanten` work one suit at a time and memoise per suit shape (in
bounded caches, so a long-running server does not grow without limit).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

N_KINDS = 34
_SUIT_STARTS = (0, 9, 18)
_HONOUR_START = 27

Set = tuple[str, int]  # ("chow" | "pong", first tile code)
_memo = lru_cache(maxsize=1 << 16)


def _build_tables() -> tuple[frozenset[tuple[int, ...]], frozenset[tuple[int, ...]]]:
    """All nine-count suit shapes made of 0-4 sets (`sets`) or of 0-4 sets and a pair (`with_pair`)."""
    units: list[tuple[int, ...]] = []
    for r in range(9):
        units.append(tuple(3 if i == r else 0 for i in range(9)))
    for r in range(7):
        units.append(tuple(1 if r <= i <= r + 2 else 0 for i in range(9)))
    level = {(0,) * 9}
    sets_only = set(level)
    for _ in range(4):
        nxt = set()
        for shape in level:
            for unit in units:
                new = tuple(a + b for a, b in zip(shape, unit, strict=True))
                if max(new) <= 4:
                    nxt.add(new)
        sets_only |= nxt
        level = nxt
    with_pair = set()
    for shape in sets_only:
        for r in range(9):
            if shape[r] <= 2:
                new = list(shape)
                new[r] += 2
                with_pair.add(tuple(new))
    return frozenset(sets_only), frozenset(with_pair)


SUIT_SETS, SUIT_SETS_PAIR = _build_tables()


# One look-up per suit: shape -> 0 (sets only) or 1 (sets and a pair); absent = not whole.
SUIT_TABLE: dict[tuple[int, ...], int] = dict.fromkeys(SUIT_SETS, 0) | dict.fromkeys(SUIT_SETS_PAIR, 1)


def is_standard_complete(counts: Sequence[int]) -> bool:
    """Sets plus exactly one pair, nothing else."""
    table = SUIT_TABLE
    a = table.get(tuple(counts[0:9]))
    if a is None:
        return False
    b = table.get(tuple(counts[9:18]))
    if b is None:
        return False
    c = table.get(tuple(counts[18:27]))
    if c is None:
        return False
    honours = counts[27:34]
    if 1 in honours or 4 in honours:
        return False
    return a + b + c + honours.count(2) == 1


def is_all_honours(counts: Sequence[int]) -> bool:
    return not any(counts[:_HONOUR_START])


def is_complete(counts: Sequence[int]) -> bool:
    """Sets plus a pair, or (乱风向) only honours in any arrangement; size must be 3n + 2."""
    if is_standard_complete(counts):
        return True  # sets and one pair always make 3n + 2
    return is_all_honours(counts) and sum(counts) % 3 == 2


@_memo
def _decompose(shape: tuple[int, ...], base: int, honours: bool) -> tuple[tuple[tuple[Set, ...], int], ...]:
    """Every way to read one suit as sets plus at most one pair; pair is -1 when there is none."""
    out: list[tuple[tuple[Set, ...], int]] = []
    rem = sum(shape) % 3
    if rem == 1:
        return ()
    if rem == 2:
        for r, c in enumerate(shape):
            if c >= 2:
                rest = list(shape)
                rest[r] -= 2
                for sets, _ in _sets_only(tuple(rest), base, honours):
                    out.append((sets, base + r))
    else:
        out.extend(_sets_only(shape, base, honours))
    return tuple(out)


@_memo
def _sets_only(shape: tuple[int, ...], base: int, honours: bool) -> tuple[tuple[tuple[Set, ...], int], ...]:
    """Every multiset of sets that makes exactly `shape` (sets listed in order)."""
    first = next((r for r, c in enumerate(shape) if c), None)
    if first is None:
        return (((), -1),)
    out: list[tuple[tuple[Set, ...], int]] = []
    if shape[first] >= 3:
        rest = list(shape)
        rest[first] -= 3
        out.extend(
            ((("pong", base + first),) + sets, -1) for sets, _ in _sets_only(tuple(rest), base, honours)
        )
    if not honours and first <= 6 and shape[first + 1] and shape[first + 2]:
        rest = list(shape)
        rest[first] -= 1
        rest[first + 1] -= 1
        rest[first + 2] -= 1
        out.extend(
            ((("chow", base + first),) + sets, -1) for sets, _ in _sets_only(tuple(rest), base, honours)
        )
    return tuple(out)


def splits(counts: Sequence[int]) -> list[tuple[tuple[Set, ...], int]]:
    """Every decomposition of the counts into sets plus one pair: a list of (sets, pair tile).

    Sets are sorted by (first tile, kind); identical decompositions appear once. Empty when the
    counts are not standard-complete.
    """
    if sum(counts) % 3 != 2:
        return []
    groups = []
    for start in (*_SUIT_STARTS, _HONOUR_START):
        end = start + (7 if start == _HONOUR_START else 9)
        shape = tuple(counts[start:end])
        if not any(shape):
            continue
        options = _decompose(shape, start, start == _HONOUR_START)
        if not options:
            return []
        groups.append(options)
    results: list[tuple[tuple[Set, ...], int]] = [((), -1)]
    for options in groups:
        results = [
            (sets + more, pair if more_pair < 0 else more_pair)
            for sets, pair in results
            for more, more_pair in options
            if pair < 0 or more_pair < 0
        ]
    seen = set()
    out = []
    for sets, pair in results:
        if pair < 0:
            continue
        key = (tuple(sorted(sets, key=lambda s: (s[1], s[0]))), pair)
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


@_memo
def _suit_waits(shape: tuple[int, ...]) -> tuple[tuple[int, bool], ...]:
    """For one suit shape: (rank, gives a pair) for every added tile that leaves the suit whole.

    "Whole" is sets only or sets plus a pair; the flag says which, so the caller can check that the
    hand ends with exactly one pair. A fifth copy is never offered.
    """
    rem = (sum(shape) + 1) % 3
    if rem == 1:
        return ()
    table = SUIT_SETS if rem == 0 else SUIT_SETS_PAIR
    out = []
    for r in range(9):
        if shape[r] < 4:
            grown = shape[:r] + (shape[r] + 1,) + shape[r + 1 :]
            if grown in table:
                out.append((r, rem == 2))
    return tuple(out)


def _suit_state(shape: tuple[int, ...]) -> int:
    """0: whole without a pair, 1: whole with a pair, -1: not whole."""
    rem = sum(shape) % 3
    if rem == 0:
        return 0 if shape in SUIT_SETS else -1
    if rem == 2:
        return 1 if shape in SUIT_SETS_PAIR else -1
    return -1


def group_state(shape: Sequence[int], honours: bool) -> int:
    """One tile group (a suit's nine counts, or the seven honours): 0 whole as sets only, 1 whole as
    sets and one pair, -1 not whole."""
    if not honours:
        return _suit_state(tuple(shape))
    if 1 in shape or 4 in shape:
        return -1
    pairs = shape.count(2)
    return pairs if pairs <= 1 else -1


def may_wait_after(states: Sequence[int], residues: Sequence[int]) -> bool:
    """A necessary condition for a 3n + 1 concealed part with these group states (`group_state`) and
    tile counts mod 3 to have a structural wait (all-honours hands aside): the groups that do not
    take the winning tile must already be whole, with one pair among them at most. So either one
    group is at 3k + 1 and every other is sets only, or two are at 3k + 2 and every other is sets only
    and one of the two is sets and a pair."""
    ones = twos = 0
    pair = False
    for g in range(4):
        r = residues[g]
        if r == 0:
            if states[g] != 0:
                return False
        elif r == 1:
            ones += 1
        else:
            twos += 1
            pair = pair or states[g] == 1
    return (ones == 1 and not twos) or (twos == 2 and not ones and pair)


def waits(counts: Sequence[int]) -> list[int]:
    """Tile codes (never a fifth copy) that make a 3n + 1 concealed part complete, ascending.

    Structural only: whether the finished hand qualifies is the scoring module's question. Only the
    group (suit or honours) that receives the tile changes, so each group's own state is looked up
    once and each suit's possible additions come from a memoised per-shape table.
    """
    if sum(counts) % 3 != 1:
        return []
    if is_all_honours(counts):  # 乱风向: any honour completes, if a copy is left
        return [t for t in range(_HONOUR_START, N_KINDS) if counts[t] < 4]
    shapes = [tuple(counts[start : start + 9]) for start in _SUIT_STARTS]
    states = [_suit_state(shape) for shape in shapes]
    honours = counts[_HONOUR_START:N_KINDS]
    honour_bad = sum(1 for c in honours if c == 1 or c == 4)
    honour_pairs = sum(1 for c in honours if c == 2)
    out = []
    for g, shape in enumerate(shapes):
        others = [states[h] for h in range(3) if h != g]
        if honour_bad or -1 in others:
            continue
        pairs_elsewhere = sum(others) + honour_pairs
        for r, pair in _suit_waits(shape):
            if pairs_elsewhere + pair == 1:
                out.append(_SUIT_STARTS[g] + r)
    if -1 not in states:
        suit_pairs = sum(states)
        for i, c in enumerate(honours):
            if c == 1 or c == 2:
                bad = honour_bad - (c == 1)
                pairs = suit_pairs + honour_pairs + (1 if c == 1 else -1)
                if not bad and pairs == 1:
                    out.append(_HONOUR_START + i)
    return out


@_memo
def _blocks(shape: tuple[int, ...], honours: bool) -> tuple[tuple[int, int, int], ...]:
    """Pareto-best (sets, partial sets, pair-as-head) readings of one suit for shanten."""
    found: set[tuple[int, int, int]] = set()

    def walk(s: list[int], i: int, m: int, t: int, p: int) -> None:
        while i < len(s) and s[i] == 0:
            i += 1
        if i == len(s):
            found.add((m, t, p))
            return
        if s[i] >= 3:
            s[i] -= 3
            walk(s, i, m + 1, t, p)
            s[i] += 3
        if not honours and i + 2 < len(s) and s[i + 1] and s[i + 2]:
            s[i] -= 1
            s[i + 1] -= 1
            s[i + 2] -= 1
            walk(s, i, m + 1, t, p)
            s[i] += 1
            s[i + 1] += 1
            s[i + 2] += 1
        if s[i] >= 2:
            s[i] -= 2
            if not p:
                walk(s, i, m, t, 1)
            walk(s, i, m, t + 1, p)
            s[i] += 2
        if not honours:
            for step in (1, 2):
                j = i + step
                if j < len(s) and s[j]:
                    s[i] -= 1
                    s[j] -= 1
                    walk(s, i, m, t + 1, p)
                    s[i] += 1
                    s[j] += 1
        s[i] -= 1
        walk(s, i, m, t, p)
        s[i] += 1

    walk(list(shape), 0, 0, 0, 0)
    best = [
        x for x in found if not any(y != x and y[0] >= x[0] and y[1] >= x[1] and y[2] >= x[2] for y in found)
    ]
    return tuple(sorted(best))


def shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    """Standard (sets + pair) shanten of the concealed counts: -1 complete, 0 ready, and so on."""
    combos: set[tuple[int, int, int]] = {(0, 0, 0)}
    for start in (*_SUIT_STARTS, _HONOUR_START):
        end = start + (7 if start == _HONOUR_START else 9)
        shape = tuple(counts[start:end])
        if not any(shape):
            continue
        opts = _blocks(shape, start == _HONOUR_START)
        combos = {(m + a, t + b, p | c) for m, t, p in combos for a, b, c in opts if not (p and c)}
    need = 4 - n_melds
    best = 8
    for m, t, p in combos:
        m = min(m, need)
        t = min(t, need - m)
        best = min(best, 8 - 2 * n_melds - 2 * m - t - p)
    return best
