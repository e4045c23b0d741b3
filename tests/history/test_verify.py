"""`games.engine.verify` and `python -m games.engine verify`: strict input, real checks, exit codes."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from games.engine.bots import get_bot
from games.engine.rules import Rules
from games.engine.simulate import play_hand
from games.engine.state import GameState
from games.engine.verify import (
    ExportError,
    VerifyFailed,
    commitment_of,
    loads_export,
    parse_export,
    verify_export,
)
from tests.conftest import REPO


def finished_export(seed_text: str = "verify", dealer: int = 1) -> dict:
    seed = hashlib.sha256(seed_text.encode()).hexdigest()
    state = GameState.new(Rules(), dealer=dealer, huangfan=0, stake=1, seed=seed)
    play_hand(state, [get_bot("easy") for _ in range(4)])
    reveal = state.reveal()
    return {
        "seed": reveal["seed"],
        "rules": state.rules.to_json(),
        "dealer": dealer,
        "huangfan": 0,
        "stake": 1,
        "actions": [str(a) for a in state.actions],
        "commitment": reveal["commitment"],
        "wall": reveal["wall"],
    }, state


def test_a_finished_hand_verifies_and_replays_to_the_same_result():
    data, state = finished_export()
    report = verify_export(parse_export(data))
    assert report.result.to_json() == state.result.to_json()
    assert report.summary().startswith("ok: commitment " + data["commitment"])
    assert commitment_of(data["seed"], data["wall"]) == data["commitment"]


def test_a_changed_seed_breaks_the_commitment():
    data, _ = finished_export()
    data["seed"] = ("1" if data["seed"][0] != "1" else "2") + data["seed"][1:]
    with pytest.raises(VerifyFailed, match="commitment"):
        verify_export(parse_export(data))


def test_a_wall_not_shuffled_from_the_seed_fails_even_with_a_matching_hash():
    data, _ = finished_export()
    tiles = data["wall"]
    other, _ = finished_export("another seed")
    data["wall"] = other["wall"]
    data["commitment"] = commitment_of(data["seed"], data["wall"])
    assert data["wall"] != tiles
    with pytest.raises(VerifyFailed, match="not the one this seed shuffles"):
        verify_export(parse_export(data))


def test_an_unfinished_hand_fails():
    data, _ = finished_export()
    data["actions"] = data["actions"][:-1]
    with pytest.raises(VerifyFailed, match="not finished"):
        verify_export(parse_export(data))


def test_a_refused_action_fails_with_its_position():
    data, _ = finished_export(dealer=1)
    data["actions"] = ["3:self_win", *data["actions"]]  # seat 3 cannot win before the dealer moves
    with pytest.raises(VerifyFailed, match=r"action 1 \("):
        verify_export(parse_export(data))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("wall"), "missing key"),
        (lambda d: d.update(extra=1), "unknown key"),
        (lambda d: d.update(seed="xyz"), "seed"),
        (lambda d: d.update(dealer=4), "dealer"),
        (lambda d: d.update(dealer=True), "dealer"),
        (lambda d: d.update(stake=0), "stake"),
        (lambda d: d.update(rules={"preset": "nope"}), "rules"),
        (lambda d: d.update(rules={"colour": 1}), "rules"),
        (lambda d: d.update(actions="0:pass"), "actions"),
        (lambda d: d.update(actions=["0:fly:5p"]), "action 1"),
        (lambda d: d.update(actions=[7]), "action 1"),
        (lambda d: d.update(commitment="ABC"), "commitment"),
        (lambda d: d.update(wall="123m"), "144"),
        (lambda d: d.update(wall="11111m" + d["wall"][:-1]), "wall"),
        (lambda d: d.update(wall=5), "wall"),
    ],
)
def test_malformed_exports_are_refused_with_one_line(change, message):
    data, _ = finished_export()
    change(data)
    with pytest.raises(ExportError, match=message) as info:
        parse_export(data)
    assert "\n" not in str(info.value)


def test_not_json_and_not_an_object_are_refused():
    with pytest.raises(ExportError, match="not JSON"):
        loads_export("{nope")
    with pytest.raises(ExportError, match="JSON object"):
        loads_export("[1, 2]")


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "verify", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_command_exit_codes(tmp_path):
    data, _ = finished_export()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data))
    out = _run(str(good))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok: commitment ")

    data["commitment"] = "0" * 64
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    out = _run(str(tampered))
    assert out.returncode == 1
    assert out.stderr.startswith("verify: FAILED:") and out.stderr.count("\n") == 1

    broken = tmp_path / "broken.json"
    broken.write_text("{")
    for path in (str(broken), str(tmp_path / "missing.json")):
        out = _run(path)
        assert out.returncode == 2
        assert out.stderr.startswith("verify: bad input:") and "Traceback" not in out.stderr
