"""`GameState`: one hand of Shanghai Mahjong — the turn machine of RULES.md §2–§4.

Concealed tiles live in 34-count arrays (`counts[seat]`), flowers apart; melds, rivers and the
wall are plain lists. `legal_actions` is cached until the next `apply`, and `apply` validates an
action by membership in that list before it touches anything, so a refused action leaves the
state exactly as it was. Scoring is not done here: a win builds a `WinContext` per winner and
calls `score_win` / `settle`.

Serialisation is a replay: `to_json` stores how the hand began (seed, or the hand-built setup of
`from_setup`) and the action log; `from_json` folds `apply` over it, which reproduces the state
exactly because everything else is derived from the seed.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from .actions import CLAIM_KINDS, TURN_KINDS, Action, Event, RuleError
from .hand import group_state, is_complete, may_wait_after
from .kinds import ActionKind, MeldKind, Phase, ResultKind
from .melds import Meld
from .result import HandResult, next_dealer, next_huangfan
from .rules import Rules
from .scoring import WinContext, explain, is_legal_win, net, score_win, transfers, winning_tiles
from .scoring.home import gengfeng_transfers, is_gengfeng
from .scoring.lazi import dice_huangfan
from .tiles import (
    DRAGONS,
    FLOWER_BASE,
    N_CODES,
    N_FLOWERS,
    N_KINDS,
    WINDS,
    NotationError,
    check_counts,
    code_to_str,
    format_tiles,
    parse_tiles,
)
from .view import Discard, HandView, MeldFace, PublicView, SeatPublic, SwapState
from .wall import SeedError, Wall, check_seed, commitment, new_seed, roll_dice, shuffled_wall

SELF_DRAWN = ("self_draw", "kong_replacement", "flower_replacement", "eight_flowers")
SWAP_COUNT = 5  # 换牌 (§10): exactly five tiles buried and five drawn


class RiverTile:
    """One discard; `claimed` is set when someone chowed, ponged or konged it."""

    __slots__ = ("tile", "claimed")

    def __init__(self, tile: int, claimed: bool = False) -> None:
        self.tile = tile
        self.claimed = claimed

    def to_json(self) -> dict:
        return {"tile": code_to_str(self.tile), "claimed": self.claimed}


def _meld_face(meld: Meld, open_: bool) -> MeldFace:
    """A meld as a viewer sees it: a concealed kong (暗杠) lies face down, only its size shown, until
    the hand ends (摊牌, rules §4), except to its owner (`open_`)."""
    kind = MeldKind(meld.kind)
    if kind is MeldKind.KONG_CONCEALED and not open_:
        return MeldFace(kind, face_down=len(meld.tiles))
    return MeldFace(
        kind,
        tuple(code_to_str(c) for c in meld.tiles),
        meld.from_seat,
        None if meld.claimed is None else code_to_str(meld.claimed),
    )


def _tiles_json(codes) -> list[str]:
    return [code_to_str(c) for c in codes]


_NEIGHBOURS = tuple(
    tuple(t - t % 9 + r for r in range(max(0, t % 9 - 2), min(8, t % 9 + 2) + 1)) if t < 27 else ()
    for t in range(N_KINDS)
)
_GROUP = tuple(t // 9 if t < 27 else 3 for t in range(N_KINDS))  # m, p, s, honours
_GROUP_SLICE = (slice(0, 9), slice(9, 18), slice(18, 27), slice(27, 34))
_DISCARDS = tuple(tuple(Action.of(ActionKind.DISCARD, seat, t) for t in range(N_KINDS)) for seat in range(4))


def _has_neighbour(counts: list[int], tile: int) -> bool:
    """A suit tile within two ranks of `tile` is held (the tile itself included)."""
    return any(counts[t] for t in _NEIGHBOURS[tile])


def _shape(counts: list[int]) -> tuple[tuple[int, ...], bool]:
    """For a hand one tile short (3k + 1): the tile groups (0 m, 1 p, 2 s, 3 honours) whose extra
    tile could leave every group at 3k but one at 3k + 2; and whether the hand is honours only.

    The group residues sum to 1 (mod 3), so only two shapes can ever complete: one group at 1 (the
    tile must go there) or two groups at 2 (either of them)."""
    honours = sum(counts[27:34])
    sums = (sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27]), honours)
    odd = [g for g in range(4) if sums[g] % 3]
    if len(odd) == 1 and sums[odd[0]] % 3 == 1:
        groups: tuple[int, ...] = (odd[0],)
    elif len(odd) == 2 and sums[odd[0]] % 3 == 2 and sums[odd[1]] % 3 == 2:
        groups = (odd[0], odd[1])
    else:
        groups = ()
    return groups, sums[0] + sums[1] + sums[2] == 0


def _counts_to_tiles(counts: list[int]) -> list[int]:
    out: list[int] = []
    for code in range(N_KINDS):
        n = counts[code]
        if n:
            out.extend([code] * n)
    return out


class GameState:
    """One hand. Build with `new` (shuffled from a seed) or `from_setup` (hands written by hand)."""

    # ------------------------------------------------------------------ construction

    def __init__(self) -> None:  # use new / from_setup / from_json
        self.actions: list[Action] = []

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        dealer: int = 0,
        huangfan: int = 0,
        stake: int = 1,
        seed: str | None = None,
        gengfeng: int = 0,
    ) -> GameState:
        """`gengfeng`: how many 跟风 the match has had before this hand (`home`, §9)."""
        try:
            seed = new_seed() if seed is None else check_seed(seed)
        except SeedError as exc:
            raise RuleError("bad_action", str(exc)) from None
        state = cls()
        state._setup = None
        state._begin(
            rules or Rules(), dealer, huangfan, stake, seed, shuffled_wall(seed), roll_dice(seed), gengfeng
        )
        held = [[] for _ in range(4)]
        order = [(dealer + i) % 4 for i in range(4)]
        for seat in order:
            held[seat] = [state._wall.draw_head() for _ in range(13)]
        held[dealer].append(state._wall.draw_head())
        state._deal(held)
        return state

    @classmethod
    def from_setup(
        cls,
        hands: list[str],
        wall: str,
        dealer: int = 0,
        rules: Rules | None = None,
        huangfan: int = 0,
        stake: int = 1,
        dice: tuple[int, int] = (2, 5),
        seed: str = "0" * 64,
        gengfeng: int = 0,
    ) -> GameState:
        """A hand from notation (for tests and puzzles): `hands[seat]` as dealt (the dealer's 14,
        flowers allowed — they are replaced at the deal), `wall` in head-to-tail order."""
        try:
            held = [parse_tiles(h) for h in hands]
            wall_tiles = parse_tiles(wall)
        except NotationError as exc:
            raise RuleError("bad_action", f"bad setup: {exc}") from None
        if len(held) != 4:
            raise RuleError("bad_action", "a setup needs four hands")
        for seat, tiles in enumerate(held):
            want = 14 if seat == dealer else 13
            if len(tiles) != want:
                raise RuleError("bad_action", f"seat {seat} needs {want} tiles, has {len(tiles)}")
        try:
            check_counts([t for h in held for t in h] + wall_tiles)
        except NotationError as exc:
            raise RuleError("bad_action", f"bad setup: {exc}") from None
        state = cls()
        state._setup = {"hands": list(hands), "wall": wall, "dice": list(dice)}
        try:
            seed = check_seed(seed)
        except SeedError as exc:
            raise RuleError("bad_action", str(exc)) from None
        if not (
            isinstance(dice, list | tuple)
            and len(dice) == 2
            and all(type(d) is int and 1 <= d <= 6 for d in dice)
        ):
            raise RuleError("bad_action", "dice are two integers 1–6")
        state._begin(rules or Rules(), dealer, huangfan, stake, seed, wall_tiles, tuple(dice), gengfeng)
        state._deal(held)
        return state

    def _begin(self, rules, dealer, huangfan, stake, seed, wall_tiles, dice, gengfeng=0) -> None:
        if type(dealer) is not int or not 0 <= dealer < 4:
            raise RuleError("bad_action", "dealer must be a seat 0–3")
        if type(huangfan) is not int or huangfan < 0 or type(stake) is not int or stake < 1:
            raise RuleError("bad_action", "huangfan must be ≥ 0 and stake ≥ 1 (integers)")
        if type(gengfeng) is not int or gengfeng < 0:
            raise RuleError("bad_action", "gengfeng must be an integer ≥ 0")
        self.gengfeng = gengfeng
        self._gengfeng_paid = 0  # n when this hand's first four discards were a 跟风 (home, §9)
        self.rules = rules
        self._complete_first = rules.preset != "home"
        # `home`: the dragons are flowers too (§9): set aside and replaced like them
        self._flowerish = tuple(
            t >= FLOWER_BASE or (rules.preset == "home" and t in DRAGONS) for t in range(N_CODES)
        )
        self.dealer = dealer
        self.huangfan = huangfan
        # §8: in `lazi` the dice bonus joins the count for this hand and stays in it
        self.huangfan_in_play = huangfan + (dice_huangfan(dice) if rules.preset == "lazi" else 0)
        self.stake = stake
        self.seed = seed
        self.dice = dice
        self.wall_tiles = tuple(wall_tiles)
        self._commitment: str | None = None
        self._wall = Wall(list(wall_tiles))
        self.counts = [[0] * N_KINDS for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.rivers: list[list[RiverTile]] = [[] for _ in range(4)]
        self.feeds = [[0] * 4 for _ in range(4)]
        self.missed: list[set[int]] = [set() for _ in range(4)]
        self.phase = Phase.TURN
        self.current_seat = dealer
        self.drawn_tile: int | None = None
        self.last_discard: int | None = None
        self.result: HandResult | None = None
        self._last_in = [None] * 4  # the tile that last entered each hand (a win tile for 天胡)
        self._draw_kind: str | None = None  # "kong_replacement" / "flower_replacement" after such draws
        self._must_discard = False  # after a chow or pong
        self._claimed_any = False  # any chow / pong / kong so far (first go-round)
        self._n_discards = 0
        self._waits: list[list[int] | None] = [None] * 4
        self._shapes: list[tuple[tuple[int, ...], bool] | None] = [None] * 4
        self._win_memo: list[dict[int, bool]] = [{} for _ in range(4)]
        self._options: dict[int, list[Action]] = {}
        self._answers: dict[int, Action] = {}
        self._claim_tile: int | None = None
        self._rob_meld: int | None = None
        self._legal: dict[int, list[Action]] = {}
        self.declared = [False] * 4  # 敲 (`declare_ready`): public
        self._declaring = rules.declare_ready
        self.buried: list[list[int]] = [[] for _ in range(4)]  # 换牌: tiles each seat buried (private)
        self._swap_done = [False] * 4
        # The web table's uniform claim pause (see `hold_discards`): off for the engine's own uses.
        self.hold_discards = False

    def _deal(self, held: list[list[int]]) -> None:
        """§2: dealer first, in turn order, each seat replaces its flowers from the tail until none."""
        order = [(self.dealer + i) % 4 for i in range(4)]
        changed = True
        while changed:
            changed = False
            for seat in order:
                flowerish = self._flowerish
                found = [t for t in held[seat] if flowerish[t]]
                if not found:
                    continue
                changed = True
                self.flowers[seat].extend(found)
                held[seat] = [t for t in held[seat] if not flowerish[t]]
                for _ in found:
                    if self._wall.empty:
                        self._fill(held)
                        self._end_draw()
                        return
                    held[seat].append(self._wall.draw_tail())
        self._fill(held)
        if self.rules.swap_tiles:
            self.phase = Phase.SWAP  # §10 换牌: the eight-flowers check waits for the window to close
            return
        self._check_deal_eight_flowers()

    def _check_deal_eight_flowers(self) -> None:
        for seat in [(self.dealer + i) % 4 for i in range(4)]:
            if self._eight_flowers(seat):
                self._end_win([seat], "eight_flowers", None, None)
                return

    def _eight_flowers(self, seat: int) -> bool:
        return sum(1 for t in self.flowers[seat] if t >= FLOWER_BASE) == N_FLOWERS

    def _fill(self, held: list[list[int]]) -> None:
        for seat in range(4):
            for tile in held[seat]:
                if not self._flowerish[tile]:
                    self.counts[seat][tile] += 1
            if held[seat]:
                self._last_in[seat] = held[seat][-1]

    # ------------------------------------------------------------------ public reads

    @property
    def commitment(self) -> str:
        """sha256(seed + ":" + wall notation): public from the start (computed on first use)."""
        if self._commitment is None:
            self._commitment = commitment(self.seed, list(self.wall_tiles))
        return self._commitment

    @property
    def hands(self) -> list[list[int]]:
        """Each seat's concealed tiles (sorted codes, the drawn tile included). Engine-side only."""
        return [_counts_to_tiles(c) for c in self.counts]

    @property
    def wall_remaining(self) -> int:
        return self._wall.remaining

    @property
    def held(self) -> bool:
        """A discard waits in a claim window nobody is asked to answer (`hold_discards`)."""
        return self.phase == Phase.CLAIMS and not self._options

    def release(self) -> list[Event]:
        """Close a held window: the next seat draws, as it would have straight after the discard.

        `hold_discards` makes every discard open a claim window, so that a seat that cannot claim
        sees the same thing after every discard whether or not another seat could; when nobody can
        claim, or everybody passed, the window is *held* (`held`, nobody pending) until the caller
        releases it after its pause. A release is not an action: the log replays to the same hand
        with or without holding, and a held window only decides when the next draw comes."""
        if not self.held:
            raise RuleError("illegal_action", "no held claim window to release")
        events: list[Event] = []
        self._legal = {}
        self._next_turn((self.current_seat + 1) % 4, events)
        return events

    def _hold(self, tile: int) -> None:
        self.phase = Phase.CLAIMS
        self._options = {}
        self._answers = {}
        self._claim_tile = tile

    def pending_seats(self) -> list[int]:
        if self.phase == Phase.TURN:
            return [self.current_seat]
        if self.phase == Phase.SWAP:
            order = [(self.dealer + i) % 4 for i in range(4)]
            return [s for s in order if not self._swap_done[s]]
        if self.phase in (Phase.CLAIMS, Phase.ROB):
            return [s for s in self._options if s not in self._answers]
        return []

    def winning_tiles(self, seat: int) -> list[int]:
        """听牌 hints: tiles that would give `seat` a legal win (only for a 13-style hand)."""
        w = self._waits[seat]
        if w is None:
            c = self.counts[seat]
            w = winning_tiles(c, self.melds[seat], self.rules) if sum(c) % 3 == 1 else []
            self._waits[seat] = w
        return list(w)

    def _can_win_on(self, seat: int, tile: int) -> bool:
        """Would `tile` give `seat` a legal win? Memoised until the seat's hand changes.

        Except under `home` (seven pairs), cheap necessary tests come first: sets and a pair need
        every tile group (m, p, s, honours) to hold a multiple of three tiles but one, which holds
        3k + 2; and unless the concealed tiles are all honours (乱风向 wins in any arrangement), the
        tile must pair with a held copy or sit within two ranks of a held suit tile.
        """
        memo = self._win_memo[seat]
        ok = memo.get(tile)
        if ok is None:
            c = self.counts[seat]
            ok = False
            if self._complete_first:
                shape = self._shapes[seat]
                if shape is None:
                    shape = self._shapes[seat] = _shape(c)
                groups, all_honours = shape
                maybe = (tile // 9 if tile < 27 else 3) in groups and (
                    all_honours or c[tile] or (tile < 27 and _has_neighbour(c, tile))
                )
            else:
                maybe = True
            if maybe:
                c[tile] += 1
                try:
                    ok = self._legal_win(c, seat)
                finally:
                    c[tile] -= 1
            memo[tile] = ok
        return ok

    def _legal_win(self, counts: list[int], seat: int) -> bool:
        """`is_legal_win`, behind the table-driven completeness test wherever that is necessary
        (every preset but `home`, whose seven pairs are not sets-and-a-pair)."""
        if self._complete_first and not is_complete(counts):
            return False
        return is_legal_win(counts, self.melds[seat], self.rules)

    def _hand_changed(self, seat: int) -> None:
        self._waits[seat] = None
        self._shapes[seat] = None
        self._win_memo[seat] = {}

    # ------------------------------------------------------------------ legality

    def legal_actions(self, seat: int) -> list[Action]:
        cached = self._legal.get(seat)
        if cached is None:
            cached = self._compute_legal(seat)
            self._legal[seat] = cached
        return list(cached)

    def _compute_legal(self, seat: int) -> list[Action]:
        if self.phase == Phase.TURN:
            return self._turn_actions(seat) if seat == self.current_seat else []
        if self.phase in (Phase.CLAIMS, Phase.ROB):
            return [] if seat in self._answers else self._options.get(seat, [])
        if self.phase == Phase.SWAP:
            return self._swap_actions(seat)
        return []

    def _swap_actions(self, seat: int) -> list[Action]:
        """换牌 (§10): bury one tile at a time (the fifth draws five from the wall), or skip before
        burying any."""
        if self._swap_done[seat]:
            return []
        acts = [Action.of(ActionKind.BURY, seat, t) for t in range(N_KINDS) if self.counts[seat][t]]
        if not self.buried[seat]:
            acts.append(Action.of(ActionKind.SKIP, seat))
        return acts

    def _may_win(self, seat: int) -> bool:
        """敲 (`declare_ready`): only a declared seat may win (八花齐 is automatic and not asked)."""
        return self.declared[seat] or not self.rules.declare_ready

    def _declares(self, seat: int) -> list[Action]:
        """The discards that leave the hand ready (a `declare` each) under `declare_ready`."""
        if not self.rules.declare_ready or self.declared[seat]:
            return []
        c = self.counts[seat]
        melds = self.melds[seat]
        # Sets and a pair: only the tile group (m, p, s, honours) a discard comes from changes, so each
        # group's state is found once and `may_wait_after` rules out most discards before any wait is
        # looked for. An all-honours hand (乱风向) and seven pairs (`home`, no melds) wait otherwise.
        groups = [c[part] for part in _GROUP_SLICE]
        states = [group_state(g, i == 3) for i, g in enumerate(groups)]
        residues = [sum(g) % 3 for g in groups]
        honours_only = not any(c[0:27])
        # A group a discard does not come from keeps its state: one at 3k that is not whole as sets
        # rules out every discard from the other groups.
        broken = [g for g in range(4) if residues[g] == 0 and states[g] != 0]
        # Seven pairs: the 13 tiles hold exactly one tile an odd number of times.
        odd = sum(n & 1 for n in c) if self.rules.preset == "home" and not melds else -1
        if len(broken) > 1 and odd not in (0, 2) and not honours_only:
            return []
        out = []
        for tile in compress(range(N_KINDS), c):
            group = _GROUP[tile]
            pairs = odd == (2 if c[tile] & 1 else 0)
            if not (pairs or honours_only) and (len(broken) > 1 or (broken and broken[0] != group)):
                continue
            was_state, was_residue = states[group], residues[group]
            c[tile] -= 1
            try:
                states[group] = group_state(c[_GROUP_SLICE[group]], group == 3)
                residues[group] = (was_residue - 1) % 3
                shaped = honours_only or may_wait_after(states, residues)
                if (shaped or pairs) and winning_tiles(c, melds, self.rules):
                    out.append(Action.of(ActionKind.DECLARE, seat, tile))
            finally:
                c[tile] += 1
                states[group], residues[group] = was_state, was_residue
        return out

    def _turn_actions(self, seat: int) -> list[Action]:
        c = self.counts[seat]
        of = Action.of
        discards = list(compress(_DISCARDS[seat], c))
        if self.declared[seat] and self.drawn_tile is not None:
            # 敲: a declared seat wins on its drawn tile or discards it; nothing else
            acts = [of(ActionKind.SELF_WIN, seat)] if self._legal_win(c, seat) else []
            return acts + [_DISCARDS[seat][self.drawn_tile]]
        if self._must_discard:
            return discards + self._declares(seat) if self._declaring else discards
        acts: list[Action] = []
        if self._may_win(seat) and self._legal_win(c, seat):
            acts.append(of(ActionKind.SELF_WIN, seat))
        if 4 in c:
            acts.extend(of(ActionKind.CONCEALED_KONG, seat, a.tile) for a in discards if c[a.tile] == 4)
        for meld in self.melds[seat]:
            if meld.kind == MeldKind.PONG and c[meld.tiles[0]]:
                acts.append(of(ActionKind.ADDED_KONG, seat, meld.tiles[0]))
        acts.extend(discards)
        if self._declaring:
            acts.extend(self._declares(seat))
        return acts

    def _claim_options(self, seat: int, tile: int, discarder: int) -> list[Action]:
        acts: list[Action] = []
        may_win = not self._declaring or self.declared[seat]  # 敲: only a declared seat wins
        if may_win and tile not in self.missed[seat] and self._can_win_on(seat, tile):
            acts.append(Action.of(ActionKind.WIN, seat, tile))
        if self._declaring and self.declared[seat]:  # 敲: no chow, pong or kong once declared
            return acts + [Action.of(ActionKind.PASS, seat)] if acts else acts
        n = self.counts[seat][tile]
        if n >= 2:
            acts.append(Action.of(ActionKind.PONG, seat, tile))
            if n == 3:
                acts.append(Action.of(ActionKind.EXPOSED_KONG, seat, tile))
        if seat == (discarder + 1) % 4 and tile < 27:
            # The three runs through the tile, lowest first, each inside the suit.
            c = self.counts[seat]
            rank = tile % 9
            if rank >= 2 and c[tile - 2] and c[tile - 1]:
                acts.append(Action.of(ActionKind.CHOW, seat, tile - 2))
            if 1 <= rank <= 7 and c[tile - 1] and c[tile + 1]:
                acts.append(Action.of(ActionKind.CHOW, seat, tile - 1))
            if rank <= 6 and c[tile + 1] and c[tile + 2]:
                acts.append(Action.of(ActionKind.CHOW, seat, tile))
        if acts:
            acts.append(Action.of(ActionKind.PASS, seat))
        return acts

    def _refuse(self, action: Action) -> RuleError:
        """The most helpful error for an action that is not in `legal_actions`."""
        seat, kind = action.seat, action.kind
        if self.phase == Phase.ENDED:
            return RuleError("hand_over", "the hand is over")
        if self.phase == Phase.SWAP:
            if self._swap_done[seat]:
                return RuleError("already_answered", "your swap is done")
            if (
                kind == ActionKind.BURY
                and action.tile is not None
                and (action.tile >= N_KINDS or not self.counts[seat][action.tile])
            ):
                return RuleError("tile_not_in_hand", f"{code_to_str(action.tile)} is not in your hand")
            return RuleError("illegal_action", f"{action} is not allowed in the swap window")
        if self.phase == Phase.TURN:
            if seat != self.current_seat:
                if kind in CLAIM_KINDS:
                    return RuleError("claim_window_closed", "there is nothing to claim now")
                return RuleError("not_your_turn", f"it is seat {self.current_seat}'s turn")
            if kind == ActionKind.SELF_WIN:
                return RuleError("not_a_win", "this hand is not a legal win")
            if (
                kind in TURN_KINDS
                and action.tile is not None
                and (action.tile >= N_KINDS or not self.counts[seat][action.tile])
            ):
                return RuleError("tile_not_in_hand", f"{code_to_str(action.tile)} is not in your hand")
            return RuleError("illegal_action", f"{action} is not allowed now")
        if seat in self._answers:
            return RuleError("already_answered", "you have already answered this claim")
        if seat not in self._options:
            if kind in CLAIM_KINDS:
                return RuleError("claim_window_closed", "you have no claim on this tile")
            return RuleError("not_your_turn", "others are answering a claim")
        claim = self._claim_tile
        if kind == ActionKind.CHOW:
            stale = not 0 <= claim - action.tile <= 2
        else:
            stale = kind in CLAIM_KINDS and action.tile not in (None, claim)
        if stale:
            return RuleError("claim_window_closed", "that claim is for an earlier tile")
        if kind == ActionKind.WIN:
            if self._claim_tile in self.missed[seat] and self._can_win_on(seat, self._claim_tile):
                return RuleError("missed_win", "you passed this tile earlier (漏胡) and cannot win on it yet")
            return RuleError("not_a_win", "this tile does not give you a legal win")
        return RuleError("illegal_action", f"{action} is not allowed now")

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> list[Event]:
        if not isinstance(action, Action):
            raise RuleError("bad_action", "apply takes an Action")
        if self.phase == Phase.ENDED:
            raise RuleError("hand_over", "the hand is over")
        if type(action.seat) is not int or not 0 <= action.seat < 4:
            raise RuleError("bad_action", f"no seat {action.seat!r}")
        legal = self._legal.get(action.seat)
        if legal is None:
            legal = self._compute_legal(action.seat)
        for candidate in legal:  # identity first: legal actions are interned
            if candidate is action:
                break
        else:
            if action not in legal:
                raise self._refuse(action)
        events: list[Event] = []
        self._legal = {}
        self.actions.append(action)
        kind = action.kind
        if kind == ActionKind.DISCARD:
            self._note_passed_self_win(action.seat, action.tile)
            self._discard(action.seat, action.tile, events)
        elif kind == ActionKind.DECLARE:
            self.declared[action.seat] = True
            events.append(Event("declare", action.seat))
            self._discard(action.seat, action.tile, events)
        elif kind in (ActionKind.BURY, ActionKind.SKIP):
            self._swap(action, events)
        elif kind == ActionKind.SELF_WIN:
            self._self_win(action.seat, events)
        elif kind == ActionKind.CONCEALED_KONG:
            self._concealed_kong(action.seat, action.tile, events)
        elif kind == ActionKind.ADDED_KONG:
            self._added_kong(action.seat, action.tile, events)
        else:
            self._answer(action, events)
        return events

    def _swap(self, action: Action, events: list[Event]) -> None:
        """换牌 (§10): a bury puts one tile out of play (never drawn again); the fifth makes the seat
        draw five from the head, flowers replaced from the tail. The window closes when every seat
        has swapped or skipped; then the deal's eight-flowers check runs and the dealer moves."""
        seat = action.seat
        if action.kind == ActionKind.SKIP:
            self._swap_done[seat] = True
            events.append(Event("swap_skip", seat))
        else:
            self.counts[seat][action.tile] -= 1
            self.buried[seat].append(action.tile)
            self._hand_changed(seat)
            events.append(Event("bury", seat, action.tile))
            if len(self.buried[seat]) == SWAP_COUNT:
                self._swap_done[seat] = True
                for _ in range(SWAP_COUNT):
                    tile = self._draw_replacing_flowers(seat, events)
                    if tile is None:
                        self._end_draw()
                        events.append(Event("exhaustive_draw"))
                        return
                    self.counts[seat][tile] += 1
                    self._last_in[seat] = tile
                    events.append(Event("draw", seat, tile))
                self._hand_changed(seat)
                events.append(Event("swapped", seat))
        if all(self._swap_done):
            self.phase = Phase.TURN
            events.append(Event("swap_closed"))
            self._check_deal_eight_flowers()

    def _draw_replacing_flowers(self, seat: int, events: list[Event]) -> int | None:
        """One tile from the head for the 换牌 draw, flowers set aside and replaced from the tail;
        None when the wall runs out."""
        wall = self._wall
        from_tail = False
        while not wall.empty:
            tile = wall.draw_tail() if from_tail else wall.draw_head()
            if not self._flowerish[tile]:
                return tile
            self.flowers[seat].append(tile)
            events.append(Event("flower", seat, tile))
            from_tail = True
        return None

    def _note_passed_self_win(self, seat: int, tile: int) -> None:
        """敲 (§11): a declared seat that discards a drawn tile it could have won on (as its turn
        timer's timeout does) may not win on that tile from a discard or a robbed kong until it next
        draws (漏胡, §4)."""
        if self.declared[seat] and tile == self.drawn_tile and self._legal_win(self.counts[seat], seat):
            self.missed[seat].add(tile)

    def _discard(self, seat: int, tile: int, events: list[Event]) -> None:
        self.counts[seat][tile] -= 1
        self._hand_changed(seat)
        self.rivers[seat].append(RiverTile(tile))
        self.drawn_tile = None
        self._draw_kind = None
        self._must_discard = False
        self.last_discard = tile
        self._n_discards += 1
        events.append(Event("discard", seat, tile))
        if self._n_discards == 4 and self.rules.preset == "home" and self._gengfeng_check():
            self._gengfeng_paid = self.gengfeng + 1
            events.append(Event("gengfeng", self.dealer, tile, {"n": self._gengfeng_paid}))
        options = {}
        for i in (1, 2, 3):
            other = (seat + i) % 4
            acts = self._claim_options(other, tile, seat)
            if acts:
                options[other] = acts
        if options:
            self.phase = Phase.CLAIMS
            self._options = options
            self._answers = {}
            self._claim_tile = tile
            events.append(Event("claim_window", seat, tile, {"seats": sorted(options)}))
        elif self.hold_discards:
            self._hold(tile)
        else:
            self._next_turn((seat + 1) % 4, events)

    def _gengfeng_check(self) -> bool:
        """跟风 (§9): the hand's first four discards, the dealer's first, are one wind."""
        order = [(self.dealer + i) % 4 for i in range(4)]
        if any(len(self.rivers[s]) != 1 for s in order):
            return False
        return is_gengfeng([self.rivers[s][0].tile for s in order])

    def _with_extra_transfers(self, moves: list) -> tuple[tuple[int, int, int], ...]:
        """The hand's transfers: those made during the hand whatever its end (跟风, settled when it
        happens, so before the win's), then `moves`."""
        extra = (
            gengfeng_transfers(self.dealer, self._gengfeng_paid, self.stake) if self._gengfeng_paid else []
        )
        return tuple(extra + list(moves))

    def _next_turn(self, seat: int, events: list[Event]) -> None:
        self.phase = Phase.TURN
        self.current_seat = seat
        self._options = {}
        self._answers = {}
        self._claim_tile = None
        self._draw(seat, None, events)

    def _draw(self, seat: int, cause: str | None, events: list[Event]) -> None:
        """Draw for `seat` (from the tail after a kong), replacing flowers from the tail."""
        from_tail = cause == "kong"
        kind = "kong_replacement" if from_tail else None
        wall = self._wall
        while True:
            if wall.empty:
                self._end_draw()
                events.append(Event("exhaustive_draw"))
                return
            tile = wall.draw_tail() if from_tail else wall.draw_head()
            if self._flowerish[tile]:
                self.flowers[seat].append(tile)
                events.append(Event("flower", seat, tile))
                if tile >= FLOWER_BASE and self._eight_flowers(seat):
                    self._end_win([seat], "eight_flowers", None, None)
                    events.append(Event("win", seat, tile, {"win": "eight_flowers"}))
                    return
                from_tail = True
                kind = kind or "flower_replacement"
                continue
            break
        self.counts[seat][tile] += 1
        self._hand_changed(seat)
        self.missed[seat].clear()
        self.drawn_tile = tile
        self._last_in[seat] = tile
        self._draw_kind = kind
        events.append(Event("draw", seat, tile))

    def _self_win(self, seat: int, events: list[Event]) -> None:
        tile = self.drawn_tile if self.drawn_tile is not None else self._last_in[seat]
        win = self._draw_kind or "self_draw"
        self._end_win([seat], win, None, tile)
        events.append(Event("win", seat, tile, {"win": win}))

    def _concealed_kong(self, seat: int, tile: int, events: list[Event]) -> None:
        self.counts[seat][tile] -= 4
        self._hand_changed(seat)
        self.melds[seat].append(Meld(MeldKind.KONG_CONCEALED, (tile,) * 4))
        self._claimed_any = True
        self.drawn_tile = None
        events.append(Event("meld", seat, tile, {"kind": "kong_concealed"}))
        self._draw(seat, "kong", events)

    def _added_kong(self, seat: int, tile: int, events: list[Event]) -> None:
        self.counts[seat][tile] -= 1
        self._hand_changed(seat)
        self.drawn_tile = None
        self._claimed_any = True
        index = next(
            i for i, m in enumerate(self.melds[seat]) if m.kind == MeldKind.PONG and m.tiles[0] == tile
        )
        events.append(Event("added_kong_declared", seat, tile))
        options = {}
        for i in (1, 2, 3):
            other = (seat + i) % 4
            if tile not in self.missed[other] and self._may_win(other) and self._can_win_on(other, tile):
                options[other] = [Action.of(ActionKind.WIN, other, tile), Action.of(ActionKind.PASS, other)]
        self._rob_meld = index
        if options:
            self.phase = Phase.ROB
            self._options = options
            self._answers = {}
            self._claim_tile = tile
            events.append(Event("rob_window", seat, tile, {"seats": sorted(options)}))
        else:
            self._finish_added_kong(seat, tile, events)

    def _finish_added_kong(self, seat: int, tile: int, events: list[Event]) -> None:
        old = self.melds[seat][self._rob_meld]
        self.melds[seat][self._rob_meld] = Meld(MeldKind.KONG_ADDED, (tile,) * 4, old.from_seat, old.claimed)
        self._rob_meld = None
        self.phase = Phase.TURN
        self._options = {}
        self._answers = {}
        self._claim_tile = None
        events.append(Event("meld", seat, tile, {"kind": "kong_added"}))
        self._draw(seat, "kong", events)

    def _answer(self, action: Action, events: list[Event]) -> None:
        self._answers[action.seat] = action
        events.append(Event("answer", action.seat, None, {"kind": action.kind}))
        if len(self._answers) < len(self._options):
            return
        tile = self._claim_tile
        origin = self.current_seat
        for seat, acts in self._options.items():
            if acts[0].kind == ActionKind.WIN and self._answers[seat].kind != ActionKind.WIN:
                self.missed[seat].add(tile)
        order = [(origin + i) % 4 for i in (1, 2, 3)]
        winners = [s for s in order if s in self._answers and self._answers[s].kind == ActionKind.WIN]
        if self.phase == Phase.ROB:
            if winners:
                self._end_win(winners, "rob_kong", origin, tile)
                events.append(Event("win", None, tile, {"win": "rob_kong", "seats": winners}))
            else:
                self._finish_added_kong(origin, tile, events)
            return
        if winners:
            self._end_win(winners, "discard", origin, tile)
            events.append(Event("win", None, tile, {"win": "discard", "seats": winners}))
            return
        chosen = None
        for s in order:
            if self._answers.get(s) and self._answers[s].kind in (ActionKind.PONG, ActionKind.EXPOSED_KONG):
                chosen = self._answers[s]
        if chosen is None:
            for s in order:
                if self._answers.get(s) and self._answers[s].kind == ActionKind.CHOW:
                    chosen = self._answers[s]
        if chosen is None and self.hold_discards:
            self._hold(tile)
        elif chosen is None:
            self._next_turn((origin + 1) % 4, events)
        else:
            self._claim(chosen, origin, tile, events)

    def _claim(self, action: Action, origin: int, tile: int, events: list[Event]) -> None:
        seat, kind = action.seat, action.kind
        c = self.counts[seat]
        if kind == ActionKind.CHOW:
            tiles = (action.tile, action.tile + 1, action.tile + 2)
            for t in tiles:
                if t != tile:
                    c[t] -= 1
            meld = Meld(MeldKind.CHOW, tiles, origin, tile)
        elif kind == ActionKind.PONG:
            c[tile] -= 2
            meld = Meld(MeldKind.PONG, (tile,) * 3, origin, tile)
        else:
            c[tile] -= 3
            meld = Meld(MeldKind.KONG_EXPOSED, (tile,) * 4, origin, tile)
        self.melds[seat].append(meld)
        self.rivers[origin][-1].claimed = True
        self.feeds[seat][origin] += 1
        self._claimed_any = True
        self._hand_changed(seat)
        self.missed[seat].clear()
        self.phase = Phase.TURN
        self.current_seat = seat
        self._options = {}
        self._answers = {}
        self._claim_tile = None
        self.drawn_tile = None
        self._draw_kind = None
        events.append(Event("meld", seat, tile, {"kind": meld.kind, "from": origin}))
        if kind == ActionKind.EXPOSED_KONG:
            self._draw(seat, "kong", events)
        else:
            self._must_discard = True

    # ------------------------------------------------------------------ the end

    def _ready(self, seat: int) -> bool:
        return bool(self.winning_tiles(seat))

    def _end_draw(self) -> None:
        self.phase = Phase.ENDED
        self.drawn_tile = None
        moves = self._with_extra_transfers([])
        self.result = HandResult(
            kind=ResultKind.DRAW,
            winners=(),
            payments=tuple(net(moves)),
            dealer_next=next_dealer(self.dealer, [], None),
            huangfan_next=next_huangfan(self.huangfan_in_play, True),
            dice=self.dice,
            seed=self.seed,
            wall=self.wall_tiles,
            gengfeng=self._gengfeng_paid,
            gengfeng_next=self.gengfeng + (self._gengfeng_paid > 0),
            transfers=moves,
        )

    def _end_win(self, winners: list[int], win: str, from_seat: int | None, tile: int | None) -> None:
        ready = tuple(s not in winners and self._ready(s) for s in range(4))
        feeds = tuple(tuple(row) for row in self.feeds)
        pairs = []
        for seat in winners:
            concealed = _counts_to_tiles(self.counts[seat])
            if win in ("self_draw", "kong_replacement", "flower_replacement") and tile in concealed:
                concealed.remove(tile)
            if win in ("discard", "rob_kong"):
                first = not self._claimed_any and self._n_discards <= 4
            else:
                first = not self._claimed_any and not self.rivers[seat]
            ctx = WinContext(
                winner=seat,
                win=win,
                concealed=tuple(concealed),
                winning_tile=tile,
                melds=tuple(self.melds[seat]),
                flowers=tuple(self.flowers[seat]),
                from_seat=from_seat,
                dealer=self.dealer,
                dice=self.dice,
                huangfan=self.huangfan,
                stake=self.stake,
                feeds=feeds,
                ready=ready,
                last_tile=win in SELF_DRAWN and self._wall.empty,
                first_go_round=first,
            )
            pairs.append((ctx, score_win(ctx, self.rules)))
        moves = self._with_extra_transfers(transfers(pairs, self.rules))
        settlements = tuple(explain(pairs, self.rules))
        self.phase = Phase.ENDED
        self.result = HandResult(
            kind=ResultKind.WIN,
            winners=tuple(score for _, score in pairs),
            payments=tuple(net(moves)),
            dealer_next=next_dealer(self.dealer, winners, from_seat),
            huangfan_next=next_huangfan(self.huangfan_in_play, False),
            dice=self.dice,
            seed=self.seed,
            wall=self.wall_tiles,
            gengfeng=self._gengfeng_paid,
            gengfeng_next=self.gengfeng + (self._gengfeng_paid > 0),
            settlements=settlements,
            contexts=tuple(ctx for ctx, _ in pairs),
            transfers=moves,
        )

    # ------------------------------------------------------------------ helpers for callers

    def timeout_action(self, seat: int) -> Action:
        """A timeout discards the drawn tile (else the highest tile) in a turn, and passes a claim."""
        legal = self.legal_actions(seat)
        if not legal:
            raise RuleError("not_your_turn", f"seat {seat} has nothing to answer")
        if self.phase == Phase.TURN:
            tile = self.drawn_tile
            if tile is None or not self.counts[seat][tile]:
                tile = max(t for t in range(N_KINDS) if self.counts[seat][t])
            return Action.of(ActionKind.DISCARD, seat, tile)
        if self.phase == Phase.SWAP:  # a seat that started burying finishes; one that did not, skips
            if not self.buried[seat]:
                return Action.of(ActionKind.SKIP, seat)
            return Action.of(ActionKind.BURY, seat, max(t for t in range(N_KINDS) if self.counts[seat][t]))
        return Action.of(ActionKind.PASS, seat)

    def reveal(self) -> dict:
        if self.phase != Phase.ENDED:
            raise RuleError("illegal_action", "the seed and wall are revealed only when the hand is over")
        return {"seed": self.seed, "wall": format_tiles(self.wall_tiles), "commitment": self.commitment}

    def census(self) -> list[int]:
        """How many of each of the 42 codes are anywhere (hands, melds, flowers, rivers, wall, a
        tile being robbed). A full hand always gives 4 of each kind and 1 of each flower."""
        seen = [0] * N_CODES
        for seat in range(4):
            for code, n in enumerate(self.counts[seat]):
                seen[code] += n
            for meld in self.melds[seat]:
                for t in meld.tiles:
                    seen[t] += 1
            for f in self.flowers[seat]:
                seen[f] += 1
            for t in self.buried[seat]:
                seen[t] += 1
            for r in self.rivers[seat]:
                if not r.claimed:
                    seen[r.tile] += 1
        for t in self._wall.live():
            seen[t] += 1
        if self._rob_meld is not None:
            seen[self._claim_tile if self._claim_tile is not None else self.last_discard] += 1
        return seen

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict:
        """What one seat (or a spectator, `None`) may see, as JSON: `hand_view(seat).to_json()`."""
        return self.hand_view(seat).to_json()

    def hand_view(self, seat: int | None, public: PublicView | None = None) -> HandView:
        """What one seat (or a spectator, `None`) may see: own tiles and public information only
        (games/engine/view.py). `public`: this state's `public_view()`, when the caller has it."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
            raise RuleError("bad_action", f"no seat {seat!r}")
        if public is None:
            public = self.public_view()
        if self.phase == Phase.TURN:
            pending = public.turn_pending
        else:
            # who may claim is private: a seat sees only whether it must answer itself
            pending = (seat,) if seat is not None and seat in self.pending_seats() else ()
        if seat is None:
            return HandView(seat, public, pending)
        own = _counts_to_tiles(self.counts[seat])
        drawn = self.drawn_tile if seat == self.current_seat and self.phase == Phase.TURN else None
        if drawn is not None and drawn in own:
            own.remove(drawn)
        return HandView(
            seat,
            public,
            pending,
            hand=tuple(_tiles_json(own)),
            drawn=None if drawn is None else code_to_str(drawn),
            legal_actions=tuple(self.legal_actions(seat)),
            waits=tuple(_tiles_json(self.winning_tiles(seat))) if self.phase != Phase.ENDED else (),
            missed=tuple(_tiles_json(sorted(self.missed[seat]))),
            # The seat's own melds face up: `seats` shows its concealed kongs face down, as to everyone.
            own_melds=tuple(_meld_face(m, True) for m in self.melds[seat]),
            buried=tuple(_tiles_json(self.buried[seat])) if self.rules.swap_tiles else None,
        )

    def public_view(self) -> PublicView:
        """The part of every viewer's view that does not depend on who looks (`HandView.public`)."""
        ended = self.phase == Phase.ENDED
        seats = []
        for s in range(4):
            seats.append(
                SeatPublic(
                    seat=s,
                    wind=code_to_str(WINDS[(s - self.dealer) % 4]),
                    flowers=tuple(_tiles_json(self.flowers[s])),
                    melds=tuple(_meld_face(m, ended) for m in self.melds[s]),
                    river=tuple(Discard(code_to_str(r.tile), r.claimed) for r in self.rivers[s]),
                    concealed_count=sum(self.counts[s]),
                    declared=self.declared[s] if self.rules.declare_ready else None,
                    swap=SwapState(len(self.buried[s]), self._swap_done[s])
                    if self.rules.swap_tiles
                    else None,
                    hand=tuple(_tiles_json(_counts_to_tiles(self.counts[s]))) if ended else None,
                )
            )
        return PublicView(
            phase=self.phase,
            current_seat=self.current_seat,
            dealer=self.dealer,
            dice=tuple(self.dice),
            huangfan=self.huangfan,
            stake=self.stake,
            wall_remaining=self.wall_remaining,
            last_discard=None if self.last_discard is None else code_to_str(self.last_discard),
            claim_tile=None if self._claim_tile is None else code_to_str(self._claim_tile),
            commitment=self.commitment,
            seats=tuple(seats),
            turn_pending=tuple(self.pending_seats()) if self.phase == Phase.TURN else (),
            result=self.result if ended else None,
            reveal=self.reveal() if ended else None,
        )

    # ------------------------------------------------------------------ copying

    def copy(self) -> GameState:
        """An independent copy: applying actions to either never changes the other.

        What a server keeps of a saved hand is shared by the renders of that version, while the next
        action plays on a copy (games/store): each attribute is copied as `_COPY` says (containers
        copied as deep as they are changed in place, values that never change shared). An attribute
        `_COPY` does not name raises `TypeError`, so that a new one cannot be shared by mistake.

        Reads of the original may fill its memos (legal actions, waits) on other threads meanwhile:
        each container is first copied whole by one C call (`list(...)`, `dict(...)`, atomic under
        the GIL), never iterated while another thread may add to it."""
        new = object.__new__(type(self))
        try:
            new.__dict__.update({name: _COPY[name](value) for name, value in list(self.__dict__.items())})
        except KeyError as exc:
            raise TypeError(f"GameState.copy does not know how to copy {exc.args[0]}") from None
        return new

    # ------------------------------------------------------------------ JSON and replay

    def to_json(self) -> dict:
        out: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "dealer": self.dealer,
            "huangfan": self.huangfan,
            "stake": self.stake,
            "seed": self.seed,
            "commitment": self.commitment,
            "actions": [str(a) for a in self.actions],
        }
        if self.gengfeng:
            out["gengfeng"] = self.gengfeng
        if self._setup is not None:
            out["setup"] = self._setup
        if self.hold_discards:
            out["hold_discards"] = True
            out["held"] = self.held
        return out

    @classmethod
    def from_json(cls, d: Any) -> GameState:
        if not isinstance(d, dict):
            raise RuleError("bad_action", "a saved game is a JSON object")
        try:
            rules = Rules.from_json(d["rules"])
            if d.get("setup") is not None:
                setup = d["setup"]
                state = cls.from_setup(
                    setup["hands"],
                    setup["wall"],
                    dealer=d["dealer"],
                    rules=rules,
                    huangfan=d["huangfan"],
                    stake=d["stake"],
                    dice=tuple(setup["dice"]),
                    seed=d["seed"],
                    gengfeng=d.get("gengfeng", 0),
                )
            else:
                state = cls.new(
                    rules, d["dealer"], d["huangfan"], d["stake"], d["seed"], d.get("gengfeng", 0)
                )
            actions = [Action.parse(a) for a in d["actions"]]
        except RuleError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise RuleError("bad_action", f"cannot read saved game: {exc}") from None
        if d.get("commitment", state.commitment) != state.commitment:
            raise RuleError("bad_action", "saved commitment does not match the seed")
        state.hold_discards = d.get("hold_discards") is True
        for action in actions:
            if state.held:  # every held window but the last was released before the next action
                state.release()
            state.apply(action)
        if state.held and d.get("held") is not True:
            state.release()
        return state

    @classmethod
    def replay(
        cls,
        seed: str,
        rules: Rules | None = None,
        dealer: int = 0,
        huangfan: int = 0,
        stake: int = 1,
        actions: list = (),
        gengfeng: int = 0,
    ) -> GameState:
        state = cls.new(rules or Rules(), dealer, huangfan, stake, seed, gengfeng)
        for action in actions:
            state.apply(action if isinstance(action, Action) else Action.parse(action))
        return state


def _shared(value):
    return value


def _lists(value: list) -> list:
    return [list(item) for item in value]


def _dict_of_lists(value: dict) -> dict:
    return {key: list(item) for key, item in dict(value).items()}


# How `GameState.copy` copies each attribute: values that never change in place (numbers, strings,
# tuples, frozen dataclasses, enums) are shared; each container as deep as the state changes it.
_COPY = {
    **dict.fromkeys(
        (
            "_setup",  # a setup dict, never changed after `from_setup`
            "gengfeng",
            "_gengfeng_paid",
            "rules",
            "_complete_first",
            "_flowerish",
            "dealer",
            "huangfan",
            "huangfan_in_play",
            "stake",
            "seed",
            "dice",
            "wall_tiles",
            "_commitment",
            "phase",
            "current_seat",
            "drawn_tile",
            "last_discard",
            "result",
            "_draw_kind",
            "_must_discard",
            "_claimed_any",
            "_n_discards",
            "_claim_tile",
            "_rob_meld",
            "_declaring",
            "hold_discards",
        ),
        _shared,
    ),
    "actions": list,
    "_wall": lambda wall: Wall(wall.tiles, wall.head, wall.tail),  # draws move its ends only
    "counts": _lists,
    "melds": _lists,
    "flowers": _lists,
    "rivers": lambda rivers: [[RiverTile(r.tile, r.claimed) for r in river] for river in rivers],
    "feeds": _lists,
    "missed": lambda missed: [set(seat) for seat in missed],
    "_last_in": list,
    "_waits": list,  # each seat's list is replaced, never changed
    "_shapes": list,
    "_win_memo": lambda memo: [dict(seat) for seat in memo],
    "_options": _dict_of_lists,
    "_answers": dict,
    "_legal": _dict_of_lists,
    "declared": list,
    "buried": _lists,
    "_swap_done": list,
}
