"""The scoring explanation's view model: why a win is (not) legal, its pattern, features, the 花
breakdown line by line, each step of the share value, and each seat's payment.

It takes what the engine produced — `(WinContext, WinScore)` pairs, the `Rules` and the payments of
`settle` — so the calculator and a table's settlement panel explain a hand the same way, and it
renders through one partial, `templates/scoring/explanation.html`.

The steps restate the rules (§6-§9) with the engine's own pieces (`pattern_base`, `kaibao`, the
lazi table, …). Their result is checked against the engine's `WinScore.value`: `agrees` is False
when they differ, and the page then says so instead of showing two numbers as one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from games.engine.hand import is_all_honours, is_standard_complete
from games.engine.rules import Rules
from games.engine.scoring import WinContext, WinScore, shares_for
from games.engine.scoring import home as home_scoring
from games.engine.scoring import lazi as lazi_scoring
from games.engine.scoring.core import SETTLEMENT, partners_of
from games.engine.scoring.standard import pattern_base
from games.engine.tiles import N_KINDS, is_dragon, is_wind
from games.names import FEATURES, MELD_KINDS, PATTERNS, WIN_KINDS, WINDS, pair

_WIND_CODES = ("1z", "2z", "3z", "4z")
_PONGISH = ("pengpeng", "hunpeng", "qingpeng", "fengpeng")
_ZERO_FEEDS = ((0, 0, 0, 0),) * 4


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
    agrees: bool
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
    """`names` when given (a table's players), else "座位 0 Seat 0" …"""
    if names is not None:
        return list(names)
    return [f"座位 {s} Seat {s}" for s in range(4)]


def _wind(seat: int, dealer: int) -> tuple[str, str]:
    return WINDS[_WIND_CODES[(seat - dealer) % 4]]


# --- 花 breakdown --------------------------------------------------------------------------------


def _meld_line(meld) -> Line | None:
    """The 花 of one declared meld (§6), or None when it scores none."""
    if meld.kind == "chow":
        return None
    tile = meld.tiles[0]
    concealed = meld.kind == "kong_concealed"
    zh, en = MELD_KINDS[meld.kind]
    if is_dragon(tile):
        amount = (4 if concealed else 3) if meld.is_kong else 2
        zh, en = f"箭牌{zh}", f"Dragon {en.lower()}"
    elif is_wind(tile):
        amount = (3 if concealed else 2) if meld.is_kong else 1
        zh, en = f"风牌{zh}", f"Wind {en.lower()}"
    elif meld.is_kong:
        amount = 2 if concealed else 1
        zh, en = f"数牌{zh}", f"Suit {en.lower()}"
    else:
        return None
    return Line(meld.tiles, zh, en, amount)


def hua_lines(ctx: WinContext) -> list[Line]:
    """§6 line by line: each flower, each scoring meld, each concealed honour triplet."""
    lines = [Line((t,), "花牌", "Flower", 1) for t in ctx.flowers]
    lines += [line for line in map(_meld_line, ctx.melds) if line is not None]
    counts = ctx.concealed_counts()
    for tile in range(27, N_KINDS):
        if counts[tile] >= 3:
            if is_dragon(tile):
                lines.append(Line((tile,) * 3, "箭牌刻子（手里）", "Dragon pong (in hand)", 2))
            else:
                lines.append(Line((tile,) * 3, "风牌刻子（手里）", "Wind pong (in hand)", 1))
    return lines


def home_m_lines(ctx: WinContext, pattern: str) -> list[Line]:
    """§9's M line by line: flowers (10 when none), wind pongs and kongs, kongs."""
    if ctx.flowers:
        lines = [Line((t,), "花牌", "Flower", 1) for t in ctx.flowers]
    else:
        lines = [Line((), "无花算 10", "No flowers counts 10", home_scoring.NO_FLOWERS)]
    for meld in ctx.melds:
        zh, en = MELD_KINDS[meld.kind]
        if meld.kind != "chow" and is_wind(meld.tiles[0]):
            lines.append(Line(meld.tiles, f"风牌{zh}", f"Wind {en.lower()}", 1))
        if meld.is_kong:
            lines.append(Line(meld.tiles, "杠", "Kong", 1))
    if pattern != "qidui":
        counts = ctx.concealed_counts()
        for tile in range(27, 31):
            if counts[tile] >= 3:
                lines.append(Line((tile,) * 3, "风牌刻子（手里）", "Wind pong (in hand)", 1))
    return lines


# --- steps ---------------------------------------------------------------------------------------


def standard_steps(ctx: WinContext, score: WinScore, rules: Rules) -> tuple[list[Step], int]:
    """§7 steps 1-6 with the §11 options, in the order the rules apply them."""
    lezi = rules.lezi
    p, c = pattern_base(score.pattern, score.hua, rules)
    name = PATTERNS[score.pattern][0]
    if score.pattern in ("hunyise", "pengpeng"):
        formula = f"P = {rules.base} + {rules.flower_point} × {score.hua} 花 = {p}, C = {c} 勒子"
    else:
        formula = f"P = {p // lezi} 勒子 = {p}, C = {c} 勒子（固定，不计花 fixed, 花 ignored）"
    steps = [Step(f"{name}的底", f"{PATTERNS[score.pattern][1]}: base value and cap", formula)]
    options = {"gangkai": rules.gangkai, "menqing": rules.menqing, "haidi": rules.haidi}
    floors = [f for f in score.features if f == "dadiaoche" or options.get(f) in ("floor", "lezi")]
    if floors:
        p = max(p, lezi)
        label = "、".join(FEATURES[f][0] for f in floors)
        steps.append(Step(f"{label}：至少一勒子", "At least 1 lezi", f"P = max(P, {lezi}) = {p}"))
    for feature in ("gangkai", "menqing", "haidi"):
        if feature in score.features and options[feature] == "double":
            p, c = p * 2, max(c, 2)
            zh, en = FEATURES[feature]
            steps.append(Step(f"{zh} ×2", f"{en}: doubles", f"P × 2 = {p}, C = max(C, 2) = {c} 勒子"))
    for feature in ("kaibao", "huangfan"):
        if feature in score.features:
            p, c = p * 2, c * 2
            zh, en = FEATURES[feature]
            steps.append(Step(f"{zh} ×2", f"{en}: doubles value and cap", f"P × 2 = {p}, C × 2 = {c} 勒子"))
    value = min(p, c * lezi)
    steps.append(Step("封顶", "Cap", f"V = min(P, C × {lezi}) = min({p}, {c * lezi}) = {value}"))
    return steps, value


def lazi_steps(ctx: WinContext, score: WinScore, rules: Rules) -> tuple[list[Step], int]:
    """§8: a fixed hand in 喇, or (3 + 花) × 2^番 capped at 1 喇; 荒番 doubles."""
    la = lazi_scoring.LA
    if score.pattern in lazi_scoring.FIXED:
        n = lazi_scoring.FIXED[score.pattern]
        value = n * la
        zh, en = PATTERNS[score.pattern]
        steps = [Step(f"{zh}：固定 {n} 喇", f"{en}: fixed {n} la", f"V = {n} × {la} = {value} 花")]
    else:
        fan = [f for f in ("gangkai", "menqing") if f in score.features]
        raw = (lazi_scoring.BASE + score.hua) * 2 ** len(fan)
        value = min(raw, la)
        fan_zh = "、".join(FEATURES[f][0] for f in fan) or "无"
        steps = [
            Step(
                f"底注 3 + 花，番：{fan_zh}",
                f"Base 3 + 花, doubled per 番 ({', '.join(FEATURES[f][1] for f in fan) or 'none'})",
                f"({lazi_scoring.BASE} + {score.hua}) × 2^{len(fan)} = {raw}",
            ),
            Step("封顶一喇", "Cap 1 la", f"V = min({raw}, {la}) = {value} 花"),
        ]
    if "huangfan" in score.features:
        bonus = lazi_scoring.dice_huangfan(ctx.dice)
        value *= 2
        steps.append(
            Step(
                f"荒番 ×2（荒番数 {ctx.huangfan} + 骰子 {bonus}）",
                f"荒番 doubles (count {ctx.huangfan} + dice bonus {bonus})",
                f"V × 2 = {value} 花",
            )
        )
    return steps, value


def home_steps(ctx: WinContext, score: WinScore, rules: Rules, m: int) -> tuple[list[Step], int]:
    """§9: each payer pays min(M × N + 1, 20)."""
    factors: list[tuple[str, int]] = [(FEATURES[f][0], 2) for f in score.features]
    if score.pattern in _PONGISH:
        factors.append(("碰碰胡", 2))
    elif score.pattern == "qidui":
        factors.append(("七对子", 4))
    if score.pattern in ("qingyise", "qingpeng"):
        factors.append(("清一色", 4))
    elif score.pattern in ("hunyise", "hunpeng"):
        factors.append(("混一色", 2))
    n = 1
    for _, f in factors:
        n *= f
    shown = " × ".join(f"{label} {f}" for label, f in factors) or "1"
    cap = home_scoring.PAYMENT_CAP
    value = min(m * n + 1, cap)
    return [
        Step("N（各项相乘）", "N (the factors multiplied)", f"N = {shown} = {n}"),
        Step("每家付", "Each payer pays", f"min(M × N + 1, {cap}) = min({m} × {n} + 1, {cap}) = {value}"),
    ], value


# --- one win -------------------------------------------------------------------------------------


def why_not(ctx: WinContext, rules: Rules) -> tuple[str, str]:
    """Why the engine refused this win, in words."""
    if ctx.win == "eight_flowers":
        return ("八花齐要八张花牌。", "Eight flowers needs all eight flower tiles.")
    counts = ctx.concealed_counts()
    complete = is_standard_complete(counts) or (is_all_honours(counts) and sum(counts) % 3 == 2)
    if not complete or rules.preset == "home":
        return (
            "不成胡：这些牌凑不成四组加一对（或全字牌）。",
            "Not a complete hand: the tiles do not make four sets and a pair (or all honours).",
        )
    return (
        "平胡不能胡：至少要碰碰胡、混一色、清一色或全字牌。",
        "A plain mixed hand never wins here: it needs all pongs, one suit (with or without honours) or all honours.",
    )


def who_pays(ctx: WinContext, rules: Rules, labels: Sequence[str]) -> tuple[str, str]:
    """The §7 (or §8/§9, §11) sentence that decides who pays this win's shares."""
    partners = partners_of(ctx.winner, ctx.feeds) if SETTLEMENT[rules.preset][0] else {}
    if partners:
        names = "、".join(labels[p] for p in partners)
        twice = any(t == 2 for t in partners.values())
        head_zh, head_en = f"承包（{names}）：", f"承包 with {names}: "
        tail_zh, tail_en = (
            ("互相承包，加倍。" if twice else ""),
            (" Partners both ways: twice." if twice else ""),
        )
        if ctx.win == "rob_kong":
            body = ("被抢杠者付三份，承包者也付三份。", "the konger pays 3 shares and the partner 3 more.")
        elif ctx.win != "discard":
            body = ("承包者独付五份，另两家不付。", "the partner alone pays 5 shares.")
        elif ctx.from_seat in partners:
            body = ("承包者点炮，付两份。", "the partner dealt in and pays 2 shares.")
        elif ctx.ready[ctx.from_seat]:
            body = (
                "放铳者已听牌付一份，承包者付一份。",
                "the discarder was ready: 1 share, and the partner 1.",
            )
        else:
            body = ("放铳者未听牌，付两份。", "the discarder was not ready and pays 2 shares.")
        return head_zh + body[0] + tail_zh, head_en + body[1] + tail_en
    if ctx.win == "rob_kong":
        if rules.preset == "home":
            return "抢杠：被抢杠者付一份（每家封顶 20）。", "Robbed kong: the konger pays one capped amount."
        return "抢杠：被抢杠者付三份。", "Robbed kong: the konger pays all 3 shares."
    if ctx.win != "discard":
        return "自摸：另三家各付一份。", "Self-drawn: each other player pays 1 share."
    if rules.payment == "chu_chong":
        return "出冲：放铳者付两份，另两家各付一份。", "Discarder pays 2 shares, the other two 1 each."
    if rules.payment == "bao_chong":
        return "包冲：放铳者包付三份。", "The discarder pays for all three (3 shares)."
    return "点炮：放铳者付一份。", "On a discard: the discarder pays 1 share."


def explain_win(ctx: WinContext, score: WinScore, rules: Rules, labels: Sequence[str]) -> WinExplanation:
    win = WIN_KINDS[ctx.win]
    from_label = None if ctx.from_seat is None else labels[ctx.from_seat]
    home = rules.preset == "home"
    if not score.legal:
        return WinExplanation(
            ctx.winner, labels[ctx.winner], win, from_label, False, why_not(ctx, rules), None, (), (),
            ("花", "Flower points"), (), 0, (), 0, ("分", "points"), True,
        )  # fmt: skip
    if home:
        lines = home_m_lines(ctx, score.pattern)
        title = ("M（花 + 风刻 + 杠）", "M (flowers + wind pongs + kongs)")
    else:
        lines = hua_lines(ctx)
        title = ("花", "Flower points")
    total = sum(line.amount for line in lines)
    if rules.preset == "standard":
        steps, value = standard_steps(ctx, score, rules)
        unit = ("分", "points")
    elif rules.preset == "lazi":
        steps, value = lazi_steps(ctx, score, rules)
        unit = ("花", "花")
    else:
        steps, value = home_steps(ctx, score, rules, total)
        unit = ("分", "points")
    if ctx.stake != 1:
        steps.append(Step("底分倍数", "Table stake", f"{value} × {ctx.stake} = {value * ctx.stake}"))
        value *= ctx.stake
    agrees = value == score.value and (home or total == score.hua)
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
        lines=tuple(lines),
        breakdown_total=total,
        steps=tuple(steps),
        value=score.value,
        unit=unit,
        agrees=agrees,
        who_pays=who_pays(ctx, rules, labels),
    )


# --- the whole hand ------------------------------------------------------------------------------


def _shares(ctx: WinContext, rules: Rules, co_winners: list[int]) -> dict[int, int]:
    """The engine's shares for one win: with 承包 where the preset has it (§7), else ordinary."""
    if SETTLEMENT[rules.preset][0]:
        return shares_for(ctx, rules, co_winners)
    return shares_for(replace(ctx, feeds=_ZERO_FEEDS), rules)


def explain_hand(
    wins: Sequence[tuple[WinContext, WinScore]],
    rules: Rules,
    payments: Sequence[int],
    names: Sequence[str] | None = None,
) -> HandExplanation:
    """Explain a settled hand: `wins` and `payments` exactly as `score_win` / `settle` gave them."""
    dealer = wins[0][0].dealer if wins else 0
    labels = seat_labels(dealer, names)
    explained = tuple(explain_win(ctx, score, rules, labels) for ctx, score in wins)
    legal = [(ctx, score) for ctx, score in wins if score.legal]
    discard_winners = [ctx.winner for ctx, _ in legal if ctx.win == "discard"]
    owed = [0] * 4
    details: list[list[str]] = [[] for _ in range(4)]
    roles: list[list[tuple[str, str]]] = [[] for _ in range(4)]
    for ctx, score in legal:
        roles[ctx.winner].append(("胡", "Winner"))
        if ctx.win == "discard":
            roles[ctx.from_seat].append(("放铳", "Dealt in"))
        elif ctx.win == "rob_kong":
            roles[ctx.from_seat].append(("被抢杠", "Kong robbed"))
        if SETTLEMENT[rules.preset][0]:
            for partner in partners_of(ctx.winner, ctx.feeds):
                roles[partner].append(("承包", "Responsible (承包)"))
        co = [w for w in discard_winners if w != ctx.winner] if ctx.win == "discard" else []
        for payer, n in _shares(ctx, rules, co).items():
            if payer == ctx.winner or not n:
                continue
            owed[payer] += n * score.value
            details[payer].append(f"{n} × {score.value} → {labels[ctx.winner]}")
    capped = [payments[s] < 0 and -payments[s] < owed[s] for s in range(4)]
    cap_note = None
    if any(capped) and rules.hand_loss_cap_lezi is not None:
        limit = rules.hand_loss_cap_lezi * rules.lezi * (wins[0][0].stake if wins else 1)
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
