"""`simulate`: whole bot hands with per-hand checks, and its command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import GameState
from games.engine.__main__ import main
from games.engine.bots import get_bot
from games.engine.simulate import SimulationError, check_hand, hand_seed, play_hand, simulate


def test_simulate_summary_adds_up():
    summary = simulate(12, "test-seed", ["easy"] * 4)
    assert summary["hands"] == 12
    wins = sum(summary["wins_by_pattern"].values())
    assert wins >= 12 - summary["draws"]
    row = summary["per_level"]["easy"]
    assert row["seat_hands"] == 48
    assert row["avg_gain"] == 0  # four identical bots: every hand is zero-sum among them
    assert row["draw_rate"] == pytest.approx(summary["draws"] / 12, abs=1e-4)
    assert summary["decision_p99_ms"] > 0 and summary["hands_per_second"] > 0


def test_simulate_is_reproducible_from_its_seed():
    first = simulate(6, "again", ["easy"] * 4)
    second = simulate(6, "again", ["easy"] * 4)
    for key in ("wins_by_pattern", "features", "draws", "huangfan_hands", "per_level"):
        assert first[key] == second[key]


def test_hand_seeds_are_distinct_valid_seeds():
    seeds = {hand_seed("s", i) for i in range(50)}
    assert len(seeds) == 50 and all(len(bytes.fromhex(s)) == 32 for s in seeds)


def test_easy_bot_only_ever_returns_legal_actions():
    bot = get_bot("easy")
    state = GameState.new(seed=hand_seed("legal", 0))
    while state.phase != "ended":
        seat = state.pending_seats()[0]
        action = bot.choose(state, seat)
        assert action in state.legal_actions(seat)
        state.apply(action)
    check_hand(state, 0)


def test_easy_bot_always_takes_a_win():
    state = GameState.from_setup(
        hands=["159m159p159s1234z5z", "234m567m88m111z22z", "4567m4567p34567s", "123456789s3z444z"],
        wall="2z",
    )
    state.apply(state.legal_actions(0)[-1])
    assert get_bot("easy").choose(state, 1).kind == "self_win"


def test_check_hand_catches_a_broken_hand():
    state = play_hand(GameState.new(seed=hand_seed("broken", 0)), [get_bot("easy")] * 4)
    check_hand(state, 0)
    state.counts[0][0] += 1
    with pytest.raises(SimulationError):
        check_hand(state, 0)


def test_unknown_bot_level_is_refused():
    with pytest.raises(ValueError):
        get_bot("grandmaster")


def test_command_prints_one_json_summary(capsys):
    assert main(["simulate", "--hands", "3", "--seed", "cli"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and json.loads(out[0])["hands"] == 3


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--hands", "0"],
        ["simulate", "--hands", "many"],
        ["simulate", "--hands", "2", "--bots", "easy,easy"],
        ["simulate", "--hands", "2", "--bots", "easy,nobody,easy,easy"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("simulate:")


def test_module_entry_point_rejects_a_non_number():
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "simulate", "--hands", "many"],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["simulate: --hands must be a positive integer, not 'many'"]


@pytest.mark.parametrize("preset", ["lazi", "home"])
def test_preset_and_options_reach_the_hands(preset, capsys):
    argv = [
        "simulate",
        "--hands",
        "4",
        "--seed",
        "opt",
        "--preset",
        preset,
        "--options",
        '{"payment": "chu_chong"}',
    ]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["rules"]["preset"] == preset and summary["rules"]["payment"] == "chu_chong"
    assert summary["hands"] == 4


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--preset", "riichi"], "rules.preset"),
        (["--options", "{"], "--options must be a JSON object"),
        (["--options", "[1]"], "--options must be a JSON object"),
        (["--options", '{"moon_rule": 1}'], "unknown rules option(s): moon_rule"),
        (["--options", '{"preset": "lazi"}'], "--preset"),
    ],
)
def test_bad_preset_or_options_exit_2_with_one_line(extra, message, capsys):
    assert main(["simulate", "--hands", "1", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("simulate:") and message in err[0]


def test_garden_runs_matches_whose_stacks_keep_their_total(capsys):
    argv = ["simulate", "--hands", "40", "--seed", "g", "--preset", "home", "--options", '{"garden": 30}']
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert sum(summary["garden"]["stacks"]) == 4 * 30
    assert all(x >= 0 for x in summary["garden"]["stacks"])
    assert summary["garden"]["matches_finished"] >= 1  # 40 hands: at least one match of 16 dealer changes
