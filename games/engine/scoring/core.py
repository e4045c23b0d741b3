"""The shared core of scoring: the win's context, its score, the hand analysis every preset needs,
and settlement of a whole hand into payments (RULES.md §5-§7).

A preset module (`standard.py`, …) turns a `WinContext` into a `WinScore`; `settle` then turns the
hand's wins into four payments, applying who-pays, 承包 and the per-payer loss cap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..hand import is_standard_complete, splits
from ..kinds import MeldKind
from ..melds import Meld
from ..rules import Rules
from ..tiles import (
    FLOWER_BASE,
    N_CODES,
    N_KINDS,
    code_to_str,
    format_tiles,
    is_dragon,
    is_honour,
    is_wind,
    parse_tiles,
    to_counts,
)

WIN_KINDS = ("discard", "self_draw", "rob_kong", "kong_replacement", "flower_replacement", "eight_flowers")
SELF_DRAWN = frozenset({"self_draw", "kong_replacement", "flower_replacement", "eight_flowers"})
REPLACEMENT = frozenset({"kong_replacement", "flower_replacement"})
# The qualifying patterns in the order of the §5 table (八花齐 is a separate fixed hand).
PATTERNS = ("pengpeng", "hunyise", "qingyise", "hunpeng", "qingpeng", "fengyise", "fengpeng")
FEATURES = ("dadiaoche", "gangkai", "haidi", "huangfan", "kaibao", "menqing", "qianggang")

_ZERO_FEEDS = ((0, 0, 0, 0),) * 4


class ScoringError(ValueError):
    """A win context that cannot describe a real hand."""


def _seat(value: Any, what: str) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise ScoringError(f"{what} must be a seat 0-3; got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything scoring needs about one win; mirrors a scoring case of tests/engine/cases."""

    winner: int
    win: str
    concealed: tuple[int, ...]
    winning_tile: int | None
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()  # flower codes; in `home` also the dragon tiles set aside
    from_seat: int | None = None
    dealer: int = 0
    dice: tuple[int, int] = (2, 5)
    huangfan: int = 0
    stake: int = 1
    feeds: tuple[tuple[int, ...], ...] = _ZERO_FEEDS
    ready: tuple[bool, bool, bool, bool] = (False,) * 4
    last_tile: bool = False
    first_go_round: bool = False

    def __post_init__(self) -> None:
        _seat(self.winner, "winner")
        _seat(self.dealer, "dealer")
        if self.win not in WIN_KINDS:
            raise ScoringError(f"win must be one of {', '.join(WIN_KINDS)}; got {self.win!r}")
        if self.win in ("discard", "rob_kong"):
            _seat(self.from_seat, f"the {self.win} win's from seat")
            if self.from_seat == self.winner:
                raise ScoringError("a player cannot win on their own discard or kong")
        elif self.from_seat is not None:
            raise ScoringError(f"a {self.win} win has no from seat; got {self.from_seat!r}")
        if any(type(t) is not int or not 0 <= t < N_KINDS for t in self.concealed):
            raise ScoringError("concealed tiles must be suit or honour codes")
        if any(type(t) is not int or not (FLOWER_BASE <= t < N_CODES or is_dragon(t)) for t in self.flowers):
            raise ScoringError("flowers must be flower codes (or dragons, which are flowers in `home`)")
        real = [t for t in self.flowers if t >= FLOWER_BASE]
        if len(set(real)) != len(real):
            raise ScoringError("each flower exists once")
        if not all(isinstance(m, Meld) for m in self.melds):
            raise ScoringError("melds must be Meld values")
        if self.win == "eight_flowers":
            if self.winning_tile is not None:
                raise ScoringError("an eight-flowers win has no winning tile")
            size_ok = len(self.concealed) + 3 * len(self.melds) in (13, 14)
        else:
            if type(self.winning_tile) is not int or not 0 <= self.winning_tile < N_KINDS:
                raise ScoringError(f"winning tile must be a suit or honour code; got {self.winning_tile!r}")
            size_ok = len(self.concealed) + 3 * len(self.melds) == 13
        if not size_ok:
            raise ScoringError(
                f"hand size is wrong: {len(self.concealed)} concealed tiles and {len(self.melds)} melds"
            )
        copies = to_counts(self.all_tiles() + list(self.flowers))
        if max(copies) > 4:
            raise ScoringError(f"more than 4 copies of {code_to_str(copies.index(max(copies)))}")
        if len(self.dice) != 2 or any(type(d) is not int or not 1 <= d <= 6 for d in self.dice):
            raise ScoringError(f"dice must be two ints 1-6; got {self.dice!r}")
        if type(self.huangfan) is not int or self.huangfan < 0:
            raise ScoringError(f"huangfan must be a non-negative int; got {self.huangfan!r}")
        if type(self.stake) is not int or self.stake <= 0:
            raise ScoringError(f"stake must be a positive int; got {self.stake!r}")
        if len(self.feeds) != 4 or any(
            len(row) != 4 or any(type(x) is not int or x < 0 for x in row) for row in self.feeds
        ):
            raise ScoringError("feeds must be a 4x4 matrix of non-negative ints")
        if len(self.ready) != 4 or any(type(r) is not bool for r in self.ready):
            raise ScoringError("ready must be 4 booleans")

    def to_json(self) -> dict[str, Any]:
        """Tiles in notation; `from_json` reads it back (a stored hand keeps what its wins were)."""
        return {
            "winner": self.winner,
            "win": self.win,
            "concealed": format_tiles(self.concealed),
            "winning_tile": None if self.winning_tile is None else code_to_str(self.winning_tile),
            "melds": [m.to_json() for m in self.melds],
            "flowers": format_tiles(self.flowers),
            "from_seat": self.from_seat,
            "dealer": self.dealer,
            "dice": list(self.dice),
            "huangfan": self.huangfan,
            "stake": self.stake,
            "feeds": [list(row) for row in self.feeds],
            "ready": list(self.ready),
            "last_tile": self.last_tile,
            "first_go_round": self.first_go_round,
        }

    @classmethod
    def from_json(cls, d: Any) -> WinContext:
        """Inverse of `to_json`; anything malformed raises `ScoringError`."""
        if not isinstance(d, dict) or set(d) != _CONTEXT_KEYS:
            raise ScoringError(f"a win context needs exactly the keys {', '.join(sorted(_CONTEXT_KEYS))}")
        if type(d["last_tile"]) is not bool or type(d["first_go_round"]) is not bool:
            raise ScoringError("last_tile and first_go_round must be true or false")
        try:
            tile = d["winning_tile"]
            return cls(
                winner=d["winner"],
                win=d["win"],
                concealed=tuple(parse_tiles(d["concealed"])),
                winning_tile=None if tile is None else parse_tiles(tile)[0],
                melds=tuple(Meld.from_json(m) for m in d["melds"]),
                flowers=tuple(parse_tiles(d["flowers"])),
                from_seat=d["from_seat"],
                dealer=d["dealer"],
                dice=tuple(d["dice"]),
                huangfan=d["huangfan"],
                stake=d["stake"],
                feeds=tuple(tuple(row) for row in d["feeds"]),
                ready=tuple(d["ready"]),
                last_tile=d["last_tile"],
                first_go_round=d["first_go_round"],
            )
        except ScoringError:
            raise
        except (ValueError, TypeError, IndexError, AttributeError) as exc:  # notation, meld or shape errors
            raise ScoringError(f"a win context cannot be read: {exc}") from exc

    def all_tiles(self) -> list[int]:
        """Concealed tiles, winning tile and meld tiles (no flowers)."""
        tiles = list(self.concealed)
        if self.winning_tile is not None:
            tiles.append(self.winning_tile)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tiles

    def concealed_counts(self) -> list[int]:
        """Counts of the concealed part including the winning tile."""
        tiles = list(self.concealed)
        if self.winning_tile is not None:
            tiles.append(self.winning_tile)
        return to_counts(tiles)


_CONTEXT_KEYS = frozenset(WinContext.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class WinScore:
    seat: int
    win: str
    from_seat: int | None
    legal: bool
    pattern: str | None
    features: tuple[str, ...]
    hua: int
    value: int

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "win": self.win,
            "from_seat": self.from_seat,
            "legal": self.legal,
            "pattern": self.pattern,
            "features": list(self.features),
            "hua": self.hua,
            "value": self.value,
        }


# --- hand analysis shared by the presets ---------------------------------------------------------


FLOWER_HUA = 1  # each flower tile


def meld_hua(meld: Meld) -> int:
    """The 花 of one declared meld (§6): honour pongs and kongs, suit kongs; chows and suit pongs none."""
    if meld.kind == MeldKind.CHOW:
        return 0
    tile = meld.tiles[0]
    concealed = meld.kind == MeldKind.KONG_CONCEALED
    if is_dragon(tile):
        return (4 if concealed else 3) if meld.is_kong else 2
    if is_wind(tile):
        return (3 if concealed else 2) if meld.is_kong else 1
    if meld.is_kong:
        return 2 if concealed else 1
    return 0


def triplet_hua(tile: int) -> int:
    """The 花 of an honour triplet held in the hand (it counts as a pong); suit triplets score none."""
    if not is_honour(tile):
        return 0
    return 2 if is_dragon(tile) else 1


def hua_of(counts: Sequence[int], melds: Sequence[Meld], flowers: Sequence[int]) -> int:
    """The 花 count of §6: flowers, kongs, and honour pongs (a concealed triplet counts as a pong)."""
    hua = FLOWER_HUA * len(flowers)
    for meld in melds:
        hua += meld_hua(meld)
    for tile in range(27, N_KINDS):
        if counts[tile] >= 3:
            hua += triplet_hua(tile)
    return hua


def colour(counts: Sequence[int], melds: Sequence[Meld]) -> tuple[int, bool]:
    """(number of suits present, whether honours are present) over the whole hand."""
    suits = {t // 9 for t in range(27) if counts[t]}
    honours = any(counts[27:N_KINDS])
    for meld in melds:
        tile = meld.tiles[0]
        if is_honour(tile):
            honours = True
        else:
            suits.add(tile // 9)
    return len(suits), honours


def pattern_of(n_suits: int, honours: bool, pengpeng: bool) -> str | None:
    """The qualifying pattern of a standard-complete reading, or None for a plain hand."""
    if n_suits == 0:
        return "fengpeng" if pengpeng else "fengyise"
    if n_suits == 1:
        if honours:
            return "hunpeng" if pengpeng else "hunyise"
        return "qingpeng" if pengpeng else "qingyise"
    return "pengpeng" if pengpeng else None


def candidate_patterns(counts: Sequence[int], melds: Sequence[Meld]) -> list[str]:
    """Every pattern some reading of the hand qualifies for (empty: the hand does not win).

    Only 碰碰胡 depends on how the concealed tiles are split, so the readings reduce to "some split is
    all pongs" and "some split has a chow"; an all-honours hand with no split is 风一色 (乱风向).
    """
    n_suits, honours = colour(counts, melds)
    melds_pong = all(m.kind != MeldKind.CHOW for m in melds)
    readings = {melds_pong and all(kind == MeldKind.PONG for kind, _ in sets) for sets, _ in splits(counts)}
    out = []
    for pengpeng in sorted(readings):
        pattern = pattern_of(n_suits, honours, pengpeng)
        if pattern is not None:
            out.append(pattern)
    if not readings and n_suits == 0 and sum(counts) % 3 == 2:
        out.append("fengyise")
    return out


def flower_tile_basics(ctx: WinContext) -> tuple[list[int], int, list[str]]:
    """Concealed counts, 花 and the qualifying patterns of a win, for the presets whose flowers are
    the eight flower tiles (`standard`, `lazi`); 八花齐 is the only pattern of an `eight_flowers` win."""
    if any(t < FLOWER_BASE for t in ctx.flowers):
        raise ScoringError("dragons are flowers only in the home preset")
    counts = ctx.concealed_counts()
    hua = hua_of(counts, ctx.melds, ctx.flowers)
    if ctx.win == "eight_flowers":
        return counts, hua, ["bahua"] if len(ctx.flowers) == 8 else []
    return counts, hua, candidate_patterns(counts, ctx.melds)


def refusal(ctx: WinContext, counts: Sequence[int]) -> str:
    """Why a `standard` / `lazi` win is refused (see `workings.Workings.refused`)."""
    if ctx.win == "eight_flowers":
        return "eight_flowers"
    return "plain" if is_standard_complete(counts) else "incomplete"


def _pengpeng_possible(counts: Sequence[int]) -> bool:
    pairs = 0
    for c in counts:
        if c == 2:
            pairs += 1
        elif c == 1 or c == 4:
            return False
    return pairs == 1


def qualifies(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """Complete and one of the §5 patterns (standard and lazi); the fast path for the turn machine."""
    if sum(counts) % 3 != 2:
        return False
    n_suits, _ = colour(counts, melds)
    if n_suits == 0:
        return True  # all honours: 风一色 in any arrangement, 风碰 when split into pongs
    if not is_standard_complete(counts):
        return False
    if n_suits == 1:
        return True
    return all(m.kind != MeldKind.CHOW for m in melds) and _pengpeng_possible(counts)


def kaibao(dice: tuple[int, int]) -> bool:
    """开宝: the hand's dice are a double, or 1 and 4."""
    return dice[0] == dice[1] or sorted(dice) == [1, 4]


def menqing(melds: Sequence[Meld]) -> bool:
    return not any(m.is_exposed for m in melds)


def dadiaoche(ctx: WinContext) -> bool:
    """大吊车: every other set declared, one tile held, and the win on its pair."""
    return len(ctx.concealed) == 1 and ctx.winning_tile == ctx.concealed[0]


# --- settlement ----------------------------------------------------------------------------------


def partners_of(winner: int, feeds: Sequence[Sequence[int]]) -> dict[int, int]:
    """承包 partners of the winner with their multiplicity (2 when both directions reach 3 feeds)."""
    out = {}
    for other in range(4):
        if other != winner:
            times = (feeds[winner][other] >= 3) + (feeds[other][winner] >= 3)
            if times:
                out[other] = times
    return out


def nine_down(melds: Sequence[Meld]) -> bool:
    """清一色九张落地 (§11 `qingyise_9_bao`): the shown melds (chow, pong, exposed or added kong;
    concealed kongs do not count) include three of one suit."""
    per_suit = [0, 0, 0]
    for meld in melds:
        tile = meld.tiles[0]
        if meld.kind != MeldKind.KONG_CONCEALED and tile < 27:
            per_suit[tile // 9] += 1
    return max(per_suit) >= 3


def _ordinary(ctx: WinContext, rules: Rules, co_winners: Sequence[int] = ()) -> tuple[str, dict[int, int]]:
    """(reason, shares per payer) without 承包; the reason names the rule that set the shares.

    The discard-win options `qingyise_9_bao` and `payment` are `standard`'s only (§11): in `lazi` and
    `home` the discarder alone pays, whatever the room's options say. Under 出冲 the seats that won on
    the same discard (`co_winners`) pay this winner nothing (§11)."""
    if ctx.win == "rob_kong":
        return "rob_kong", {ctx.from_seat: 3}  # §7, §8, §9: the konger pays for all three
    if ctx.win in SELF_DRAWN:
        return "self_draw", {s: 1 for s in range(4) if s != ctx.winner}
    if rules.preset != "standard":
        return "discard", {ctx.from_seat: 1}
    if rules.qingyise_9_bao and nine_down(ctx.melds):
        return "qingyise_9_bao", {ctx.from_seat: 3}
    if rules.payment == "chu_chong":
        others = [s for s in range(4) if s != ctx.winner and s not in co_winners]
        return "chu_chong", {s: 2 if s == ctx.from_seat else 1 for s in others}
    if rules.payment == "bao_chong":
        return "bao_chong", {ctx.from_seat: 3}
    return "discard", {ctx.from_seat: 1}


def _chengbao_shares(ctx: WinContext, partner: int, times: int, co_winner: bool) -> dict[int, int]:
    """Shares owed under 承包 (§7) for one partner; `co_winner`: the partner won on the same discard,
    or robbed the same kong. Winners never pay each other."""
    d = ctx.from_seat
    if co_winner and ctx.win == "rob_kong":
        return {d: 3 * times}  # §7: the konger pays each robber 3 shares
    if co_winner:
        return {d: (1 if ctx.ready[d] else 2) * times}
    if ctx.win == "rob_kong":
        # §7: the konger's 3 shares belong to this settlement too, so a twice partner doubles them.
        if partner == d:
            return {d: 3 * times}
        return {d: 3 * times, partner: 3 * times}
    if ctx.win in SELF_DRAWN:
        return {partner: 5 * times}
    if partner == d:
        return {d: 2 * times}
    if not ctx.ready[d]:
        return {d: 2 * times}
    return {d: times, partner: times}


def shares_for(ctx: WinContext, rules: Rules, co_winners: Sequence[int] = ()) -> dict[int, int]:
    """Who pays how many shares for one win.

    With several partners each is settled as §7 says and, where two of those settlements ask the
    same seat to pay, that seat pays the larger amount once (a discarder or konger is not charged
    again for every partner). `co_winners` are the other seats that won on the same discard or
    robbed the same kong.
    """
    return _shares_and_reason(ctx, rules, co_winners)[1]


def _shares_and_reason(
    ctx: WinContext, rules: Rules, co_winners: Sequence[int] = ()
) -> tuple[str, dict[int, int]]:
    partners = partners_of(ctx.winner, ctx.feeds)
    if not partners:
        return _ordinary(ctx, rules, co_winners)
    owed: dict[int, int] = {}
    for partner, times in partners.items():
        part = _chengbao_shares(ctx, partner, times, partner in co_winners)
        for seat, n in part.items():
            owed[seat] = max(owed.get(seat, 0), n)
    return "chengbao", owed


# Per preset: (承包 applies, the loss cap applies). `lazi` (§8) has neither; `home` (§9) caps each
# payment at 20 inside the value instead.
SETTLEMENT = {"standard": (True, True), "lazi": (False, False), "home": (False, False)}


@dataclass(frozen=True, slots=True)
class Settlement:
    """How one win was settled, for the result screen: the rule that set the shares (`reason`: discard,
    chu_chong, bao_chong, qingyise_9_bao, self_draw, rob_kong or chengbao), the shares each seat owes
    the winner, and one share's value (the stake included). The loss cap is applied after this."""

    winner: int
    reason: str
    shares: tuple[int, int, int, int]
    value: int

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "shares": list(self.shares),
            "value": self.value,
        }


def explain(wins: Sequence[tuple[WinContext, WinScore]], rules: Rules) -> list[Settlement]:
    """One `Settlement` per legal win of the hand (several for 一炮多响)."""
    chengbao = SETTLEMENT[rules.preset][0]
    legal = [(ctx, score) for ctx, score in wins if score.legal]
    # 一炮多响 and two robbers of one kong: the winners on the same tile from the same seat
    shared: dict[tuple[str, int], list[int]] = {}
    for ctx, _ in legal:
        if ctx.win in ("discard", "rob_kong"):
            shared.setdefault((ctx.win, ctx.from_seat), []).append(ctx.winner)
    out = []
    for ctx, score in legal:
        co = [w for w in shared.get((ctx.win, ctx.from_seat), []) if w != ctx.winner]
        reason, shares = _shares_and_reason(ctx, rules, co) if chengbao else _ordinary(ctx, rules, co)
        row = tuple(shares.get(s, 0) if s != ctx.winner else 0 for s in range(4))
        out.append(Settlement(ctx.winner, reason, row, score.value))
    return out


Transfer = tuple[int, int, int]  # (payer, creditor, amount): money handed from one seat to another


def transfers(wins: Sequence[tuple[WinContext, WinScore]], rules: Rules) -> list[Transfer]:
    """What each payer hands each winner for the hand's wins, in the order it is paid.

    Each legal win is settled on its own (`explain`: shares × its value, the stake already in the
    value). A payer's debts are paid creditor by creditor in turn order from the payer's 下家, each in
    full before the next, and the loss cap stops the payer where it runs out (§7 Shortfall); money
    is never pooled. The list is in that order (payers by seat), so that whoever applies a further
    limit, 逛花园's stacks, can cut each payer's list where its stack runs out.
    """
    capped = SETTLEMENT[rules.preset][1]
    debts: dict[int, dict[int, int]] = {s: {} for s in range(4)}
    stake = next((ctx.stake for ctx, score in wins if score.legal), 1)
    for item in explain(wins, rules):
        for payer, n in enumerate(item.shares):
            if n:
                debts[payer][item.winner] = debts[payer].get(item.winner, 0) + n * item.value
    cap = (
        None
        if rules.hand_loss_cap_lezi is None or not capped
        else rules.hand_loss_cap_lezi * rules.lezi * stake
    )
    out: list[Transfer] = []
    for payer, owed in debts.items():
        left = cap
        for winner in sorted(owed, key=lambda w: (w - payer) % 4):
            amount = owed[winner] if left is None else min(owed[winner], left)
            if left is not None:
                left -= amount
            if amount:
                out.append((payer, winner, amount))
    return out


def net(moves: Sequence[Transfer]) -> list[int]:
    """Each seat's gain (+) or loss (−) from a list of transfers: four ints summing to zero."""
    payments = [0, 0, 0, 0]
    for payer, creditor, amount in moves:
        payments[payer] -= amount
        payments[creditor] += amount
    return payments


def settle(wins: Sequence[tuple[WinContext, WinScore]], rules: Rules) -> list[int]:
    """Payments of the whole hand: four ints summing to zero (the net of `transfers`)."""
    return net(transfers(wins, rules))
