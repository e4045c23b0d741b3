"""The ASGI entry point tunes garbage collection for a long-running server (shmj_site/asgi.py).

Each case imports the entry point in a fresh interpreter, so the test process's own collector is
left alone.
"""

import os
import subprocess
import sys

from tests.conftest import REPO

REPORT = "import gc, shmj_site.asgi; print(*gc.get_threshold(), gc.get_freeze_count() > 0)"


def _thresholds_after_import(extra_env: dict[str, str]) -> str:
    env = {key: value for key, value in os.environ.items() if key != "GC_GEN0_THRESHOLD"}
    env.update(extra_env)
    result = subprocess.run(
        [sys.executable, "-c", REPORT], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_server_collects_young_objects_less_often_and_freezes_startup_objects():
    assert _thresholds_after_import({}) == "20000 50 100 True"
    assert _thresholds_after_import({"GC_GEN0_THRESHOLD": "5000"}) == "5000 50 100 True"


def test_zero_keeps_cpythons_defaults():
    assert _thresholds_after_import({"GC_GEN0_THRESHOLD": "0"}) == "700 10 10 False"
