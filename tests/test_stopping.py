"""A server process told to stop, stops (shmj_site/stopping.py)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import urllib.request
from pathlib import Path

from shmj_site import stopping

REPO = Path(__file__).resolve().parent.parent

STUCK = textwrap.dedent(
    """
    import threading
    import django
    django.setup()
    from shmj_site import stopping

    def stuck_on_a_lock():
        threading.Event().wait()

    threading.Thread(target=stuck_on_a_lock).start()  # not a daemon: Python waits for it at exit
    stopping.start_watchdog(0.2)
    print("main thread done", flush=True)
    """
)


def test_the_watchdog_ends_a_process_a_stuck_thread_holds_and_says_where_it_was_stuck():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "shmj_site.settings"}
    done = subprocess.run(
        [sys.executable, "-c", STUCK], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "main thread done"
    assert done.returncode == stopping.FORCED_EXIT
    assert "did not stop within 0.2 s" in done.stderr
    assert "stuck_on_a_lock" in done.stderr  # the stuck thread's stack


class _Reactor:
    def __init__(self) -> None:
        self.triggers: list[tuple] = []

    def addSystemEventTrigger(self, phase, event, call, *args):  # noqa: N802 - Twisted's name
        self.triggers.append((phase, event, call, *args))


def test_a_daphne_process_arms_the_watchdog_when_its_shutdown_begins(monkeypatch, settings):
    reactor = _Reactor()
    monkeypatch.setitem(sys.modules, "twisted.internet.reactor", reactor)
    settings.SHUTDOWN_GRACE = 7
    assert stopping.arm_with_server()
    assert reactor.triggers == [("before", "shutdown", stopping.start_watchdog, 7.0)]


def test_no_watchdog_without_a_server_or_with_no_grace(monkeypatch, settings):
    monkeypatch.delitem(sys.modules, "twisted.internet.reactor", raising=False)
    assert not stopping.arm_with_server()
    reactor = _Reactor()
    monkeypatch.setitem(sys.modules, "twisted.internet.reactor", reactor)
    settings.SHUTDOWN_GRACE = 0
    assert not stopping.arm_with_server()
    assert reactor.triggers == []


def test_daphne_with_its_clock_running_stops_cleanly_on_sigterm(tmp_path):
    """The normal stop never needs the watchdog: exit code 0, well within the grace. daphne serves an
    inherited listening socket, so the first request waits in its backlog until the server runs."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "shmj_site.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'stop.sqlite3'}",
        "GAME_CLOCK_ENABLED": "1",
        "GAME_CLOCK_INTERVAL": "0.05",
        "SHUTDOWN_GRACE": "20",
        "DJANGO_DEBUG": "1",
    }
    env.pop("REDIS_URL", None)
    for args in (["migrate", "--noinput"], ["ensure_demo"]):
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=REPO, env=env, check=True, capture_output=True
        )
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    log = tmp_path / "daphne.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "--fd", str(listener.fileno()), "shmj_site.asgi:application"],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            pass_fds=[listener.fileno()],
        )
        listener.close()
        try:
            lobby = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60)
            assert lobby.status == 200
            server.send_signal(signal.SIGTERM)
            assert server.wait(timeout=60) == 0, log.read_text()
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
