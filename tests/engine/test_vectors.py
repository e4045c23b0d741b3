"""Every scoring case of tests/engine/cases (standard, lazi, home), the score command as a subprocess,
and — when the rules folder `../shared/rules/vectors` sits beside the checkout — that every case there is
in the project's copy with the same expectation (so new public cases reach the project)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from games.engine.score_cmd import score_case
from tests.conftest import REPO, shared_vectors_dir

CASES_DIR = REPO / "tests" / "engine" / "cases"
PRESET_FILES = ("standard", "lazi", "home")


def _load(name: str) -> list[dict]:
    return json.loads((CASES_DIR / f"{name}.json").read_text(encoding="utf-8"))


CASES = _load("standard")
OTHER_PRESETS = [c for name in PRESET_FILES[1:] for c in _load(name)]


@pytest.mark.parametrize("case", CASES + OTHER_PRESETS, ids=[c["name"] for c in CASES + OTHER_PRESETS])
def test_vector_case(case):
    got = score_case(case)
    for field, expected in case["expect"].items():
        assert got[field] == expected, f"{case['name']}: {field}"
    assert sum(got["payments"]) == 0


def test_score_command_subprocess():
    path = CASES_DIR / "standard.json"
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "score", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [line["name"] for line in lines] == [c["name"] for c in CASES]
    for case, line in zip(CASES, lines, strict=True):
        assert set(line) == {"name", "legal", "pattern", "features", "hua", "value", "payments"}
        for field, expected in case["expect"].items():
            assert line[field] == expected, f"{case['name']}: {field}"


def test_every_shared_case_is_in_the_project_copy():
    vectors = shared_vectors_dir()
    if vectors is None:
        pytest.skip("no ../shared/rules/vectors beside the checkout")
    ours = {c["name"]: c for path in CASES_DIR.glob("*.json") for c in json.loads(path.read_text("utf-8"))}
    theirs = sorted(vectors.glob("*.json"))
    assert theirs, f"{vectors} holds no case files"
    for path in theirs:
        for case in json.loads(path.read_text(encoding="utf-8")):
            assert case["name"] in ours, f"{path.name}: case {case['name']!r} missing from {CASES_DIR}"
            assert ours[case["name"]] == case, f"{path.name}: case {case['name']!r} differs from the copy"
