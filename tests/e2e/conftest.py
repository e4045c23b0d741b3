"""A real daphne on a free port over a file-backed SQLite database, and Debian's chromium.

Run by `scripts/e2e.sh` as its own pytest invocation (pytest-playwright and pytest-asyncio cannot
share a run).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from shmj_site.stopping import FORCED_EXIT

from .pages import VISITOR

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ROOM_SETUP = (
    "from decimal import Decimal; from games.models import Room; "
    "Room.objects.update(bot_delay=Decimal('0'), claim_pause=Decimal('0'), discard_timeout=60, claim_timeout=8, "
    "ready_timeout=120)"  # the settlement stays open while a test looks at it (the clock deals after it)
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)  # polling a port while the server boots; not a test assertion
    raise RuntimeError("daphne did not start listening")


@pytest.fixture(scope="session")
def server_env(tmp_path_factory) -> dict[str, str]:
    """The environment of the test server: its database, settings and limits."""
    workdir = tmp_path_factory.mktemp("e2e")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "shmj_site.settings",
        "DATABASE_URL": f"sqlite:///{workdir / 'e2e.sqlite3'}",
        "GAME_CLOCK_ENABLED": "1",
        "GAME_CLOCK_INTERVAL": "0.05",
        "CLOCK_STEP_INTERVAL": "0.25",  # quick start and tournaments without waiting a second
        "DJANGO_DEBUG": "1",
        # The browser is driven at machine speed against bots with no think delay: past the
        # per-socket rate limit meant for people (tested in tests/games/test_consumers.py).
        "TABLE_SOCKET_BURST": "1000000",
        "TABLE_SOCKET_RATE": "1000000",
        # Every client here connects from 127.0.0.1 (tested in tests/games/test_live_limits.py).
        "SOCKETS_PER_ADDRESS": "0",
        "SPECTATORS_PER_ADDRESS_PER_TABLE": "0",
        # Every browser test signs a new player up from that one address: past the sign-up limit
        # meant for one person (tested in tests/accounts).
        "SIGNUP_ATTEMPTS_LIMIT": "1000",
        "SHUTDOWN_GRACE": "10",
    }
    env.pop("REDIS_URL", None)
    env["E2E_WORKDIR"] = str(workdir)
    return env


@pytest.fixture(scope="session")
def manage(server_env):
    """Run a manage.py command against the test server's database (to set up data a test needs)."""

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO,
            env=server_env,
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout

    return run


@pytest.fixture(scope="session")
def server_url(server_env):
    env = server_env
    workdir = Path(env["E2E_WORKDIR"])
    python = sys.executable
    for args in (["migrate", "--noinput"], ["ensure_demo"], ["shell", "-c", ROOM_SETUP]):
        subprocess.run([python, "manage.py", *args], cwd=REPO, env=env, check=True, capture_output=True)
    port = _free_port()
    log = open(workdir / "daphne.log", "w")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "shmj_site.asgi:application"],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        # The server ends itself SHUTDOWN_GRACE seconds after SIGTERM at the latest (tests/test_stopping.py);
        # a forced end is reported with the threads that held it, as a warning: these tests are about the pages.
        code = process.wait(timeout=float(env["SHUTDOWN_GRACE"]) + 30)
        log.close()
        print(f"daphne log: {workdir / 'daphne.log'}")
        if code == FORCED_EXIT:
            tail = (workdir / "daphne.log").read_text()[-6000:]
            warnings.warn(f"daphne did not stop within SHUTDOWN_GRACE; its log ends:\n{tail}", stacklevel=1)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """The browsers read the site in its default language, Chinese (a browser's Accept-Language picks
    the page's and the socket's language; Debian's chromium asks for en-US)."""
    return {**browser_context_args, **VISITOR}


@pytest.fixture(scope="session")
def results_dir() -> Path:
    path = REPO / "test-results"
    path.mkdir(exist_ok=True)
    return path
