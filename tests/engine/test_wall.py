"""The wall: seeded shuffle, dice, commitment, head/tail draws and the deal."""

import hashlib

import pytest

from games.engine import GameState, RuleError
from games.engine.tiles import FLOWER_BASE, format_tiles, full_set, parse_tiles
from games.engine.wall import SeedError, Wall, check_seed, commitment, new_seed, roll_dice, shuffled_wall

SEED_A = "ab" * 32
SEED_B = "cd" * 32


def test_new_seed_is_32_random_bytes_as_hex():
    seeds = {new_seed() for _ in range(5)}
    assert len(seeds) == 5
    for seed in seeds:
        assert len(bytes.fromhex(seed)) == 32


@pytest.mark.parametrize("bad", ["", "ab", "zz" * 32, "ab" * 33, 12, None])
def test_bad_seed_is_refused(bad):
    with pytest.raises(SeedError):
        check_seed(bad)


def test_wall_is_a_permutation_of_the_144_tiles_and_depends_only_on_the_seed():
    wall = shuffled_wall(SEED_A)
    assert sorted(wall) == sorted(full_set())
    assert shuffled_wall(SEED_A) == wall
    assert shuffled_wall(SEED_B) != wall
    assert wall != full_set()


def test_every_position_takes_many_tiles_across_seeds():
    """A crude uniformity check: over 200 seeds the first tile is not stuck on a few kinds."""
    firsts = {shuffled_wall(hashlib.sha256(str(i).encode()).hexdigest())[0] for i in range(200)}
    assert len(firsts) > 25


def test_dice_are_two_dice_from_the_seed():
    dice = roll_dice(SEED_A)
    assert dice == roll_dice(SEED_A)
    assert all(1 <= d <= 6 for d in dice)
    rolls = {roll_dice(hashlib.sha256(str(i).encode()).hexdigest()) for i in range(300)}
    assert len(rolls) == 36


def test_commitment_is_sha256_of_seed_and_wall_notation():
    wall = shuffled_wall(SEED_A)
    expected = hashlib.sha256(f"{SEED_A}:{format_tiles(wall)}".encode()).hexdigest()
    assert commitment(SEED_A, wall) == expected


def test_wall_draws_from_head_and_tail_until_empty():
    wall = Wall(parse_tiles("123m"))
    assert wall.draw_head() == parse_tiles("1m")[0]
    assert wall.draw_tail() == parse_tiles("3m")[0]
    assert wall.remaining == 1 and not wall.empty
    assert wall.draw_head() == parse_tiles("2m")[0]
    assert wall.empty


def test_new_hand_deals_14_and_13_with_flowers_replaced():
    state = GameState.new(dealer=2, seed=SEED_A)
    for seat in range(4):
        assert sum(state.counts[seat]) == (14 if seat == 2 else 13)
        assert all(t < FLOWER_BASE for t in state.hands[seat])
    n_flowers = sum(len(f) for f in state.flowers)
    assert state.wall_remaining == 144 - 53 - n_flowers
    assert state.census() == [4] * 34 + [1] * 8
    assert state.phase == "turn" and state.current_seat == 2 and state.drawn_tile is None
    assert state.dice == roll_dice(SEED_A)


def test_commitment_is_published_at_once_and_the_seed_only_at_the_end():
    state = GameState.new(seed=SEED_A)
    assert state.commitment == commitment(SEED_A, shuffled_wall(SEED_A))
    with pytest.raises(RuleError) as err:
        state.reveal()
    assert err.value.code == "illegal_action"
    assert SEED_A not in str(state.view(None)) and SEED_A not in str(state.view(0))
    while state.phase != "ended":
        seat = state.pending_seats()[0]
        state.apply(state.timeout_action(seat))
    revealed = state.reveal()
    assert revealed["seed"] == SEED_A
    recomputed = hashlib.sha256(f"{revealed['seed']}:{revealed['wall']}".encode()).hexdigest()
    assert recomputed == revealed["commitment"] == state.commitment
    assert parse_tiles(revealed["wall"]) == shuffled_wall(SEED_A)
