"""Every case of shared/rules/vectors (standard, lazi, home), and the score command as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.score_cmd import score_case
from tests.conftest import REPO, _shared_dir

VECTORS = _shared_dir() / "rules" / "vectors"
CASES = json.loads((VECTORS / "standard.json").read_text(encoding="utf-8"))
OTHER_PRESETS = [
    c for name in ("lazi", "home") for c in json.loads((VECTORS / f"{name}.json").read_text("utf-8"))
]


@pytest.mark.parametrize("case", CASES + OTHER_PRESETS, ids=[c["name"] for c in CASES + OTHER_PRESETS])
def test_vector_case(case):
    got = score_case(case)
    for field, expected in case["expect"].items():
        assert got[field] == expected, f"{case['name']}: {field}"
    assert sum(got["payments"]) == 0


def test_score_command_subprocess(shared_dir: Path):
    path = shared_dir / "rules" / "vectors" / "standard.json"
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
