"""Scoring features, one function each (§5-§9, §11), like the `mahjong` package's yaku list.

A feature adds to a winning hand but never makes one win. Each preset lists the features it knows
(`standard.FEATURES`, `lazi.FEATURES`, `home.FEATURES`); `features_of` returns the sorted names of
those that apply to a win. What a feature is worth is the preset's business, not this module's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..rules import Rules
from .core import REPLACEMENT, SELF_DRAWN, WinContext, dadiaoche, kaibao, menqing


@dataclass(frozen=True, slots=True)
class Feature:
    """`name` as in the scoring cases; `applies(ctx, rules)`; `with_eight_flowers`: may an 八花齐 win
    (which ignores the hand's shape) carry it."""

    name: str
    applies: Callable[[WinContext, Rules], bool]
    with_eight_flowers: bool = False


def features_of(ctx: WinContext, rules: Rules, features: Sequence[Feature]) -> tuple[str, ...]:
    """The sorted names of the listed features that apply to this win."""
    eight = ctx.win == "eight_flowers"
    return tuple(
        sorted(f.name for f in features if (f.with_eight_flowers or not eight) and f.applies(ctx, rules))
    )


def _menqing(ctx: WinContext, rules: Rules) -> bool:
    """门清: no chow, pong, exposed or added kong (concealed kongs allowed)."""
    return menqing(ctx.melds)


def _gangkai(ctx: WinContext, rules: Rules) -> bool:
    """杠开: the winning tile came from the tail after a kong or a flower."""
    return ctx.win in REPLACEMENT


def _dadiaoche(ctx: WinContext, rules: Rules) -> bool:
    """大吊车: every other set declared, one tile held, the win on its pair."""
    return dadiaoche(ctx)


def _qianggang(ctx: WinContext, rules: Rules) -> bool:
    """抢杠: the win robs an added kong."""
    return ctx.win == "rob_kong"


def _haidi(ctx: WinContext, rules: Rules) -> bool:
    """海底捞月 (§11 `haidi`, off by default): a self-drawn win on the wall's last tile."""
    return rules.haidi != "off" and ctx.last_tile and ctx.win in SELF_DRAWN


def _kaibao(ctx: WinContext, rules: Rules) -> bool:
    """开宝: the hand's dice are a double, or 1 and 4."""
    return kaibao(ctx.dice)


def _huangfan(ctx: WinContext, rules: Rules) -> bool:
    """荒番: the count carried into the hand is above 0."""
    return ctx.huangfan > 0


MENQING = Feature("menqing", _menqing)
GANGKAI = Feature("gangkai", _gangkai)
DADIAOCHE = Feature("dadiaoche", _dadiaoche)
QIANGGANG = Feature("qianggang", _qianggang)
HAIDI = Feature("haidi", _haidi)
KAIBAO = Feature("kaibao", _kaibao, with_eight_flowers=True)
HUANGFAN = Feature("huangfan", _huangfan, with_eight_flowers=True)
