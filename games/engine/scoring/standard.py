"""`standard` preset scoring (SHANGHAI_RULES.md §5-§7 and the §11 house options)."""

from __future__ import annotations

from ..rules import Rules
from .core import PATTERNS, WinContext, WinScore, flower_tile_basics
from .features import DADIAOCHE, GANGKAI, HAIDI, HUANGFAN, KAIBAO, MENQING, QIANGGANG, features_of


def pattern_base(pattern: str, hua: int, rules: Rules) -> tuple[int, int]:
    """Pattern value P (points) and cap C (勒子) of §7 step 1."""
    lezi = rules.lezi
    if pattern in ("hunyise", "pengpeng"):
        return rules.base + rules.flower_point * hua, 1
    if pattern in ("qingyise", "hunpeng"):
        return lezi, 1
    if pattern in ("qingpeng", "fengyise", "bahua"):
        return 2 * lezi, 2
    if pattern == "fengpeng":
        return 4 * lezi, 4
    raise ValueError(f"no standard value for pattern {pattern!r}")


# §7 and the §11 options: the features a standard win can carry (八花齐 keeps only 开宝 and 荒番).
FEATURES = (MENQING, GANGKAI, DADIAOCHE, QIANGGANG, HAIDI, KAIBAO, HUANGFAN)


def share_value(pattern: str, features: tuple[str, ...], hua: int, rules: Rules) -> int:
    """One share V in points before the stake (§7 steps 1-6, options of §11)."""
    lezi = rules.lezi
    p, c = pattern_base(pattern, hua, rules)
    floors = {"dadiaoche"}
    doubles = set()
    for feature, option in (("gangkai", rules.gangkai), ("menqing", rules.menqing), ("haidi", rules.haidi)):
        if option in ("floor", "lezi"):
            floors.add(feature)
        elif option == "double":
            doubles.add(feature)
    if floors & set(features):
        p = max(p, lezi)
    for _ in doubles & set(features):
        p *= 2
        c = max(c, 2)
    for feature in ("kaibao", "huangfan"):
        if feature in features:
            p *= 2
            c *= 2
    return min(p, c * lezi)


def score(ctx: WinContext, rules: Rules) -> WinScore:
    counts, hua, candidates = flower_tile_basics(ctx)
    if not candidates:
        return WinScore(ctx.winner, ctx.win, ctx.from_seat, False, None, (), hua, 0)
    best = None
    for pattern in candidates:
        features = features_of(ctx, rules, FEATURES)
        value = share_value(pattern, features, hua, rules)
        rank = PATTERNS.index(pattern) if pattern in PATTERNS else len(PATTERNS)
        key = (value, rank)
        if best is None or key > best[0]:
            best = (key, pattern, features)
    (value, _), pattern, features = best
    return WinScore(ctx.winner, ctx.win, ctx.from_seat, True, pattern, features, hua, value * ctx.stake)
