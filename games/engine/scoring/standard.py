"""`standard` preset scoring (RULES.md §5-§7 and the §11 house options)."""

from __future__ import annotations

from ..rules import Rules
from .core import PATTERNS, WinContext, WinScore, flower_tile_basics, refusal
from .features import DADIAOCHE, GANGKAI, HAIDI, HUANGFAN, KAIBAO, MENQING, QIANGGANG, features_of
from .workings import Step, StepKind, Workings, hua_lines

_HUA_PATTERNS = ("hunyise", "pengpeng")  # §7 step 1: P = B + f × 花; the other patterns are fixed


def pattern_base(pattern: str, hua: int, rules: Rules) -> tuple[int, int]:
    """Pattern value P (points) and cap C (勒子) of §7 step 1."""
    lezi = rules.lezi
    if pattern in _HUA_PATTERNS:
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


def share_steps(pattern: str, features: tuple[str, ...], hua: int, rules: Rules) -> list[Step]:
    """One share V in points before the stake (§7 steps 1-6, options of §11), step by step: the last
    step's value is V."""
    lezi = rules.lezi
    p, c = pattern_base(pattern, hua, rules)
    kind = StepKind.BASE_HUA if pattern in _HUA_PATTERNS else StepKind.BASE
    steps = [Step(kind, (pattern,), p, c, rules.base if kind == StepKind.BASE_HUA else None)]
    options = {"gangkai": rules.gangkai, "menqing": rules.menqing, "haidi": rules.haidi}
    floors = [f for f in features if f == "dadiaoche" or options.get(f) in ("floor", "lezi")]
    if floors:
        p = max(p, lezi)
        steps.append(Step(StepKind.FLOOR, tuple(floors), p, c, lezi))
    for feature in ("gangkai", "menqing", "haidi"):
        if feature in features and options[feature] == "double":
            p, c = p * 2, max(c, 2)
            steps.append(Step(StepKind.DOUBLE, (feature,), p, c))
    for feature in ("kaibao", "huangfan"):
        if feature in features:
            p, c = p * 2, c * 2
            steps.append(Step(StepKind.DOUBLE_CAP, (feature,), p, c))
    steps.append(Step(StepKind.CAP, (), min(p, c * lezi), c, c * lezi))
    return steps


def workings(ctx: WinContext, rules: Rules) -> Workings:
    counts, hua, candidates = flower_tile_basics(ctx)
    lines = hua_lines(counts, ctx.melds, ctx.flowers)
    if not candidates:
        score = WinScore(ctx.winner, ctx.win, ctx.from_seat, False, None, (), hua, 0)
        return Workings(score, lines, (), refusal(ctx, counts))
    features = features_of(ctx, rules, FEATURES)
    best = None
    for pattern in candidates:
        steps = share_steps(pattern, features, hua, rules)
        rank = PATTERNS.index(pattern) if pattern in PATTERNS else len(PATTERNS)
        key = (steps[-1].value, rank)
        if best is None or key > best[0]:
            best = (key, pattern, steps)
    (value, _), pattern, steps = best
    steps.append(Step(StepKind.STAKE, (), value * ctx.stake, None, ctx.stake))
    score = WinScore(ctx.winner, ctx.win, ctx.from_seat, True, pattern, features, hua, value * ctx.stake)
    return Workings(score, lines, tuple(steps))
