"""Duplicate deals (personal walls) and the statistics of `bench/bots_duplicate.py`."""

import hashlib
import math
from collections import Counter

import pytest

from games.engine.actions import Action
from games.engine.bots import get_bot
from games.engine.bots.duplicate_match import DealOutcome, DuplicateMatch, Sprt, mean_ci95, play
from games.engine.duplicate import PERSONAL, DuplicateState, PersonalWalls
from games.engine.rules import Rules
from games.engine.simulate import FULL_CENSUS
from games.engine.state import GameState
from games.engine.wall import shuffled_wall


def seed_of(i: int) -> str:
    return hashlib.sha256(f"test-duplicate:{i}".encode()).hexdigest()


def drive(state, claim_first: bool) -> tuple[dict[int, list[int]], bool]:
    """Everyone discards the tile just drawn (or, after a claim, the first tile held) and passes
    every claim, except that with `claim_first` the first chow or pong offered is taken.
    Returns the tiles each seat took from the wall (draws and flower replacements, in order) and
    whether a claim was made."""
    taken = {s: [] for s in range(4)}
    claimed = False
    while state.phase != "ended":
        seat = state.pending_seats()[0]
        legal = state.legal_actions(seat)
        if state.phase == "claims":
            melds = [a for a in legal if a.kind in ("chow", "pong")]
            if claim_first and not claimed and melds:
                action, claimed = melds[0], True
            else:
                action = Action("pass", seat)
        else:
            tile = state.drawn_tile
            if tile is None or not state.counts[seat][tile]:
                tile = next(t for t, n in enumerate(state.counts[seat]) if n)
            action = Action("discard", seat, tile)
        for event in state.apply(action):
            if event.kind in ("draw", "flower"):
                taken[event.seat].append(event.tile)
    return taken, claimed


def first_claimed_deal(cls):
    """The first test seed whose hand offers a chow or pong, played with and without the claim."""
    for i in range(50):
        plain, _ = drive(cls.new(seed=seed_of(i)), claim_first=False)
        with_claim, claimed = drive(cls.new(seed=seed_of(i)), claim_first=True)
        if claimed:
            return plain, with_claim
    raise AssertionError("no claim offered in 50 deals")


# 15 draws after the deal cannot use up a personal wall (13 dealt + at most 8 flowers + 15 ≤ 36).
EARLY = 15


def test_a_claim_does_not_change_what_any_seat_draws():
    plain, with_claim = first_claimed_deal(DuplicateState)
    for seat in range(4):
        n = min(len(plain[seat]), len(with_claim[seat]), EARLY)
        assert n >= 5
        assert plain[seat][:n] == with_claim[seat][:n]


def test_on_a_shared_wall_the_same_claim_does_change_the_draws():
    """The contrast that makes the test above worth having."""
    plain, with_claim = first_claimed_deal(GameState)
    assert any(plain[s][:EARLY] != with_claim[s][:EARLY] for s in range(4))


def test_each_seat_is_dealt_and_draws_from_its_own_wall():
    seed = seed_of(1)
    walls = PersonalWalls(shuffled_wall(seed)).walls
    state = DuplicateState.new(seed=seed)
    dealt = [Counter(t for t, n in enumerate(state.counts[s]) for _ in range(n)) for s in range(4)]
    dealt_flowers = [Counter(state.flowers[s]) for s in range(4)]
    taken, _ = drive(state, claim_first=False)
    for seat in range(4):
        own = Counter(walls[seat])
        head = walls[seat][: 14 if seat == 0 else 13]
        # the dealt non-flowers are the head of the seat's wall, flowers replaced from its tail
        assert all(dealt[seat][t] >= head.count(t) for t in head if t < 34)
        used = dealt[seat] + dealt_flowers[seat] + Counter(taken[seat][:EARLY])
        assert not used - own


def test_tiles_are_conserved_and_the_wall_runs_out_only_when_all_144_are_out():
    for i in range(3):
        state = DuplicateState.new(seed=seed_of(i))
        assert state.census() == FULL_CENSUS
        drive(state, claim_first=True)
        assert state.census() == FULL_CENSUS
        if state.result.kind == "draw":
            assert state.wall_remaining == 0


def test_personal_walls_lend_from_the_next_seat_once_a_seat_is_used_up():
    walls = PersonalWalls(list(range(4 * PERSONAL)))
    walls.seat = 2
    got = [walls.draw_head() for _ in range(PERSONAL)]
    assert got == list(range(2 * PERSONAL, 3 * PERSONAL))
    assert walls.draw_head() == 4 * PERSONAL - 1  # seat 3's last tile
    assert walls.draw_tail() == 4 * PERSONAL - 2
    assert walls.remaining == 4 * PERSONAL - PERSONAL - 2
    assert sorted(walls.live() + got + [4 * PERSONAL - 1, 4 * PERSONAL - 2]) == list(range(4 * PERSONAL))


def test_a_deal_is_deterministic_per_seed_and_replays():
    bots = [get_bot("normal") for _ in range(4)]
    a = DuplicateState.new(seed=seed_of(7))
    b = DuplicateState.new(seed=seed_of(7))
    play(a, bots)
    play(b, bots)
    assert [str(x) for x in a.actions] == [str(x) for x in b.actions]
    assert a.result.payments == b.result.payments
    again = DuplicateState.replay(a.seed, actions=a.actions)
    assert again.result.payments == a.result.payments
    assert again.census() == FULL_CENSUS
    c = DuplicateState.new(seed=seed_of(8))
    play(c, bots)
    assert [str(x) for x in c.actions] != [str(x) for x in a.actions]


def test_a_match_deal_plays_five_hands_and_nets_are_zero_sum_in_the_baseline():
    outcome = DuplicateMatch("normal", "easy").deal(seed_of(3))
    assert len(outcome.challenger) == 4 and len(outcome.baseline) == 4
    assert sum(outcome.baseline) == 0
    assert outcome.counts["challenger"]["draw"] == outcome.counts["field"]["draw"] / 3


def test_mean_and_95_interval():
    mean, lo, hi = mean_ci95([1.0, 2.0, 3.0, 4.0, 5.0])
    # sample variance 2.5, standard error sqrt(2.5 / 5) = 0.7071, half width 1.96 × that
    assert mean == 3.0
    assert hi - mean == pytest.approx(1.3859038, abs=1e-6)
    assert mean - lo == pytest.approx(1.3859038, abs=1e-6)
    assert mean_ci95([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)
    assert mean_ci95([4.0])[1] == -math.inf
    with pytest.raises(ValueError):
        mean_ci95([])


def test_deal_edge_is_challenger_mean_minus_baseline_mean():
    outcome = DealOutcome([2.0, -1.0, 0.0, 3.0], [1.0, -1.0, 0.5, -0.5])
    assert outcome.edge == pytest.approx(1.0)


def test_sprt_accepts_an_edge_rejects_none_and_waits_when_unsure():
    sprt = Sprt(delta=0.5, min_n=20)
    clear_edge = [1.0 + (i % 5) * 0.1 for i in range(200)]
    no_edge = [(-1.0) ** i for i in range(200)]
    assert sprt.decision(clear_edge) == "H1"
    assert sprt.decision(no_edge) == "H0"
    assert sprt.decision(clear_edge[:10]) is None  # below min_n
    assert sprt.decision([0.25 + (-1.0) ** i * 3 for i in range(20)]) is None


def test_swap_draws_come_from_the_swapping_seats_own_wall():
    # 换牌 (§10): seat 2 buries five tiles and draws five; they are the next of its own wall
    # (flowers among them replaced from its own tail), whatever seat 1 did before it.
    seed = seed_of(4)
    own = PersonalWalls(shuffled_wall(seed)).walls[2]
    state = DuplicateState.new(Rules(swap_tiles=True), seed=seed)
    for seat in (0, 1):
        state.apply(Action("skip", seat))
    taken = []
    for _ in range(5):
        tile = next(t for t, n in enumerate(state.counts[2]) if n)
        for event in state.apply(Action("bury", 2, tile)):
            if event.kind in ("draw", "flower"):
                taken.append(event.tile)
    # the same walk over seat 2's own wall: the deal's flowers replaced from the tail, then five
    # draws from the head, each flower among them replaced from the tail
    head, tail = 13, PERSONAL
    pending = sum(t >= 34 for t in own[:13])
    while pending:
        tail -= 1
        pending += (own[tail] >= 34) - 1
    expected = []
    for _ in range(5):
        tile = own[head]
        head += 1
        while tile >= 34:
            expected.append(tile)
            tail -= 1
            tile = own[tail]
        expected.append(tile)
    assert taken == expected
