"""`home` preset scoring (RULES.md §9, seed 000 基础规则): no minimum hand, 七对子 allowed,
the dragons are flowers, and each payer pays `min(M × N + 1, 20)`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..hand import is_all_honours, is_standard_complete, splits, waits
from ..kinds import MeldKind
from ..melds import Meld
from ..rules import Rules
from ..tiles import N_KINDS, WINDS, is_dragon, is_honour, is_wind
from .core import PATTERNS, ScoringError, Transfer, WinContext, WinScore, colour, net, pattern_of
from .features import DADIAOCHE, GANGKAI, MENQING, QIANGGANG, features_of
from .workings import Line, LineKind, Step, StepKind, Workings

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
    if sum(counts) % 3 != 2 or counts[31] or counts[32] or counts[33]:
        return False
    return is_standard_complete(counts) or is_qidui(counts, melds) or all_honours(counts, melds)


def wait_candidates(counts_13: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    """The only tiles that can complete a 13-style hand in `home`, ascending: the structural waits
    (`waits`, which lists every honour when the concealed tiles are all honours) and, for seven pairs,
    the one tile held an odd number of times. Whether each does is `is_legal`'s call (dragons, which
    are flowers, never win)."""
    candidates = set(waits(counts_13))
    if not melds and sum(counts_13) == 13:
        odd = [t for t in range(N_KINDS) if counts_13[t] % 2]
        if len(odd) == 1:
            candidates.add(odd[0])
    return sorted(candidates)


def _readings(counts: Sequence[int], melds: Sequence[Meld]) -> list[tuple[str, bool]]:
    """(kind: "pengpeng" | "sets" | "qidui" | "honours", whether concealed wind triplets count as pongs)."""
    melds_pong = all(m.kind != MeldKind.CHOW for m in melds)
    out = []
    for sets, _ in splits(counts):
        pengpeng = melds_pong and all(kind == MeldKind.PONG for kind, _ in sets)
        out.append(("pengpeng" if pengpeng else "sets", True))
    if is_qidui(counts, melds):
        out.append(("qidui", False))
    if not out and all_honours(counts, melds) and sum(counts) % 3 == 2:
        out.append(("honours", True))
    return out


def _m_lines(ctx: WinContext, counts: Sequence[int], triplets: bool) -> list[Line]:
    """M of §9 line by line: flowers (10 when none), wind pongs and kongs, kongs, and (when the
    reading has sets) wind triplets held in the hand."""
    if ctx.flowers:
        lines = [Line(LineKind.FLOWER, (t,), 1) for t in ctx.flowers]
    else:
        lines = [Line(LineKind.NO_FLOWERS, (), NO_FLOWERS)]
    for meld in ctx.melds:
        if meld.kind != MeldKind.CHOW and is_wind(meld.tiles[0]):
            lines.append(Line(LineKind.MELD, meld.tiles, 1, meld.kind))
        if meld.is_kong:
            lines.append(Line(LineKind.KONG, meld.tiles, 1, meld.kind))
    if triplets:
        lines += [Line(LineKind.CONCEALED_PONG, (t,) * 3, 1) for t in _KINDS if counts[t] >= 3]
    return lines


# §9: each doubles N; 八花齐 carries none.
FEATURES = (MENQING, GANGKAI, DADIAOCHE, QIANGGANG)


def _n_factors(features: tuple[str, ...], kind: str, n_suits: int, winds: bool) -> list[tuple[str, int]]:
    """The factors of N (§9): each feature ×2, 碰碰胡 ×2 or 七对子 ×4, 清一色 ×4 or 混一色 ×2."""
    factors = [(f, 2) for f in features]
    if kind == "pengpeng":
        factors.append(("pengpeng", 2))
    elif kind == "qidui":
        factors.append(("qidui", 4))
    if n_suits == 1:
        factors.append(("hunyise", 2) if winds else ("qingyise", 4))
    return factors


def _reading(ctx, counts, features, kind, triplets, n_suits, winds) -> tuple[list[Line], list[Step]]:
    """One reading's M lines and its steps to the payment."""
    if kind == "bahua":  # §9: 八花齐 pays the cap from each of the three
        return _m_lines(ctx, counts, triplets), [Step(StepKind.FIXED, ("bahua",), PAYMENT_CAP)]
    lines = _m_lines(ctx, counts, triplets)
    m = sum(line.amount for line in lines)
    n = 1
    steps = []
    for name, factor in _n_factors(features, kind, n_suits, winds):
        n *= factor
        steps.append(Step(StepKind.TIMES, (name,), n, None, factor))
    steps.append(Step(StepKind.PAY, (), min(m * n + 1, PAYMENT_CAP), PAYMENT_CAP, n))
    return lines, steps


def workings(ctx: WinContext, rules: Rules) -> Workings:
    if any(is_dragon(t) for t in ctx.all_tiles()):
        raise ScoringError("in the home preset the dragons are flowers, never part of the hand")
    counts = ctx.concealed_counts()
    hua = len(ctx.flowers)
    features = features_of(ctx, rules, FEATURES)
    if ctx.win == "eight_flowers":
        real = sum(1 for t in ctx.flowers if not is_dragon(t))
        readings = [("bahua", True)] if real == 8 else []
    else:
        readings = _readings(counts, ctx.melds)
    if not readings:
        score = WinScore(ctx.winner, ctx.win, ctx.from_seat, False, None, (), hua, 0)
        refused = "eight_flowers" if ctx.win == "eight_flowers" else "incomplete"
        return Workings(score, tuple(_m_lines(ctx, counts, True)), (), refused)
    n_suits, winds = colour(counts, ctx.melds)
    best = None
    for kind, triplets in readings:
        lines, steps = _reading(ctx, counts, features, kind, triplets, n_suits, winds)
        if kind in ("qidui", "bahua"):
            pattern = kind
        else:
            pattern = pattern_of(n_suits, winds, kind == "pengpeng") or "pinghu"
        key = (steps[-1].value, RANK.index(pattern))
        if best is None or key > best[0]:
            best = (key, pattern, lines, steps)
    (value, _), pattern, lines, steps = best
    steps.append(Step(StepKind.STAKE, (), value * ctx.stake, None, ctx.stake))
    score = WinScore(ctx.winner, ctx.win, ctx.from_seat, True, pattern, features, hua, value * ctx.stake)
    return Workings(score, tuple(lines), tuple(steps))


def is_gengfeng(first_discards: Sequence[int]) -> bool:
    """跟风 (§9): the dealer's first discard is a wind and the next three discards are that wind."""
    return len(first_discards) == 4 and is_wind(first_discards[0]) and len(set(first_discards)) == 1


def gengfeng_transfers(dealer: int, n: int, stake: int) -> list[Transfer]:
    """The n-th 跟风 of a match: the dealer pays each other player n (times the stake), in turn
    order from the dealer's 下家 (the order a short stack pays in, §7 Shortfall)."""
    return [(dealer, (dealer + i) % 4, n * stake) for i in (1, 2, 3)]


def gengfeng_payments(dealer: int, n: int, stake: int) -> list[int]:
    """The n-th 跟风 of a match as each seat's gain or loss."""
    return net(gengfeng_transfers(dealer, n, stake))
