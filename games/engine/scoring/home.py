"""`home` preset scoring (SHANGHAI_RULES.md §9, seed 000 基础规则): no minimum hand, 七对子 allowed,
the dragons are flowers, and each payer pays `min(M × N + 1, 20)`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..hand import is_all_honours, splits
from ..melds import Meld
from ..rules import Rules
from ..tiles import N_KINDS, WINDS, is_dragon, is_honour, is_wind
from .core import PATTERNS, ScoringError, WinContext, WinScore, colour, pattern_of
from .features import DADIAOCHE, GANGKAI, MENQING, QIANGGANG, features_of

PAYMENT_CAP = 20
# §5 for `home`: on a tie between readings the pattern lower in this order is named — the plain hand
# stands above the §5 table, 七对子 below it (八花齐 is never tied: it is the only reading of its win).
RANK = ("pinghu", *PATTERNS, "qidui", "bahua")
NO_FLOWERS = 10  # a player with no flower tile counts 10 花
_KINDS = range(27, 27 + len(WINDS))  # only winds stay in the hand


def is_qidui(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """七对子: fourteen concealed tiles in pairs (four of a kind counts as two pairs)."""
    return not melds and sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def all_honours(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """乱风向 over all 14 tiles (§9): the concealed tiles and every meld are honours."""
    return is_all_honours(counts) and all(is_honour(m.tiles[0]) for m in melds)


def is_legal(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """Complete is enough in `home`: sets and a pair, seven pairs, or only honours (melds included:
    loose honours beside suit melds never win)."""
    if sum(counts) % 3 != 2 or any(counts[t] for t in range(31, N_KINDS)):
        return False
    return bool(splits(counts)) or is_qidui(counts, melds) or all_honours(counts, melds)


def _readings(counts: Sequence[int], melds: Sequence[Meld]) -> list[tuple[str, int, bool]]:
    """(kind, multiplier from the shape, whether concealed wind triplets count as pongs)."""
    melds_pong = all(m.kind != "chow" for m in melds)
    out = []
    for sets, _ in splits(counts):
        pengpeng = melds_pong and all(kind == "pong" for kind, _ in sets)
        out.append(("pengpeng" if pengpeng else "sets", 2 if pengpeng else 1, True))
    if is_qidui(counts, melds):
        out.append(("qidui", 4, False))
    if not out and all_honours(counts, melds) and sum(counts) % 3 == 2:
        out.append(("honours", 1, True))
    return out


def _m_value(ctx: WinContext, counts: Sequence[int], triplets: bool) -> int:
    m = len(ctx.flowers) or NO_FLOWERS
    for meld in ctx.melds:
        if meld.kind != "chow" and is_wind(meld.tiles[0]):
            m += 1
        if meld.is_kong:
            m += 1
    if triplets:
        m += sum(1 for t in _KINDS if counts[t] >= 3)
    return m


# §9: each doubles N; 八花齐 carries none.
FEATURES = (MENQING, GANGKAI, DADIAOCHE, QIANGGANG)


def score(ctx: WinContext, rules: Rules) -> WinScore:
    if any(is_dragon(t) for t in ctx.all_tiles()):
        raise ScoringError("in the home preset the dragons are flowers, never part of the hand")
    counts = ctx.concealed_counts()
    hua = len(ctx.flowers)
    features = features_of(ctx, rules, FEATURES)
    n_features = 2 ** len(features)
    if ctx.win == "eight_flowers":
        real = sum(1 for t in ctx.flowers if not is_dragon(t))
        readings = [("bahua", 1, True)] if real == 8 else []
    else:
        readings = _readings(counts, ctx.melds)
    if not readings:
        return WinScore(ctx.winner, ctx.win, ctx.from_seat, False, None, (), hua, 0)
    n_suits, winds = colour(counts, ctx.melds)
    colour_n = (4 if not winds else 2) if n_suits == 1 else 1
    best = None
    for kind, shape_n, triplets in readings:
        n = n_features * shape_n * colour_n
        # §9: 八花齐 pays the cap from each of the three
        value = PAYMENT_CAP if kind == "bahua" else min(_m_value(ctx, counts, triplets) * n + 1, PAYMENT_CAP)
        if kind in ("qidui", "bahua"):
            pattern = kind
        else:
            pattern = pattern_of(n_suits, winds, kind == "pengpeng") or "pinghu"
        key = (value, RANK.index(pattern))
        if best is None or key > best[0]:
            best = (key, pattern)
    (value, _), pattern = best
    return WinScore(ctx.winner, ctx.win, ctx.from_seat, True, pattern, features, hua, value * ctx.stake)


def is_gengfeng(first_discards: Sequence[int]) -> bool:
    """跟风 (§9): the dealer's first discard is a wind and the next three discards are that wind."""
    return len(first_discards) == 4 and is_wind(first_discards[0]) and len(set(first_discards)) == 1


def gengfeng_payments(dealer: int, n: int, stake: int) -> list[int]:
    """The n-th 跟风 of a match: the dealer pays each other player n (times the stake)."""
    return [-3 * n * stake if seat == dealer else n * stake for seat in range(4)]
