"""Start and stop the pieces of a multi-process deployment: a fresh PostgreSQL database, a Redis
key prefix of its own, and any number of daphne processes on free ports.

Used by the multi-process test suite (`tests/multiprocess/`) and by the load benchmark
(`bench/ws_load.py`). Nothing here imports Django: the servers are separate processes configured
only through environment variables, exactly as in production.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

# The code the cluster runs: this checkout, or another one (bench/ws_load.py --compare runs one load
# generator against two revisions' servers).
REPO = Path(os.environ.get("SHMJ_CLUSTER_REPO") or Path(__file__).resolve().parents[2])
PG_HOST = os.environ.get("PGHOST", "127.0.0.1")
PG_PORT = int(os.environ.get("PGPORT", "5432"))
PG_USER = os.environ.get("PGUSER", "postgres")
REDIS_HOST = os.environ.get("REDIS_HOST", "127.0.0.1")
REDIS_PORT = int(os.environ.get("REDIS_PORT", "6379"))


class ClusterError(RuntimeError):
    """A service or server could not be started or reached."""


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def services_available() -> list[str]:
    """Names of the required services that do NOT answer (empty list: all up)."""
    missing = []
    if not port_open(PG_HOST, PG_PORT):
        missing.append(f"PostgreSQL on {PG_HOST}:{PG_PORT}")
    if not port_open(REDIS_HOST, REDIS_PORT):
        missing.append(f"Redis on {REDIS_HOST}:{REDIS_PORT}")
    return missing


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(predicate, *, timeout: float, what: str, interval: float = 0.05):
    """Poll `predicate` until it returns a truthy value; raise ClusterError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise ClusterError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(interval)


def _run(cmd: list[str], *, env: dict[str, str] | None = None, timeout: float = 180) -> str:
    result = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise ClusterError(f"{' '.join(cmd)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result.stdout


@dataclass
class Database:
    """A PostgreSQL database created for one run and dropped afterwards."""

    name: str

    @property
    def url(self) -> str:
        return f"postgres://{PG_USER}@{PG_HOST}:{PG_PORT}/{self.name}"

    @classmethod
    def create(cls, prefix: str = "shmj_mp") -> Database:
        db = cls(f"{prefix}_{secrets.token_hex(4)}")
        _run(["createdb", "-h", PG_HOST, "-p", str(PG_PORT), "-U", PG_USER, db.name])
        return db

    def drop(self) -> None:
        _run(
            ["dropdb", "-h", PG_HOST, "-p", str(PG_PORT), "-U", PG_USER, "--force", "--if-exists", self.name]
        )

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Run one SQL statement and return its rows (for assertions on what the servers stored)."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            cur = conn.execute(sql, params)
            return cur.fetchall() if cur.description else []


@dataclass
class DaphneServer:
    """One daphne process serving `shmj_site.asgi:application` on its own port."""

    name: str
    env: dict[str, str]
    log_dir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"{self.name}.log"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self, *, timeout: float = 60) -> None:
        """Start the process (on a new free port if the old one may still be held) and wait until it serves."""
        if self.alive():
            return
        if self.process is not None:
            self.port = free_port()
        log = open(self.log_path, "ab")  # noqa: SIM115 - handed to the child process, closed when it ends
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "shmj_site.asgi:application",
            ],
            cwd=REPO,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        wait_until(self._ready, timeout=timeout, what=f"daphne {self.name} on port {self.port}")

    def _ready(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise ClusterError(
                f"daphne {self.name} exited with {self.process.returncode}:\n{self.log_tail()}"
            )
        try:
            with urllib.request.urlopen(self.http_url + "/", timeout=2) as response:
                return response.status < 500
        except urllib.error.HTTPError as error:
            return error.code < 500
        except OSError:
            return False

    def kill(self) -> None:
        """`kill -9`: no clean shutdown, no goodbye to the clients."""
        if self.alive():
            os.kill(self.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if not self.alive():
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()

    def rss_kib(self) -> int:
        """Resident memory of the process, in KiB (0 when it is not running)."""
        if not self.alive():
            return 0
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


@dataclass
class Cluster:
    """One PostgreSQL database, one Redis prefix and `size` daphne processes sharing them."""

    database: Database
    redis_prefix: str
    log_dir: Path
    servers: list[DaphneServer] = field(default_factory=list)
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def redis_url(self) -> str:
        return f"redis://{REDIS_HOST}:{REDIS_PORT}/0"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
        env.update(
            DATABASE_URL=self.database.url,
            REDIS_URL=self.redis_url,
            CHANNEL_LAYER_PREFIX=self.redis_prefix,
            GAME_CLOCK_ENABLED="1",
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    @classmethod
    def create(
        cls, *, size: int, log_dir: Path, extra_env: dict[str, str] | None = None, collectstatic: bool = False
    ) -> Cluster:
        """Fresh database (migrated) and `size` running servers; `collectstatic` first for DEBUG=0."""
        missing = services_available()
        if missing:
            raise ClusterError(
                "required services are down: " + ", ".join(missing) + " (run scripts/services.sh)"
            )
        log_dir.mkdir(parents=True, exist_ok=True)
        cluster = cls(
            database=Database.create(),
            redis_prefix=f"shmj-mp-{secrets.token_hex(4)}",
            log_dir=log_dir,
            extra_env=dict(extra_env or {}),
        )
        try:
            cluster.manage("migrate", "--noinput")
            if collectstatic:
                cluster.manage("collectstatic", "--noinput")
            cluster.servers = [cluster._server(f"daphne-{i}") for i in range(size)]
            for server in cluster.servers:
                server.start()
        except BaseException:
            cluster.close()
            raise
        return cluster

    def _server(self, name: str) -> DaphneServer:
        # The PostgreSQL application_name tells which process wrote what (see tests' audit trigger).
        env = self.env() | {"DATABASE_URL": f"{self.database.url}?application_name={name}"}
        return DaphneServer(name=name, env=env, log_dir=self.log_dir)

    def manage(self, *args: str, stdin: str | None = None, timeout: float = 180) -> str:
        """Run `manage.py ARGS` against this cluster's database and Redis; return its stdout."""
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO,
            env=self.env(),
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0:
            raise ClusterError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result.stdout

    def seed(self, command: str, *, timeout: float = 180, **arguments) -> dict:
        """Run one set-up step of `tests/multiprocess/seed.py` inside this cluster's Django."""
        from tests.multiprocess.seed import MARKER

        out = self.manage(
            "shell",
            "-c",
            "from tests.multiprocess.seed import main; main()",
            stdin=json.dumps({"command": command, "arguments": arguments}),
            timeout=timeout,
        )
        for line in out.splitlines():
            if line.startswith(MARKER):
                return json.loads(line[len(MARKER) :])
        raise ClusterError(f"seed {command} printed no result:\n{out}")

    def ensure_running(self) -> None:
        for server in self.servers:
            server.start()

    def close(self) -> None:
        for server in self.servers:
            server.stop()
        try:
            self.database.drop()
        finally:
            self._forget_redis_keys()

    def _forget_redis_keys(self) -> None:
        import redis

        client = redis.Redis(host=REDIS_HOST, port=REDIS_PORT)
        try:
            keys = list(client.scan_iter(match=f"{self.redis_prefix}*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
