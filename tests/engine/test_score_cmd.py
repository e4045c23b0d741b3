"""`python -m games.engine score FILE`: output shape and strict, traceback-free errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from games.engine.__main__ import main
from tests.conftest import REPO

GOOD = {
    "name": "hunyise",
    "winner": 1,
    "win": "discard",
    "from": 2,
    "hand": "123456789m1z",
    "melds": [{"type": "pong", "tiles": "777z", "from": 3}],
    "flowers": "12f",
    "winning_tile": "1z",
}


def run(tmp_path, capsys, cases, raw=None):
    path = tmp_path / "cases.json"
    path.write_text(raw if raw is not None else json.dumps(cases), encoding="utf-8")
    code = main(["score", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_prints_one_json_line_per_case(tmp_path, capsys):
    second = GOOD | {"name": "selfdraw", "win": "self_draw", "from": None, "dice": [3, 3]}
    code, out, err = run(tmp_path, capsys, [GOOD, second])
    assert (code, err) == (0, "")
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0] == {
        "name": "hunyise",
        "legal": True,
        "pattern": "hunyise",
        "features": [],
        "hua": 4,
        "value": 6,
        "payments": [0, 6, -6, 0],
    }
    assert lines[1]["payments"] == [-12, 36, -12, -12]


def test_options_reach_the_rules(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, [GOOD | {"options": {"payment": "bao_chong"}}])
    assert code == 0 and json.loads(out)["payments"] == [0, 18, -18, 0]


@pytest.mark.parametrize(
    ("raw", "message"),
    [("[{", "not valid JSON"), (json.dumps({"name": "x"}), "JSON list")],
)
def test_unreadable_file_is_one_line_and_exit_2(tmp_path, capsys, raw, message):
    code, out, err = run(tmp_path, capsys, None, raw)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (GOOD | {"preset": "riichi"}, "preset"),
        (GOOD | {"flowers": "5z"}, "only flower tiles"),
        (GOOD | {"hand": "123456789x1z"}, "unexpected character"),
        (GOOD | {"hand": "111112345678m"}, "more than 4 copies"),
        (GOOD | {"flowers": "11f"}, "more than 1 copies of 1f"),
        (GOOD | {"hand": "12345678m1z"}, "hand size"),
        (GOOD | {"colour": "red"}, "unknown field"),
        (GOOD | {"melds": [{"type": "pong", "tiles": "667z", "from": 3}]}, "identical"),
        (GOOD | {"options": {"payment": "nobody"}}, "rules.payment"),
        (GOOD | {"options": {"moon_rule": True}}, "unknown rules option"),
        (GOOD | {"from": 1}, "own discard"),
        (GOOD | {"winner": "one"}, "winner"),
        (GOOD | {"dice": 7}, "dice"),
        ({"hand": "1m"}, "name"),
        ("not a case", "JSON object"),
    ],
)
def test_a_bad_case_gets_its_own_error_line_and_the_others_are_scored(tmp_path, capsys, case, message):
    after = GOOD | {"name": "after"}
    if isinstance(case, dict) and "name" in case:
        case = case | {"name": "bad"}
    code, out, err = run(tmp_path, capsys, [GOOD, case, after])
    assert code == 1 and err == ""
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 3
    assert lines[0]["name"] == "hunyise" and lines[0]["payments"] == [0, 6, -6, 0]
    assert set(lines[1]) == {"name", "error"} and message in lines[1]["error"]
    assert lines[1]["name"] == (case.get("name") if isinstance(case, dict) else None)
    assert lines[2] == lines[0] | {"name": "after"}


def test_duplicate_names_are_error_lines(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, [GOOD, GOOD | {"name": "other"}, GOOD])
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [line.get("error", "").startswith("duplicate") for line in lines] == [True, False, True]


def test_missing_file(capsys, tmp_path):
    assert main(["score", str(tmp_path / "absent.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_bad_arguments_exit_2_without_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "score"], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "score", "/nonexistent/cases.json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("score: cannot read") and proc.stderr.count("\n") == 1
