"""The scoring explanation's view model: why a win is (not) legal, its pattern, features, the 花
breakdown line by line, each step of the share value, and each seat's payment.

It takes what the engine produced — the wins' `WinContext`s, the `Rules` and the payments of
`settle` — and reads the engine's own workings (`scoring.workings`: the lines and steps the scorer
computed the value through) and settlements (`scoring.explain`: the rule that set each payer's
shares). Nothing here restates a rule: it only puts the engine's numbers into words, so the calculator
and a replay explain a hand the same way, through one partial, `templates/scoring/explanation.html`.

The words are in the language active while explaining (gettext, Chinese msgids), the formulas
(`Step.formula`, shown as `<code>`) included: their units (花, 勒子) and their 取小 / 取大 (min, max).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext, pgettext

from games.engine.rules import Rules
from games.engine.scoring import Line as EngineLine
from games.engine.scoring import LineKind, Settlement, StepKind, WinContext, WinScore, explain, workings
from games.engine.scoring import Step as EngineStep
from games.engine.scoring.core import partners_of
from games.engine.tiles import is_dragon, is_wind
from games.names import (
    FEATURES,
    MELD_KINDS,
    PATTERNS,
    PAYMENT_REASONS,
    WIN_KINDS,
    WIN_REFUSALS,
    WINDS,
    name_list,
    name_of,
)

_WIND_CODES = ("1z", "2z", "3z", "4z")


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the 花 (or, in `home`, M) breakdown."""

    tiles: tuple[int, ...]
    text: str
    amount: int


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the share value: what the rule does and the arithmetic it gives."""

    text: str
    formula: str


@dataclass(frozen=True)
class WinExplanation:
    seat: int
    seat_label: str
    win: str
    from_label: str | None
    legal: bool
    why_not: str | None
    pattern: str | None
    features: tuple[str, ...]
    codes: tuple[str, ...]  # the pattern's and features' engine codes, for data attributes only
    breakdown_title: str
    lines: tuple[Line, ...]
    breakdown_total: int
    steps: tuple[Step, ...]
    value: int
    unit: str
    who_pays: str | None = None


@dataclass(frozen=True)
class SeatPayment:
    seat: int
    label: str
    wind: str
    is_dealer: bool
    roles: tuple[str, ...]
    detail: str
    amount: int
    capped: bool


@dataclass(frozen=True)
class HandExplanation:
    wins: tuple[WinExplanation, ...]
    seats: tuple[SeatPayment, ...]
    cap_note: str | None


def seat_labels(dealer: int, names: Sequence[str] | None = None) -> list[str]:
    """`names` when given (a table's players), else each seat's place at the table, 东 南 西 北 for
    seats 0-3 (the calculator's seats; they are the seats' winds when seat 0 deals)."""
    if names is not None:
        return list(names)
    return seat_places()


def seat_places() -> list[str]:
    """The four seats named by their place at the table, 东 南 西 北 (East … North), in the active
    language: how the calculator names seats in its form and its explanation."""
    return [name_of(WINDS, code) for code in _WIND_CODES]


def _wind(seat: int, dealer: int) -> str:
    return name_of(WINDS, _WIND_CODES[(seat - dealer) % 4])


# --- lines ---------------------------------------------------------------------------------------


def _line(line: EngineLine) -> Line:
    if line.kind == LineKind.FLOWER:
        return Line(line.tiles, gettext("花牌"), line.amount)
    if line.kind == LineKind.NO_FLOWERS:
        return Line((), gettext("无花算 {n}").format(n=line.amount), line.amount)
    if line.kind == LineKind.KONG:
        return Line(line.tiles, gettext("杠"), line.amount)
    tile = line.tiles[0]
    if line.kind == LineKind.CONCEALED_PONG:
        if is_dragon(tile):
            return Line(line.tiles, gettext("箭牌刻子（手里）"), line.amount)
        if is_wind(tile):
            return Line(line.tiles, gettext("风牌刻子（手里）"), line.amount)
        return Line(line.tiles, gettext("数牌刻子（手里）"), line.amount)
    if is_dragon(tile):
        family = gettext("箭牌{meld}")
    elif is_wind(tile):
        family = gettext("风牌{meld}")
    else:
        family = gettext("数牌{meld}")
    return Line(line.tiles, family.format(meld=name_of(MELD_KINDS, line.meld_kind).lower()), line.amount)


# --- steps ---------------------------------------------------------------------------------------


def _name(code: str) -> str:
    return name_of(FEATURES, code) if code in FEATURES else name_of(PATTERNS, code)


def _names(codes: Sequence[str]) -> str:
    return name_list(_name(c) for c in codes)


def _hua() -> str:
    return pgettext("unit", "花")


def _lezi() -> str:
    return pgettext("unit", "勒子")


def _min() -> str:
    """The smaller of two, as the formulas write it in the page's language."""
    return pgettext("formula", "取小")


def _max() -> str:
    return pgettext("formula", "取大")


def _step(step: EngineStep, prev: int, ctx: WinContext, score: WinScore, rules: Rules, total: int) -> Step:
    """One engine step in words; `prev` is the value before it, `total` the 花 (or M) count."""
    v, cap, op = step.value, step.cap, step.operand
    by = _names(step.by)
    lazi = rules.preset == "lazi"
    hua, lezi, lo, hi = _hua(), _lezi(), _min(), _max()
    if step.kind == StepKind.BASE_HUA:
        if lazi:
            return Step(gettext("底注 {op} + 花").format(op=op), f"{op} + {total} {hua} = {v}")
        formula = f"P = {op} + {rules.flower_point} × {total} {hua} = {v}, C = {cap} {lezi}"
        return Step(gettext("{by}的底").format(by=by), formula)
    if step.kind == StepKind.BASE:
        fixed = gettext("（固定，不计花）")
        formula = f"P = {v // rules.lezi} {lezi} = {v}, C = {cap} {lezi}{fixed}"
        return Step(gettext("{by}的底").format(by=by), formula)
    if step.kind == StepKind.FIXED:
        if lazi:
            return Step(
                gettext("{by}：固定 {op} 喇").format(by=by, op=op), f"V = {op} × {v // op} = {v} {hua}"
            )
        return Step(gettext("{by}：付封顶").format(by=by), f"V = {v}")
    if step.kind == StepKind.FLOOR:
        return Step(gettext("{by}：至少一勒子").format(by=by), f"P = {hi}(P, {op}) = {v}")
    if step.kind == StepKind.DOUBLE:
        if lazi and step.by == ("huangfan",):
            bonus = op - ctx.huangfan
            text = gettext("荒番 ×2（荒番数 {count} + 骰子 {bonus}）").format(count=ctx.huangfan, bonus=bonus)
            return Step(text, f"V × 2 = {v} {hua}")
        if lazi:
            return Step(gettext("{by}：一番 ×2").format(by=by), f"{prev} × 2 = {v}")
        return Step(gettext("{by} ×2").format(by=by), f"P × 2 = {v}, C = {hi}(C, 2) = {cap} {lezi}")
    if step.kind == StepKind.DOUBLE_CAP:
        return Step(gettext("{by}：底和封顶都 ×2").format(by=by), f"P × 2 = {v}, C × 2 = {cap} {lezi}")
    if step.kind == StepKind.CAP:
        if lazi:
            return Step(gettext("封顶一喇"), f"V = {lo}({prev}, {op}) = {v} {hua}")
        return Step(pgettext("step", "封顶"), f"V = {lo}(P, C × {rules.lezi}) = {lo}({prev}, {op}) = {v}")
    if step.kind == StepKind.PAY:
        return Step(gettext("每家付"), f"{lo}(M × N + 1, {cap}) = {lo}({total} × {op} + 1, {cap}) = {v}")
    return Step(gettext("底分倍数"), f"{prev} × {op} = {v}")


def _n_step(factors: list[EngineStep]) -> Step:
    """`home`'s factors of N, shown as one product."""
    shown = " × ".join(f"{_name(s.by[0])} {s.operand}" for s in factors) or "1"
    n = factors[-1].value if factors else 1
    return Step(gettext("N（各项相乘）"), f"N = {shown} = {n}")


def steps_of(
    ctx: WinContext, score: WinScore, steps: Sequence[EngineStep], rules: Rules, total: int
) -> list[Step]:
    """The engine's steps in words (a stake of 1 is left out; `home`'s factors of N make one line)."""
    out: list[Step] = []
    factors = [s for s in steps if s.kind == StepKind.TIMES]
    prev = 0
    for step in steps:
        if step.kind == StepKind.TIMES:
            continue
        if step.kind == StepKind.PAY:
            out.append(_n_step(factors))
        if not (step.kind == StepKind.STAKE and step.operand == 1):
            out.append(_step(step, prev, ctx, score, rules, total))
        prev = step.value
    return out


# --- one win -------------------------------------------------------------------------------------


def who_pays(ctx: WinContext, settlement: Settlement, labels: Sequence[str]) -> str:
    """The engine's settlement of this win in words: the rule that applied and, under 承包, who owes what."""
    if settlement.reason != "chengbao":
        return name_of(PAYMENT_REASONS, settlement.reason)
    partners = partners_of(ctx.winner, ctx.feeds)
    names = name_list(labels[p] for p in partners)
    owed = gettext("，").join(
        ngettext("{name}付 {n} 份", "{name}付 {n} 份", n).format(name=labels[s], n=n)
        for s, n in enumerate(settlement.shares)
        if n
    )
    ready = ""
    if ctx.win == "discard" and ctx.from_seat not in partners:  # §7: the discarder's readiness decides
        ready = gettext("放冲者已听牌，") if ctx.ready[ctx.from_seat] else gettext("放冲者未听牌，")
    text = gettext("承包（{names}）：{ready}{owed}。").format(names=names, ready=ready, owed=owed)
    if any(t == 2 for t in partners.values()):
        text += gettext("互相承包，加倍。")
    return text


def explain_win(
    ctx: WinContext, rules: Rules, labels: Sequence[str], settlement: Settlement | None
) -> WinExplanation:
    w = workings(ctx, rules)
    score = w.score
    win = name_of(WIN_KINDS, ctx.win)
    from_label = None if ctx.from_seat is None else labels[ctx.from_seat]
    if not score.legal:
        return WinExplanation(
            ctx.winner, labels[ctx.winner], win, from_label, False, name_of(WIN_REFUSALS, w.refused), None, (), (),
            pgettext("breakdown", "花"), (), 0, (), 0, pgettext("unit", "分"),
        )  # fmt: skip
    title = gettext("M（花 + 风刻 + 杠）") if rules.preset == "home" else pgettext("breakdown", "花")
    total = sum(line.amount for line in w.lines)
    return WinExplanation(
        seat=ctx.winner,
        seat_label=labels[ctx.winner],
        win=win,
        from_label=from_label,
        legal=True,
        why_not=None,
        pattern=name_of(PATTERNS, score.pattern),
        features=tuple(name_of(FEATURES, f) for f in score.features),
        codes=(score.pattern, *score.features),
        breakdown_title=title,
        lines=tuple(_line(line) for line in w.lines),
        breakdown_total=total,
        steps=tuple(steps_of(ctx, score, w.steps, rules, total)),
        value=score.value,
        unit=pgettext("unit", "花") if rules.preset == "lazi" else pgettext("unit", "分"),
        who_pays=None if settlement is None else who_pays(ctx, settlement, labels),
    )


# --- the whole hand ------------------------------------------------------------------------------


def explain_hand(
    wins: Sequence[WinContext],
    rules: Rules,
    payments: Sequence[int],
    names: Sequence[str] | None = None,
) -> HandExplanation:
    """Explain a settled hand: its wins' contexts and the payments `settle` gave for them."""
    dealer = wins[0].dealer if wins else 0
    labels = seat_labels(dealer, names)
    scored = [(ctx, workings(ctx, rules).score) for ctx in wins]
    settlements = {s.winner: s for s in explain(scored, rules)}
    explained = tuple(explain_win(ctx, rules, labels, settlements.get(ctx.winner)) for ctx in wins)
    owed = [0] * 4
    details: list[list[str]] = [[] for _ in range(4)]
    roles: list[list[str]] = [[] for _ in range(4)]
    for ctx, score in scored:
        if not score.legal:
            continue
        settlement = settlements[ctx.winner]
        roles[ctx.winner].append(pgettext("role", "胡"))
        if ctx.win == "discard":
            roles[ctx.from_seat].append(pgettext("role", "放冲"))
        elif ctx.win == "rob_kong":
            roles[ctx.from_seat].append(pgettext("role", "被抢杠"))
        if settlement.reason == "chengbao":
            for partner in partners_of(ctx.winner, ctx.feeds):
                roles[partner].append(pgettext("role", "承包"))
        for payer, n in enumerate(settlement.shares):
            if n:
                owed[payer] += n * settlement.value
                details[payer].append(f"{n} × {settlement.value} → {labels[ctx.winner]}")
    capped = [payments[s] < 0 and -payments[s] < owed[s] for s in range(4)]
    cap_note = None
    if any(capped) and rules.hand_loss_cap_lezi is not None:
        limit = rules.hand_loss_cap_lezi * rules.lezi * (wins[0].stake if wins else 1)
        cap_note = gettext("单局封顶：每家最多付 {limit}。").format(limit=limit)
    seats = tuple(
        SeatPayment(
            seat=s,
            label=labels[s],
            wind=_wind(s, dealer),
            is_dealer=s == dealer,
            roles=tuple(dict.fromkeys(roles[s])),
            detail=" + ".join(details[s]),
            amount=payments[s],
            capped=capped[s],
        )
        for s in range(4)
    )
    return HandExplanation(explained, seats, cap_note)
