"""The scoring explanation's view model: why a win is (not) legal, its pattern, features, the 花
breakdown line by line, each step of the share value, and each seat's payment.

It takes what the engine produced — the wins' `WinContext`s, the `Rules` and the payments of
`settle` — and reads the engine's own workings (`scoring.workings`: the lines and steps the scorer
computed the value through) and settlements (`scoring.explain`: the rule that set each payer's
shares). Nothing here restates a rule: it only puts the engine's numbers into words, so the calculator
and a replay explain a hand the same way, through one partial, `templates/scoring/explanation.html`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext

from games.engine.rules import Rules
from games.engine.scoring import Line as EngineLine
from games.engine.scoring import LineKind, Settlement, StepKind, WinContext, WinScore, explain, workings
from games.engine.scoring import Step as EngineStep
from games.engine.scoring.core import partners_of
from games.engine.tiles import is_dragon, is_wind
from games.names import FEATURES, MELD_KINDS, PATTERNS, WIN_KINDS, WINDS, pair

_WIND_CODES = ("1z", "2z", "3z", "4z")


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the 花 (or, in `home`, M) breakdown."""

    tiles: tuple[int, ...]
    zh: str
    en: str
    amount: int


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the share value: what the rule does and the arithmetic it gives."""

    zh: str
    en: str
    formula: str


@dataclass(frozen=True)
class WinExplanation:
    seat: int
    seat_label: str
    win: tuple[str, str]
    from_label: str | None
    legal: bool
    why_not: tuple[str, str] | None
    pattern: tuple[str, str] | None
    features: tuple[tuple[str, str], ...]
    codes: tuple[str, ...]  # the pattern's and features' engine codes, for data attributes only
    breakdown_title: tuple[str, str]
    lines: tuple[Line, ...]
    breakdown_total: int
    steps: tuple[Step, ...]
    value: int
    unit: tuple[str, str]
    who_pays: tuple[str, str] | None = None


@dataclass(frozen=True)
class SeatPayment:
    seat: int
    label: str
    wind: tuple[str, str]
    is_dealer: bool
    roles: tuple[tuple[str, str], ...]
    detail: str
    amount: int
    capped: bool


@dataclass(frozen=True)
class HandExplanation:
    wins: tuple[WinExplanation, ...]
    seats: tuple[SeatPayment, ...]
    cap_note: tuple[str, str] | None


def seat_labels(dealer: int, names: Sequence[str] | None = None) -> list[str]:
    """`names` when given (a table's players), else "座位 0" … in the active language."""
    if names is not None:
        return list(names)
    return [gettext("座位 {}").format(s) for s in range(4)]


def _wind(seat: int, dealer: int) -> tuple[str, str]:
    return WINDS[_WIND_CODES[(seat - dealer) % 4]]


# --- lines ---------------------------------------------------------------------------------------


def _tile_family(tile: int) -> tuple[str, str]:
    if is_dragon(tile):
        return "箭牌", "Dragon"
    if is_wind(tile):
        return "风牌", "Wind"
    return "数牌", "Suit"


def _line(line: EngineLine) -> Line:
    if line.kind == LineKind.FLOWER:
        return Line(line.tiles, "花牌", "Flower", line.amount)
    if line.kind == LineKind.NO_FLOWERS:
        return Line((), f"无花算 {line.amount}", f"No flowers counts {line.amount}", line.amount)
    if line.kind == LineKind.KONG:
        return Line(line.tiles, "杠", "Kong", line.amount)
    fzh, fen = _tile_family(line.tiles[0])
    if line.kind == LineKind.CONCEALED_PONG:
        return Line(line.tiles, f"{fzh}刻子（手里）", f"{fen} pong (in hand)", line.amount)
    zh, en = MELD_KINDS[line.meld_kind]
    return Line(line.tiles, f"{fzh}{zh}", f"{fen} {en.lower()}", line.amount)


# --- steps ---------------------------------------------------------------------------------------


def _name(code: str) -> tuple[str, str]:
    return FEATURES[code] if code in FEATURES else pair(PATTERNS, code)


def _names(codes: Sequence[str]) -> tuple[str, str]:
    return "、".join(_name(c)[0] for c in codes), ", ".join(_name(c)[1] for c in codes)


def _step(step: EngineStep, prev: int, ctx: WinContext, score: WinScore, rules: Rules, total: int) -> Step:
    """One engine step in words; `prev` is the value before it, `total` the 花 (or M) count."""
    v, cap, op = step.value, step.cap, step.operand
    zh, en = _names(step.by)
    lazi = rules.preset == "lazi"
    if step.kind == StepKind.BASE_HUA:
        if lazi:
            return Step(f"底注 {op} + 花", f"Base {op} + flowers", f"{op} + {total} 花 = {v}")
        formula = f"P = {op} + {rules.flower_point} × {total} 花 = {v}, C = {cap} 勒子"
        return Step(f"{zh}的底", f"{en}: base value and cap", formula)
    if step.kind == StepKind.BASE:
        formula = f"P = {v // rules.lezi} 勒子 = {v}, C = {cap} 勒子（固定，不计花 fixed, 花 ignored）"
        return Step(f"{zh}的底", f"{en}: base value and cap", formula)
    if step.kind == StepKind.FIXED:
        if lazi:
            return Step(f"{zh}：固定 {op} 喇", f"{en}: fixed {op} la", f"V = {op} × {v // op} = {v} 花")
        return Step(f"{zh}：付封顶", f"{en}: pays the cap", f"V = {v}")
    if step.kind == StepKind.FLOOR:
        return Step(f"{zh}：至少一勒子", f"{en}: at least 1 lezi", f"P = max(P, {op}) = {v}")
    if step.kind == StepKind.DOUBLE:
        if lazi and step.by == ("huangfan",):
            bonus = op - ctx.huangfan
            return Step(
                f"荒番 ×2（荒番数 {ctx.huangfan} + 骰子 {bonus}）",
                f"荒番 doubles (count {ctx.huangfan} + dice bonus {bonus})",
                f"V × 2 = {v} 花",
            )
        if lazi:
            return Step(f"{zh}：一番 ×2", f"{en}: one 番, doubles", f"{prev} × 2 = {v}")
        return Step(f"{zh} ×2", f"{en}: doubles", f"P × 2 = {v}, C = max(C, 2) = {cap} 勒子")
    if step.kind == StepKind.DOUBLE_CAP:
        return Step(f"{zh} ×2", f"{en}: doubles value and cap", f"P × 2 = {v}, C × 2 = {cap} 勒子")
    if step.kind == StepKind.CAP:
        if lazi:
            return Step("封顶一喇", "Cap 1 la", f"V = min({prev}, {op}) = {v} 花")
        return Step("封顶", "Cap", f"V = min(P, C × {rules.lezi}) = min({prev}, {op}) = {v}")
    if step.kind == StepKind.PAY:
        return Step(
            "每家付", "Each payer pays", f"min(M × N + 1, {cap}) = min({total} × {op} + 1, {cap}) = {v}"
        )
    return Step("底分倍数", "Table stake", f"{prev} × {op} = {v}")


def _n_step(factors: list[EngineStep]) -> Step:
    """`home`'s factors of N, shown as one product."""
    shown = " × ".join(f"{_name(s.by[0])[0]} {s.operand}" for s in factors) or "1"
    n = factors[-1].value if factors else 1
    return Step("N（各项相乘）", "N (the factors multiplied)", f"N = {shown} = {n}")


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

_REFUSED = {
    "eight_flowers": ("八花齐要八张花牌。", "Eight flowers needs all eight flower tiles."),
    "incomplete": (
        "不成胡：这些牌凑不成四组加一对（或全字牌）。",
        "Not a complete hand: the tiles do not make four sets and a pair (or all honours).",
    ),
    "plain": (
        "平胡不能胡：至少要碰碰胡、混一色、清一色或全字牌。",
        "A plain mixed hand never wins here: it needs all pongs, one suit (with or without honours) or all honours.",
    ),
}

_REASONS = {
    "discard": ("点炮：放铳者付一份。", "On a discard: the discarder pays 1 share."),
    "chu_chong": ("出冲：放铳者付两份，另两家各付一份。", "Discarder pays 2 shares, the other two 1 each."),
    "bao_chong": ("包冲：放铳者包付三份。", "The discarder pays for all three (3 shares)."),
    "qingyise_9_bao": (
        "清一色九张落地：放铳者包付三份。",
        "Nine tiles of one suit shown: the discarder pays for all three (3 shares).",
    ),
    "self_draw": ("自摸：另三家各付一份。", "Self-drawn: each other player pays 1 share."),
    "rob_kong": ("抢杠：被抢杠者付三份。", "Robbed kong: the konger pays all 3 shares."),
}


def who_pays(ctx: WinContext, settlement: Settlement, labels: Sequence[str]) -> tuple[str, str]:
    """The engine's settlement of this win in words: the rule that applied and, under 承包, who owes what."""
    if settlement.reason != "chengbao":
        return _REASONS[settlement.reason]
    partners = partners_of(ctx.winner, ctx.feeds)
    names = "、".join(labels[p] for p in partners)
    owed = [(labels[s], n) for s, n in enumerate(settlement.shares) if n]
    zh = "，".join(f"{name}付 {n} 份" for name, n in owed)
    en = ", ".join(f"{name} pays {n} share{'s' if n != 1 else ''}" for name, n in owed)
    twice = any(t == 2 for t in partners.values())
    ready_zh = ready_en = ""
    if ctx.win == "discard" and ctx.from_seat not in partners:  # §7: the discarder's readiness decides
        ready = ctx.ready[ctx.from_seat]
        ready_zh = "放铳者已听牌，" if ready else "放铳者未听牌，"
        ready_en = "the discarder was ready; " if ready else "the discarder was not ready; "
    return (
        f"承包（{names}）：{ready_zh}{zh}。" + ("互相承包，加倍。" if twice else ""),
        f"Responsible (chengbao) with {names}: {ready_en}{en}."
        + (" Partners both ways: twice." if twice else ""),
    )


def explain_win(
    ctx: WinContext, rules: Rules, labels: Sequence[str], settlement: Settlement | None
) -> WinExplanation:
    w = workings(ctx, rules)
    score = w.score
    win = WIN_KINDS[ctx.win]
    from_label = None if ctx.from_seat is None else labels[ctx.from_seat]
    if not score.legal:
        return WinExplanation(
            ctx.winner, labels[ctx.winner], win, from_label, False, _REFUSED[w.refused], None, (), (),
            ("花", "Flower points"), (), 0, (), 0, ("分", "points"),
        )  # fmt: skip
    if rules.preset == "home":
        title = ("M（花 + 风刻 + 杠）", "M (flowers + wind pongs + kongs)")
    else:
        title = ("花", "Flower points")
    total = sum(line.amount for line in w.lines)
    return WinExplanation(
        seat=ctx.winner,
        seat_label=labels[ctx.winner],
        win=win,
        from_label=from_label,
        legal=True,
        why_not=None,
        pattern=pair(PATTERNS, score.pattern),
        features=tuple(pair(FEATURES, f) for f in score.features),
        codes=(score.pattern, *score.features),
        breakdown_title=title,
        lines=tuple(_line(line) for line in w.lines),
        breakdown_total=total,
        steps=tuple(steps_of(ctx, score, w.steps, rules, total)),
        value=score.value,
        unit=("花", "hua") if rules.preset == "lazi" else ("分", "points"),
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
    roles: list[list[tuple[str, str]]] = [[] for _ in range(4)]
    for ctx, score in scored:
        if not score.legal:
            continue
        settlement = settlements[ctx.winner]
        roles[ctx.winner].append(("胡", "Winner"))
        if ctx.win == "discard":
            roles[ctx.from_seat].append(("放铳", "Dealt in"))
        elif ctx.win == "rob_kong":
            roles[ctx.from_seat].append(("被抢杠", "Kong robbed"))
        if settlement.reason == "chengbao":
            for partner in partners_of(ctx.winner, ctx.feeds):
                roles[partner].append(("承包", "Responsible (chengbao)"))
        for payer, n in enumerate(settlement.shares):
            if n:
                owed[payer] += n * settlement.value
                details[payer].append(f"{n} × {settlement.value} → {labels[ctx.winner]}")
    capped = [payments[s] < 0 and -payments[s] < owed[s] for s in range(4)]
    cap_note = None
    if any(capped) and rules.hand_loss_cap_lezi is not None:
        limit = rules.hand_loss_cap_lezi * rules.lezi * (wins[0].stake if wins else 1)
        cap_note = (
            f"单局封顶：每家最多付 {limit}。",
            f"Loss cap: nobody pays more than {limit} in one hand.",
        )
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
