"""No bot reads hidden information: redealing what its seat cannot see never changes its decision.

At sampled decisions of real hands, the other seats' concealed tiles, their concealed kongs (which
lie face down: a kong of some kind) and the live wall are shuffled among themselves, keeping every
public thing as it was (melds shown face up, rivers, flowers, hand sizes, the wall's size and its
flowers, claim counts) and the deciding seat's own tiles. A bot that sees only its seat's
`HandView` must answer the same. The harness is shown to catch a bot that does peek.
"""

from __future__ import annotations

import copy
import random

import pytest

from games.engine.actions import Action
from games.engine.bots import get_bot
from games.engine.melds import Meld
from games.engine.simulate import hand_seed
from games.engine.state import GameState
from games.engine.tiles import N_KINDS

HANDS = 12
REDEALS = 2


def redeal_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of `state` in which everything `seat` cannot see is dealt again at random."""
    other = copy.deepcopy(state)
    others = [s for s in range(4) if s != seat]
    wall = other._wall
    slots = [i for i in range(wall.head, wall.tail) if wall.tiles[i] < N_KINDS]  # flowers stay put
    pool = [wall.tiles[i] for i in slots]
    face_down: list[tuple[int, int]] = []  # (seat, index in its melds)
    for s in others:
        pool.extend(k for k in range(N_KINDS) for _ in range(other.counts[s][k]))
        for i, meld in enumerate(other.melds[s]):
            if meld.kind == "kong_concealed":
                pool.extend(meld.tiles)
                face_down.append((s, i))
    rng.shuffle(pool)
    for s, i in face_down:
        kind = rng.choice(sorted({k for k in pool if pool.count(k) == 4}))
        pool = [k for k in pool if k != kind]
        other.melds[s][i] = Meld("kong_concealed", (kind,) * 4)
    for s in others:
        size = sum(other.counts[s])
        hand, pool = pool[:size], pool[size:]
        other.counts[s] = [hand.count(k) for k in range(N_KINDS)]
        other._hand_changed(s)
    for i, tile in zip(slots, pool, strict=True):
        wall.tiles[i] = tile
    if other.drawn_tile is not None and other.current_seat != seat:
        other.drawn_tile = next(k for k in range(N_KINDS) if other.counts[other.current_seat][k])
    other.wall_tiles = tuple(rng.sample(list(other.wall_tiles), len(other.wall_tiles)))
    other._commitment = state.commitment  # public, and says nothing without the seed
    other.seed = "0" * 64  # the seed would give the whole wall away
    return other


def sampled_decisions(levels: list[str], seed: str, every: int = 3):
    """(state, seat) at every `every`-th decision of HANDS hands played by `levels`."""
    bots = [get_bot(level) for level in levels]
    n = 0
    for index in range(HANDS):
        state = GameState.new(dealer=index % 4, seed=hand_seed(seed, index))
        while state.phase != "ended":
            seat = state.pending_seats()[0]
            if n % every == 0:
                yield state, seat
            n += 1
            state.apply(bots[seat].choose(state, seat))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_decisions_do_not_depend_on_hidden_tiles(level):
    rng = random.Random(f"hidden-{level}")
    bot = get_bot(level)
    checked = kongs = 0
    for state, seat in sampled_decisions([level] * 4, f"hidden-{level}"):
        choice = bot.choose(state, seat)
        for _ in range(REDEALS):
            redealt = redeal_hidden(state, seat, rng)
            assert redealt.counts[seat] == state.counts[seat]
            assert bot.choose(redealt, seat) == choice, (state.seed, seat, state.phase)
        checked += 1
        kongs += any(m.kind == "kong_concealed" for s in range(4) if s != seat for m in state.melds[s])
    assert checked > 150


class _Peeker:
    """A bot that cheats: it discards the tile the next seat holds most of (if it holds one)."""

    level = "peeker"

    def choose(self, state, seat):
        legal = state.legal_actions(seat)
        discards = [a for a in legal if a.kind == "discard"]
        if not discards:
            return legal[0]
        theirs = state.counts[(seat + 1) % 4]
        return max(discards, key=lambda a: (theirs[a.tile], -a.tile))


def test_the_redeal_catches_a_bot_that_peeks():
    rng = random.Random("peek")
    bot = _Peeker()
    changed = 0
    for state, seat in sampled_decisions(["normal"] * 4, "peek", every=5):
        if state.phase != "turn":
            continue
        choice = bot.choose(state, seat)
        assert isinstance(choice, Action)
        changed += bot.choose(redeal_hidden(state, seat, rng), seat) != choice
    assert changed > 10


def test_the_redeal_keeps_the_public_table_and_the_tile_census():
    rng = random.Random("census")
    for state, seat in sampled_decisions(["normal"] * 4, "census", every=7):
        redealt = redeal_hidden(state, seat, rng)
        assert redealt.view(seat) == state.view(seat)
        assert redealt.census() == state.census()
        assert redealt.wall_remaining == state.wall_remaining
