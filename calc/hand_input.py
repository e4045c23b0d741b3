"""The calculator's hand as a query string, and back: `/calc/?hand=123456789m1z&tile=1z&meld=pong:777z:3…`.

`read_query` turns any query string into a `HandInput` plus a list of problems (never an exception),
`HandInput.query()` writes it back, and `HandInput.to_engine()` builds the engine's `WinContext` and
`Rules` (raising `InputError` with a clear message). `from_engine` goes the other way, so a finished
hand of a game can be opened in the calculator.

Parameters (defaults are left out of the written query):
    preset   standard | lazi | home          win     discard | self_draw | rob_kong | …
    winner   seat 0-3 (0)                     from    the discarder or konger (default: seat before)
    dealer   seat 0-3 (0)                     dice    two digits 1-6 ("25")
    huangfan 荒番 count (0)                   stake   table stake k (1)
    hand     concealed tiles before the winning tile      tile  the winning tile
    meld     repeated, `kind:tiles[:from]`, e.g. `pong:777z:3`, `kong_concealed:2222m`
    flowers  flower tiles (home: dragons too) feeds   16 digits, row a = claims a made from 0..3
    ready    4 digits 0/1                     last, first   1 = last tile of the wall / first go-round
    menqing gangkai haidi payment cap       the room options of games/engine/RULES.md §11 (cap: n or off)
    qingyise_9_bao                            1 = §11 清一色九张落地包输 (the discarder pays 3 shares)
    base fp lezi_points                     §7's 底分 B, 花分 f and 勒子 L in points (2, 1, 10)
    to mk mf                                  the builder's state: where a tap goes, meld kind, meld source
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.engine.kinds import MeldKind
from games.engine.melds import MELD_KINDS, Meld, MeldError
from games.engine.rules import PRESETS, Rules
from games.engine.scoring import WIN_KINDS, WinContext
from games.engine.tiles import (
    FLOWER_BASE,
    N_KINDS,
    NotationError,
    code_to_str,
    format_tiles,
    is_dragon,
    is_flower,
    name_zh,
    parse_tiles,
)
from games.names import RULE_OPTIONS, meld_name

MAX_TEXT = 80  # longer than any real hand's notation
TARGETS = ("hand", "tile", "meld", "flowers")
OPTION_DEFAULTS = {name: getattr(Rules(), name) for name in RULE_OPTIONS}
_CAP_DEFAULT = Rules().hand_loss_cap_lezi
_UNIT_PARAMS = ("base", "fp", "lezi_points")  # Rules.base, Rules.flower_point, Rules.lezi
_UNITS_DEFAULT = (Rules().base, Rules().flower_point, Rules().lezi)


class InputError(ValueError):
    """A hand that cannot be scored, with the message to show."""

    def __init__(self, problem: str, *, incomplete: bool = False):
        super().__init__(problem)
        self.problem = problem
        self.incomplete = incomplete  # still being built, rather than wrong


def problem(message: str, **values) -> str:
    """One thing wrong with the input: `message` is already in the active language (`_("中文")`),
    its `{name}` placeholders filled from `values` (a language may leave one out: the engine's
    English `detail` is only shown in English)."""
    return message.format(**values)


@dataclass(frozen=True)
class HandInput:
    preset: str = "standard"
    options: tuple[tuple[str, str], ...] = ()  # room options that differ from the defaults
    cap: int | None = _CAP_DEFAULT
    nine_bao: bool = False  # Rules.qingyise_9_bao
    units: tuple[int, int, int] = _UNITS_DEFAULT  # Rules.base, flower_point, lezi (§7's B, f, L)
    stake: int = 1
    dealer: int = 0
    winner: int = 0
    win: str = "discard"
    from_seat: int | None = None  # None: the seat before the winner (for discard / rob_kong)
    hand: tuple[int, ...] = ()
    tile: int | None = None
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()
    dice: tuple[int, int] = (2, 5)
    huangfan: int = 0
    feeds: tuple[tuple[int, ...], ...] = ((0,) * 4,) * 4
    ready: tuple[bool, ...] = (False,) * 4
    last_tile: bool = False
    first_go_round: bool = False
    # the builder's state, not part of the hand
    to: str = "hand"
    meld_kind: str = "pong"
    meld_from: int | None = None

    # --- derived --------------------------------------------------------------------------------

    @property
    def source_seat(self) -> int | None:
        if self.win not in ("discard", "rob_kong"):
            return None
        return (self.winner + 3) % 4 if self.from_seat is None else self.from_seat

    @property
    def meld_source(self) -> int:
        """Where the next meld is claimed from: the chosen seat, else the seat before the winner."""
        return (self.winner + 3) % 4 if self.meld_from is None else self.meld_from

    @property
    def hand_size(self) -> int:
        """How many concealed tiles the hand holds before the winning tile."""
        return 13 - 3 * len(self.melds)

    @property
    def needs_tile(self) -> bool:
        return self.win != "eight_flowers"

    def option(self, name: str) -> str:
        return dict(self.options).get(name, OPTION_DEFAULTS[name])

    def rules(self) -> Rules:
        opts = dict(self.options)
        base, flower_point, lezi = self.units
        return Rules(
            preset=self.preset,
            hand_loss_cap_lezi=self.cap,
            qingyise_9_bao=self.nine_bao,
            base=base,
            flower_point=flower_point,
            lezi=lezi,
            **opts,
        )

    def all_tiles(self) -> list[int]:
        tiles = list(self.hand) + list(self.flowers)
        if self.tile is not None:
            tiles.append(self.tile)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tiles

    def copies_left(self, code: int) -> int:
        limit = 1 if is_flower(code) else 4
        return limit - self.all_tiles().count(code)

    # --- writing --------------------------------------------------------------------------------

    def params(self) -> list[tuple[str, str]]:
        """The query parameters, defaults left out, in a stable order."""
        out: list[tuple[str, str]] = []
        if self.preset != "standard":
            out.append(("preset", self.preset))
        out.append(("win", self.win))
        out.append(("winner", str(self.winner)))
        if self.source_seat is not None:
            out.append(("from", str(self.source_seat)))
        if self.hand:
            out.append(("hand", format_tiles(sorted(self.hand))))
        if self.tile is not None:
            out.append(("tile", code_to_str(self.tile)))
        for meld in self.melds:
            text = f"{meld.kind}:{format_tiles(meld.tiles)}"
            out.append(("meld", text if meld.from_seat is None else f"{text}:{meld.from_seat}"))
        if self.flowers:
            out.append(("flowers", format_tiles(sorted(self.flowers))))
        if self.dealer:
            out.append(("dealer", str(self.dealer)))
        if self.dice != (2, 5):
            out.append(("dice", f"{self.dice[0]}{self.dice[1]}"))
        if self.huangfan:
            out.append(("huangfan", str(self.huangfan)))
        if self.stake != 1:
            out.append(("stake", str(self.stake)))
        if any(any(row) for row in self.feeds):
            out.append(("feeds", "".join(str(x) for row in self.feeds for x in row)))
        if any(self.ready):
            out.append(("ready", "".join("1" if r else "0" for r in self.ready)))
        if self.last_tile:
            out.append(("last", "1"))
        if self.first_go_round:
            out.append(("first", "1"))
        out.extend(self.options)
        if self.cap != _CAP_DEFAULT:
            out.append(("cap", "off" if self.cap is None else str(self.cap)))
        if self.nine_bao:
            out.append(("qingyise_9_bao", "1"))
        for name, value, default in zip(_UNIT_PARAMS, self.units, _UNITS_DEFAULT, strict=True):
            if value != default:
                out.append((name, str(value)))
        if self.to != "hand":
            out.append(("to", self.to))
        if self.to == "meld" or self.meld_kind != MeldKind.PONG:
            out.append(("mk", self.meld_kind))
        if self.meld_from is not None:
            out.append(("mf", str(self.meld_from)))
        return out

    def query(self) -> str:
        return urlencode(self.params(), safe=":")

    # --- edits the builder's taps make ----------------------------------------------------------

    def tap(self, code: int) -> HandInput | None:
        """The input after tapping `code` in the palette, or None when the tap cannot add it."""
        if self.copies_left(code) <= 0:
            return None
        if is_flower(code) or (self.preset == "home" and is_dragon(code)):
            return replace(self, flowers=(*self.flowers, code))
        if self.to == "meld":
            return self._add_meld(code)
        if not self.needs_tile and (self.to == "tile" or len(self.hand) >= self.hand_size):
            return None
        if self.to == "tile" or (len(self.hand) >= self.hand_size and self.tile is None):
            return replace(self, tile=code, to="hand")  # in "tile" mode a tap replaces the winning tile
        if len(self.hand) >= self.hand_size:
            return None
        return replace(self, hand=(*self.hand, code))

    def _add_meld(self, code: int) -> HandInput | None:
        kind = self.meld_kind
        if kind == MeldKind.CHOW:
            if code >= 27 or code % 9 > 6:
                return None
            tiles = (code, code + 1, code + 2)
        else:
            tiles = (code,) * (4 if kind.startswith("kong") else 3)
        if len(self.melds) >= 4 or len(self.hand) > 13 - 3 * (len(self.melds) + 1):
            return None
        probe = self.all_tiles() + list(tiles)
        if any(probe.count(t) > 4 for t in set(tiles)):
            return None
        seat = None if kind == MeldKind.KONG_CONCEALED else self.meld_source
        return replace(self, melds=(*self.melds, Meld(kind, tiles, seat)))

    def without_hand_tile(self, index: int) -> HandInput:
        hand = sorted(self.hand)
        return replace(self, hand=tuple(hand[:index] + hand[index + 1 :]))

    def without_meld(self, index: int) -> HandInput:
        return replace(self, melds=self.melds[:index] + self.melds[index + 1 :])

    def without_flower(self, code: int) -> HandInput:
        flowers = list(self.flowers)
        flowers.remove(code)
        return replace(self, flowers=tuple(flowers))

    # --- to the engine --------------------------------------------------------------------------

    def to_engine(self) -> tuple[WinContext, Rules]:
        """The engine's view of this hand; `InputError` says what is missing or impossible."""
        check_counts_readable(self.all_tiles())
        n_concealed = len(self.hand) + 3 * len(self.melds)
        if n_concealed > 13 + (self.win == "eight_flowers"):
            raise InputError(
                problem(
                    _("牌太多：手牌 {hand} 张、副露 {melds} 组。胡牌前应有 13 张（每组副露算 3 张）。"),
                    hand=len(self.hand),
                    melds=len(self.melds),
                )
            )
        held = [
            *self.hand,
            *([] if self.tile is None else [self.tile]),
            *(t for m in self.melds for t in m.tiles),
        ]
        if self.preset == "home" and any(is_dragon(t) for t in held):
            raise InputError(problem(_("家庭规则里中发白是花牌，不能在手牌里。")))
        if self.preset != "home" and any(not is_flower(t) for t in self.flowers):
            raise InputError(problem(_("只有家庭规则把中发白当花。")))
        for meld in self.melds:
            if meld.from_seat == self.winner:
                raise InputError(
                    problem(
                        _("{meld} {tiles} 不能来自胡牌者自己。"),
                        meld=meld_name(meld.kind),
                        tiles=format_tiles(meld.tiles),
                    )
                )
        if self.source_seat == self.winner:
            raise InputError(problem(_("不能胡自己打出或杠的牌。")))
        if self.win == "eight_flowers":
            if len(self.flowers) < 8:
                raise InputError(
                    problem(_("八花齐要八张花牌。")),
                    incomplete=True,
                )
            if n_concealed < 13:
                raise InputError(
                    problem(_("还差 {n} 张手牌。"), n=13 - n_concealed),
                    incomplete=True,
                )
        elif self.tile is None or n_concealed < 13:
            missing = 13 - n_concealed
            raise InputError(
                problem(
                    _("还差 {n} 张手牌和胡的那张牌。") if self.tile is None else _("还差 {n} 张手牌。"),
                    n=missing,
                )
                if missing
                else problem(_("请选胡的那张牌。")),
                incomplete=True,
            )
        try:
            rules = self.rules()
            ctx = WinContext(
                winner=self.winner,
                win=self.win,
                concealed=tuple(sorted(self.hand)),
                winning_tile=None if self.win == "eight_flowers" else self.tile,
                melds=self.melds,
                flowers=tuple(sorted(self.flowers)),
                from_seat=self.source_seat,
                dealer=self.dealer,
                dice=self.dice,
                huangfan=self.huangfan,
                stake=self.stake,
                feeds=self.feeds,
                ready=self.ready,
                last_tile=self.last_tile,
                first_go_round=self.first_go_round,
            )
        except ValueError as exc:
            raise InputError(problem(_("这手牌不成立。"), detail=exc)) from exc
        return ctx, rules


def check_counts_readable(tiles: list[int]) -> None:
    """Five copies of a tile (or two of a flower) cannot exist: say which."""
    for code in sorted(set(tiles)):
        limit = 1 if is_flower(code) else 4
        n = tiles.count(code)
        if n > limit:
            raise InputError(
                problem(
                    # xgettext:no-python-brace-format (the English leaves the Chinese tile name out)
                    _("{name}（{tile}）有 {n} 张，一副牌里只有 {limit} 张。"),
                    name=name_zh(code),
                    tile=code_to_str(code),
                    n=n,
                    limit=limit,
                )
            )


# --- reading -------------------------------------------------------------------------------------


class _Reader:
    def __init__(self, query: Mapping):
        self.query = query
        self.problems: list[str] = []

    def text(self, name: str) -> str | None:
        value = self.query.get(name)
        if value is None or value == "":
            return None
        if len(value) > MAX_TEXT:
            self.problems.append(problem(_("参数 {name} 太长。"), name=name))
            return None
        return value

    def choice(self, name: str, allowed, default, label: str):
        value = self.text(name)
        if value is None:
            return default
        if value not in allowed:
            self.problems.append(
                problem(
                    _("{label}「{value}」不认识，应为 {allowed}。"),
                    label=label,
                    value=value,
                    allowed=" / ".join(allowed),
                )
            )
            return default
        return value

    def number(self, name: str, lo: int, hi: int, default, label: str):
        value = self.text(name)
        if value is None:
            return default
        if not (value.isascii() and value.isdigit()) or not lo <= int(value) <= hi:
            self.problems.append(
                problem(
                    _("{label}应为 {lo}–{hi} 的整数，收到「{value}」。"),
                    label=label,
                    lo=lo,
                    hi=hi,
                    value=value,
                )
            )
            return default
        return int(value)

    def tiles(self, name: str, label: str) -> tuple[int, ...]:
        value = self.text(name)
        if value is None:
            return ()
        try:
            return tuple(parse_tiles(value))
        except NotationError as exc:
            self.problems.append(
                problem(
                    # xgettext:no-python-brace-format (the English shows the engine's words too)
                    _("{label}「{value}」不是牌的写法（如 123m55p777z）。"),
                    label=label,
                    value=value,
                    detail=exc,
                )
            )
            return ()

    def flag(self, name: str) -> bool:
        return self.choice(name, ("0", "1"), "0", name) == "1"


# The parameters' names in the problems (a context of their own: the page's labels may word them apart).
RULES_LABEL = pgettext_lazy("calc parameter", "规则")
WIN_LABEL = pgettext_lazy("calc parameter", "胡法")
WINNER_LABEL = pgettext_lazy("calc parameter", "胡牌者座位")
FROM_LABEL = pgettext_lazy("calc parameter", "放冲者座位")
DEALER_LABEL = pgettext_lazy("calc parameter", "庄家座位")
HUANGFAN_LABEL = pgettext_lazy("calc parameter", "荒番数")
STAKE_LABEL = pgettext_lazy("calc parameter", "底分")
HAND_LABEL = pgettext_lazy("calc parameter", "手牌")
TILE_LABEL = pgettext_lazy("calc parameter", "胡的牌")
FLOWERS_LABEL = pgettext_lazy("calc parameter", "花牌")
CAP_LABEL = pgettext_lazy("calc parameter", "封顶勒子数")
TARGET_LABEL = pgettext_lazy("calc parameter", "目标")
MELD_KIND_LABEL = pgettext_lazy("calc parameter", "副露种类")
MELD_FROM_LABEL = pgettext_lazy("calc parameter", "座位")
KNOWN_PARAMS = frozenset(
    {
        "preset",
        "win",
        "winner",
        "from",
        "dealer",
        "huangfan",
        "stake",
        "hand",
        "tile",
        "flowers",
        "meld",
        "dice",
    }
    | {
        "feeds",
        "ready",
        "rd",
        "last",
        "first",
        "cap",
        "qingyise_9_bao",
        "to",
        "mk",
        "mf",
        *RULE_OPTIONS,
        *_UNIT_PARAMS,
    }
)


def read_query(query: Mapping) -> tuple[HandInput, list[str]]:
    """Read any query string (a `QueryDict` or a plain dict); bad values become problems (`problem`)."""
    r = _Reader(query)
    unknown = sorted(k for k in query if k not in KNOWN_PARAMS)
    if unknown:
        shown = ", ".join(k[:20] for k in unknown[:5])
        r.problems.append(problem(_("不认识的参数：{names}。"), names=shown))
    preset = r.choice("preset", PRESETS, "standard", RULES_LABEL)
    win = r.choice("win", WIN_KINDS, "discard", WIN_LABEL)
    winner = r.number("winner", 0, 3, 0, WINNER_LABEL)
    from_seat = r.number("from", 0, 3, None, FROM_LABEL)
    dealer = r.number("dealer", 0, 3, 0, DEALER_LABEL)
    huangfan = r.number("huangfan", 0, 99, 0, HUANGFAN_LABEL)
    stake = r.number("stake", 1, 10000, 1, STAKE_LABEL)
    hand = r.tiles("hand", HAND_LABEL)
    tile_codes = r.tiles("tile", TILE_LABEL)
    flowers = r.tiles("flowers", FLOWERS_LABEL)
    tile = None
    if len(tile_codes) > 1 or any(is_flower(t) for t in tile_codes):
        r.problems.append(problem(_("胡的牌只能是一张数牌或字牌。")))
    elif tile_codes:
        tile = tile_codes[0]
    if any(is_flower(t) for t in hand):
        r.problems.append(problem(_("花牌不放在手牌里。")))
        hand = tuple(t for t in hand if t < FLOWER_BASE)
    if any(t < N_KINDS and not (preset == "home" and is_dragon(t)) for t in flowers):
        r.problems.append(problem(_("花牌里只能放花。")))
        flowers = tuple(t for t in flowers if is_flower(t) or (preset == "home" and is_dragon(t)))
    melds = []
    meld_texts = _getlist(query, "meld")
    if len(meld_texts) > 8:
        r.problems.append(problem(_("副露参数太多。")))
        meld_texts = []
    for text in meld_texts:
        meld = _read_meld(text, r.problems)
        if meld is not None:
            melds.append(meld)
    if len(melds) > 4:
        r.problems.append(problem(_("最多四组副露。")))
        melds = melds[:4]
    dice = (2, 5)
    dice_text = r.text("dice")
    if dice_text is not None:
        if len(dice_text) == 2 and all(c in "123456" for c in dice_text):
            dice = tuple(sorted((int(dice_text[0]), int(dice_text[1]))))
        else:
            r.problems.append(
                problem(_("骰子应为两个 1–6 的数字（如 25），收到「{value}」。"), value=dice_text)
            )
    feeds = ((0,) * 4,) * 4
    feeds_text = r.text("feeds")
    if feeds_text is not None:
        feeds_text = feeds_text.replace(" ", "").replace("-", "")
    if feeds_text is not None:
        if len(feeds_text) == 16 and feeds_text.isascii() and feeds_text.isdigit():
            digits = [int(c) for c in feeds_text]
            feeds = tuple(tuple(digits[4 * a : 4 * a + 4]) for a in range(4))
        else:
            r.problems.append(problem(_("喂牌表应为 16 个数字，收到「{value}」。"), value=feeds_text))
    ready = tuple(str(s) in _getlist(query, "rd") for s in range(4))  # the form's checkboxes
    ready_text = r.text("ready")
    if ready_text is not None:
        if len(ready_text) == 4 and all(c in "01" for c in ready_text):
            ready = tuple(c == "1" for c in ready_text)
        else:
            r.problems.append(problem(_("听牌标记应为 4 个 0/1，收到「{value}」。"), value=ready_text))
    options = []
    for name, values in RULE_OPTIONS.items():
        value = r.choice(name, tuple(values), OPTION_DEFAULTS[name], name)
        if value != OPTION_DEFAULTS[name]:
            options.append((name, value))
    cap = _CAP_DEFAULT
    cap_text = r.text("cap")
    if cap_text in ("off", "0"):  # the form writes 0 for no cap, a link may say off
        cap = None
    elif cap_text is not None:
        cap = r.number("cap", 1, 100, _CAP_DEFAULT, CAP_LABEL)
    units = tuple(
        r.number(name, 0, 1000, default, name)
        for name, default in zip(_UNIT_PARAMS, _UNITS_DEFAULT, strict=True)
    )
    inp = HandInput(
        preset=preset,
        options=tuple(options),
        cap=cap,
        nine_bao=r.flag("qingyise_9_bao"),
        units=units,
        stake=stake,
        dealer=dealer,
        winner=winner,
        win=win,
        from_seat=from_seat if win in ("discard", "rob_kong") else None,
        hand=hand,
        tile=tile,
        melds=tuple(melds),
        flowers=flowers,
        dice=dice,
        huangfan=huangfan,
        feeds=feeds,
        ready=ready,
        last_tile=r.flag("last"),
        first_go_round=r.flag("first"),
        to=r.choice("to", TARGETS, "hand", TARGET_LABEL),
        meld_kind=r.choice("mk", MELD_KINDS, "pong", MELD_KIND_LABEL),
        meld_from=r.number("mf", 0, 3, None, MELD_FROM_LABEL),
    )
    try:
        check_counts_readable(inp.all_tiles())
    except InputError as exc:
        r.problems.append(exc.problem)
    return inp, r.problems


def _getlist(query: Mapping, name: str) -> list[str]:
    return query.getlist(name) if hasattr(query, "getlist") else _as_list(query.get(name))


def _as_list(value) -> list[str]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _read_meld(text: str, problems: list[str]) -> Meld | None:
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        problems.append(problem(_("副露写法不对。")))
        return None
    parts = text.split(":")
    if len(parts) not in (2, 3):
        problems.append(problem(_("副露「{meld}」应写成 种类:牌[:来源座位]，如 pong:777z:3。"), meld=text))
        return None
    kind, tiles = parts[0], parts[1]
    seat = None
    if len(parts) == 3 and kind != MeldKind.KONG_CONCEALED:
        if parts[2] not in ("0", "1", "2", "3"):
            problems.append(problem(_("副露「{meld}」的来源座位应为 0–3。"), meld=text))
            return None
        seat = int(parts[2])
    try:
        meld = Meld.of(kind, tiles, seat)
    except MeldError as exc:
        if kind == MeldKind.CHOW:
            problems.append(
                problem(_("吃「{tiles}」不成立：吃只能是同一花色的三张连续数牌（字牌不能吃）。"), tiles=tiles)
            )
        else:
            # xgettext:no-python-brace-format (the English shows the engine's words too)
            problems.append(problem(_("副露「{meld}」不成立。"), meld=text, detail=exc))
        return None
    return meld


def from_engine(ctx: WinContext, rules: Rules) -> HandInput:
    """The calculator's input for a win the engine scored (a finished hand of a game)."""
    options = tuple(
        (name, getattr(rules, name)) for name in RULE_OPTIONS if getattr(rules, name) != OPTION_DEFAULTS[name]
    )
    return HandInput(
        preset=rules.preset,
        options=options,
        cap=rules.hand_loss_cap_lezi,
        nine_bao=rules.qingyise_9_bao,
        units=(rules.base, rules.flower_point, rules.lezi),
        stake=ctx.stake,
        dealer=ctx.dealer,
        winner=ctx.winner,
        win=ctx.win,
        from_seat=ctx.from_seat,
        hand=tuple(ctx.concealed),
        tile=ctx.winning_tile,
        melds=tuple(Meld(m.kind, m.tiles, m.from_seat) for m in ctx.melds),
        flowers=tuple(ctx.flowers),
        dice=tuple(sorted(ctx.dice)),
        huangfan=ctx.huangfan,
        feeds=tuple(tuple(row) for row in ctx.feeds),
        ready=tuple(ctx.ready),
        last_tile=ctx.last_tile,
        first_go_round=ctx.first_go_round,
    )
