"""`lazi` preset scoring (RULES.md §8, seed 003): units are 花, 1 喇 = 20 花.

The room's `Rules.base` / `Rules.lezi` belong to `standard`; this preset's 底注 and 喇 are fixed by §8.
"""

from __future__ import annotations

from ..rules import Rules
from .core import PATTERNS, WinContext, WinScore, dadiaoche, flower_tile_basics, refusal
from .features import DADIAOCHE, GANGKAI, MENQING, QIANGGANG, Feature, features_of
from .workings import Step, StepKind, Workings, hua_lines

BASE = 3
LA = 20
# Fixed hands in 喇, highest first (a tie names the one listed first).
FIXED = {
    "tianhu": 10,
    "dihu": 8,
    "bahua": 6,
    "fengpeng": 4,
    "fengyise": 2,
    "qingpeng": 2,
    "qingyise": 1,
    "hunpeng": 1,
    "dadiaoche": 1,
}
_FIXED_ORDER = list(FIXED)


def dice_huangfan(dice: tuple[int, int]) -> int:
    """§8: 1-1 or 4-4 add 2 to the 荒番 count; any other roll with a 1 or a 4, or another double, add 1."""
    if dice in ((1, 1), (4, 4)):
        return 2
    if 1 in dice or 4 in dice or dice[0] == dice[1]:
        return 1
    return 0


def _huangfan_with_dice(ctx: WinContext, rules: Rules) -> bool:
    """荒番 in `lazi`: the carried count plus this hand's dice bonus is above 0."""
    return ctx.huangfan + dice_huangfan(ctx.dice) > 0


# §8: 开宝 has no place here (the dice feed 荒番 instead) and neither has 海底.
FEATURES = (MENQING, GANGKAI, DADIAOCHE, QIANGGANG, Feature("huangfan", _huangfan_with_dice, True))


def _special_hands(ctx: WinContext) -> list[str]:
    """天胡 / 地胡 (§5): a first-go-round win on the deal, the first draw or a first-round discard;
    a flower replacement of the deal or of that first draw keeps it (a kong replacement cannot: a
    kong ends the first go-round)."""
    out = []
    if ctx.first_go_round:
        if ctx.winner == ctx.dealer and ctx.win in ("self_draw", "flower_replacement"):
            out.append("tianhu")
        elif ctx.winner != ctx.dealer and ctx.win in ("self_draw", "flower_replacement", "discard"):
            out.append("dihu")
    if dadiaoche(ctx):
        out.append("dadiaoche")
    return out


def _open_steps(hua: int, features: tuple[str, ...]) -> list[Step]:
    """混一色 / 碰碰胡: (3 + 花), doubled per 番 (杠开, 门清), capped at 1 喇."""
    value = BASE + hua
    steps = [Step(StepKind.BASE_HUA, (), value, None, BASE)]
    for feature in ("gangkai", "menqing"):
        if feature in features:
            value *= 2
            steps.append(Step(StepKind.DOUBLE, (feature,), value))
    steps.append(Step(StepKind.CAP, (), min(value, LA), None, LA))
    return steps


def workings(ctx: WinContext, rules: Rules) -> Workings:
    counts, hua, candidates = flower_tile_basics(ctx)
    lines = hua_lines(counts, ctx.melds, ctx.flowers)
    if candidates and ctx.win != "eight_flowers":
        candidates += _special_hands(ctx)
    if not candidates:
        score = WinScore(ctx.winner, ctx.win, ctx.from_seat, False, None, (), hua, 0)
        return Workings(score, lines, (), refusal(ctx, counts))
    features = features_of(ctx, rules, FEATURES)
    best = None
    for pattern in candidates:
        if pattern in FIXED:
            steps = [Step(StepKind.FIXED, (pattern,), FIXED[pattern] * LA, None, FIXED[pattern])]
            rank = len(_FIXED_ORDER) - _FIXED_ORDER.index(pattern)
        else:
            steps, rank = _open_steps(hua, features), -PATTERNS.index(pattern)
        if best is None or (steps[-1].value, rank) > best[0]:
            best = ((steps[-1].value, rank), pattern, steps)
    (value, _), pattern, steps = best
    if "huangfan" in features:
        value *= 2
        count = ctx.huangfan + dice_huangfan(ctx.dice)
        steps.append(Step(StepKind.DOUBLE, ("huangfan",), value, None, count))
    steps.append(Step(StepKind.STAKE, (), value * ctx.stake, None, ctx.stake))
    score = WinScore(ctx.winner, ctx.win, ctx.from_seat, True, pattern, features, hua, value * ctx.stake)
    return Workings(score, lines, tuple(steps))
