"""The bots' memo tables and shortcuts give the answers a plain computation gives
(games/engine/bots/evaluate.py, normal.py).

Suit frontiers are stored once per distinct frontier and reached through ids; these tests rebuild
frontiers, distances and per-shape draw lists from the definitions, without any table, and compare
them on many random suit shapes and hands. The hand summary and the normal bot's defensive pick are
checked against straightforward versions the same way.
"""

import math
import random
from functools import cache

from games.engine.bots import evaluate as ev
from games.engine.bots.normal import NormalBot
from games.engine.tiles import N_KINDS


def _pareto(options) -> tuple[tuple[int, int, int], ...]:
    kept: list[tuple[int, int, int]] = []
    for m, t, h in sorted(set(options), reverse=True):
        if not any(km >= m and kt >= t and kh == h for km, kt, kh in kept):
            kept.append((m, t, h))
    return tuple(kept)


@cache
def plain_frontier(ranks: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """Every split of one suit's counts into sets, partial sets, at most one pair and loose tiles,
    reduced to the options no other beats: the definition, over count tuples."""
    if not any(ranks):
        return ((0, 0, 0),)
    i = next(r for r, c in enumerate(ranks) if c)

    def less(*used: int) -> tuple[int, ...]:
        out = list(ranks)
        for r in used:
            out[r] -= 1
        return tuple(out)

    options = list(plain_frontier(less(i)))
    if ranks[i] >= 3:
        options += [(m + 1, t, h) for m, t, h in plain_frontier(less(i, i, i))]
    if ranks[i] >= 2:
        for m, t, h in plain_frontier(less(i, i)):
            options.append((m, t + 1, h))
            if not h:
                options.append((m, t, 1))
    if i <= 6 and ranks[i + 1] and ranks[i + 2]:
        options += [(m + 1, t, h) for m, t, h in plain_frontier(less(i, i + 1, i + 2))]
    if i <= 7 and ranks[i + 1]:
        options += [(m, t + 1, h) for m, t, h in plain_frontier(less(i, i + 1))]
    if i <= 6 and ranks[i + 2]:
        options += [(m, t + 1, h) for m, t, h in plain_frontier(less(i, i + 2))]
    return _pareto(options)


def key_of(ranks: tuple[int, ...]) -> int:
    return sum(c * 5**r for r, c in enumerate(ranks))


def random_suit(rng: random.Random) -> tuple[int, ...]:
    tiles = rng.sample([r for r in range(9) for _ in range(4)], rng.randint(0, 14))
    return tuple(tiles.count(r) for r in range(9))


def test_interned_frontiers_match_the_definition():
    rng = random.Random(5)
    for _ in range(3000):
        ranks = random_suit(rng)
        assert ev.suit_frontier(key_of(ranks)) == plain_frontier(ranks)


def test_memoised_suit_distance_matches_the_plain_combination():
    rng = random.Random(6)
    for _ in range(3000):
        ranks = random_suit(rng)
        hm, hq, need = rng.randint(0, 4), rng.randint(0, 7), rng.randint(0, 4)
        expected = ev._combine(plain_frontier(ranks), (hm, hq), need)
        assert ev._one_suit_cached(key_of(ranks), hm, hq, need) == expected


def test_memoised_shape_lists_exactly_the_draws_that_help():
    rng = random.Random(7)
    for _ in range(1500):
        ranks = random_suit(rng)
        hm, hq, need = rng.randint(0, 3), rng.randint(0, 4), rng.randint(1, 4)

        def distance(rs, pongs=hm, pairs=hq, need=need):
            return ev._combine(plain_frontier(tuple(rs)), (pongs, pairs), need)

        current = distance(ranks)
        helps = tuple(
            r
            for r in range(9)
            if ranks[r] < 4 and distance([c + (i == r) for i, c in enumerate(ranks)]) < current
        )
        single = distance(ranks, hm, hq + 1) < current
        pair = hq > 0 and distance(ranks, hm + 1, hq - 1) < current
        assert ev._one_suit_shape(key_of(ranks), hm, hq, need) == (current, helps, single, pair)


def test_shanten_of_random_hands_matches_the_plain_frontier():
    """Whole hands: each one-suit plan's distance read through the tables equals the definition."""
    rng = random.Random(8)
    wall = [k for k in range(N_KINDS) for _ in range(4)]
    for _ in range(1000):
        n = rng.choice([2, 5, 8, 11, 13, 14])
        hand = [0] * N_KINDS
        for code in rng.sample(wall, n):
            hand[code] += 1
        need = ev.need_sets(n)
        honours = ev.honour_parts(hand)
        for suit in range(3):
            ranks = tuple(hand[suit * 9 : suit * 9 + 9])
            for plan, parts in ((ev.HUN[suit], honours), (ev.QING[suit], (0, 0))):
                formula = ev._combine(plain_frontier(ranks), parts, need)
                inside = sum(hand[k] for k in ev.plan_kinds(plan))
                expected = max(formula, ev.junk_bound(n - inside, n))
                assert ev.shanten(plan, hand, n) == expected


def plain_summary(counts: list[int], unseen: list) -> tuple:
    """Per group (m, p, s, honours): tiles, pongs, pairs and the unseen copies of the kinds held
    0, 1, 2 and exactly 3 times, summed kind by kind over all 34 kinds."""
    rows = []
    for lo, hi in ((0, 9), (9, 18), (18, 27), (27, 34)):
        n = pongs = pairs = 0
        u = [0, 0, 0, 0]
        for c, left in zip(counts[lo:hi], unseen[lo:hi], strict=True):
            n += c
            pairs += c == 2
            pongs += c >= 3
            if c <= 3:
                u[c] += left
        rows.append((n, pongs, pairs, *u))
    return tuple(rows)


def test_hand_summary_matches_a_full_pass_also_for_float_weights():
    """The summary walks only the kinds held; the sums must equal a full pass exactly, also for
    float weights (the hard bot weighs unseen tiles by how live they are)."""
    rng = random.Random(9)
    wall = [k for k in range(N_KINDS) for _ in range(4)]
    for trial in range(2000):
        hand = [0] * N_KINDS
        for code in rng.sample(wall, rng.choice([2, 5, 8, 11, 14])):
            hand[code] += 1
        unseen = [rng.randint(0, 4 - c) for c in hand]
        if trial % 2:
            unseen = [n * rng.choice((0.1, 0.3, 0.7, 1.5)) for n in unseen]
        summary = ev._Hand(hand, unseen)
        got = tuple(
            (
                summary.size[g],
                summary.pong[g],
                summary.pair[g],
                summary.u0[g],
                summary.u1[g],
                summary.u2[g],
                summary.u3[g],
            )
            for g in range(4)
        )
        assert got == plain_summary(hand, unseen)
        assert summary.keys[:3] == [ev.suit_key(hand, s) for s in range(3)]


class _FixedRisk(NormalBot):
    """`normal` with a given danger per tile (no table needed)."""

    def __init__(self, risks: dict[int, float]) -> None:
        self.risks = risks

    def risk(self, pos, tile, threats):
        return self.risks[tile]


def plain_pick(bot: NormalBot, options: list, threats) -> ev.DiscardOption:
    """The defensive pick as first written: score every option within a step, sort, then read
    danger down the list until the offence alone cannot win."""
    best = options[0]
    top = max(o.score for o in options if o.shanten == best.shanten) or 1.0
    step = best.shanten if best.shanten >= 0 else 0
    caution = bot.caution[step if step < len(bot.caution) else -1]
    if not caution:
        return best
    ranked = sorted(
        (
            (-o.shanten + 0.5 * math.log(min(max(o.score / top, 0.05), 1.0)), -i, o)
            for i, o in enumerate(options)
            if o.shanten <= best.shanten + 1
        ),
        reverse=True,
    )
    chosen, chosen_utility = best, -math.inf
    for offence, _, option in ranked:
        if offence < chosen_utility:
            break
        utility = offence - caution * bot.risk(None, option.tile, threats)
        if utility > chosen_utility:
            chosen, chosen_utility = option, utility
    return chosen


def test_defensive_pick_matches_the_plain_sorted_version():
    rng = random.Random(10)
    threats = ["someone"]  # read only by `risk`
    for _ in range(3000):
        tiles = rng.sample(range(N_KINDS), rng.randint(1, 14))
        low = rng.randint(-1, 4)
        options = sorted(
            (
                ev.DiscardOption(
                    t, 0, low + rng.choice((0, 0, 1, 2)), 0, rng.choice((0.0, 1.0, 2.0, 2.5, 6.0, 12.0))
                )
                for t in tiles
            ),
            key=lambda o: (o.shanten, -o.score, o.tile),
        )
        bot = _FixedRisk({t: rng.choice((0.0, 0.0, 0.05, 0.1, 0.3, 1.0)) for t in tiles})
        assert bot.pick(None, options, threats) == plain_pick(bot, options, threats)


def test_kept_threat_readings_match_fresh_ones_through_whole_hands():
    """`read_threat` keeps each opponent's meld/river reading until it grows; at every point of
    real hands the kept answer equals one read from scratch."""
    from games.engine.bots import defense, get_bot
    from games.engine.simulate import hand_seed
    from games.engine.state import GameState

    bots = [get_bot("normal") for _ in range(4)]
    compared = 0
    for index in range(12):
        state = GameState.new(seed=hand_seed("threat-cache", index))
        while state.phase != "ended":
            for me in range(4):
                for other in range(4):
                    if other != me:
                        kept = defense.read_threat(state, me, other)
                        readings = defense._HAND_SHAPES[0]
                        defense._HAND_SHAPES[0] = None  # read from scratch, then put the kept ones back
                        fresh = defense.read_threat(state, me, other)
                        defense._HAND_SHAPES[0] = readings
                        assert kept == fresh
                        compared += 1
            seat = state.pending_seats()[0]
            state.apply(bots[seat].choose(state, seat))
    assert compared > 1000


def test_single_plan_discards_match_the_general_path_exactly():
    """Ranking for one 混一色 / 清一色 / 碰碰胡 / 混碰 plan reads each discard from the suit's shape
    or the group sums; the result must equal, to the last bit also with float weights, taking each
    tile out of the hand summary and putting it back (the general path)."""
    rng = random.Random(11)
    wall = [k for k in range(N_KINDS) for _ in range(4)]
    plans = (*ev.HUN, *ev.QING, *ev.HUNPENG, ev.PENG)
    for trial in range(3000):
        hand = [0] * N_KINDS
        for code in rng.sample(wall, rng.choice([5, 8, 11, 14])):
            hand[code] += 1
        unseen = [rng.randint(0, 4 - c) for c in hand]
        if trial % 2:
            unseen = [n * rng.choice((0.1, 0.3, 0.7, 1.5)) for n in unseen]
        plan = plans[trial % len(plans)]
        n = sum(hand)
        need = ev.need_sets(n)
        got = ev.evaluate_discards(list(hand), [plan], unseen, claims=bool(trial % 3))
        general = ev._Hand(list(hand), unseen)
        outside = ev._plan_after(general, plan, need, n - 1)
        expected = []
        for tile in range(N_KINDS):
            c = general.counts[tile]
            if not c:
                continue
            if ev.plan_uses(plan, tile):
                general._move(tile, c, -1)
                s, u, reach = ev._plan_after(general, plan, need, n - 1)
                general._move(tile, c - 1, 1)
            else:
                s, u, reach = outside
            expected.append(ev.DiscardOption(tile, plan, s, u, reach if trial % 3 else u))
        expected.sort(key=lambda o: (o.shanten, -o.score, o.tile))
        assert got == expected


def test_tables_that_start_again_when_full_give_the_same_answers(monkeypatch):
    """With tiny size limits the shape tables are emptied again and again; answers do not change."""
    monkeypatch.setattr(ev, "_KEY_FID_LIMIT", 50)
    monkeypatch.setattr(ev, "_SHAPES_LIMIT", 20)
    rng = random.Random(12)
    for _ in range(500):
        ranks = random_suit(rng)
        hm, hq, need = rng.randint(0, 3), rng.randint(0, 4), rng.randint(1, 4)
        assert ev.suit_frontier(key_of(ranks)) == plain_frontier(ranks)
        current = ev._combine(plain_frontier(ranks), (hm, hq), need)
        assert ev._one_suit_shape(key_of(ranks), hm, hq, need)[0] == current
    assert len(ev._KEY_FID) <= 50 + 1 and len(ev._SHAPES) <= 20
