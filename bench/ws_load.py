"""Websocket load benchmark: N tables x 4 scripted players at a set pace (a benchmark, not a test).

    .venv/bin/python bench/ws_load.py --tables 200 --pace 2 --duration 60 --processes 1
    .venv/bin/python bench/ws_load.py --tables 400 --pace 2 --duration 60 --processes 2

It creates a fresh PostgreSQL database and a Redis prefix, starts `--processes` daphne processes
(production-like: DJANGO_DEBUG=0, each running the game clock), seats four people at each table and
connects their websockets, routed to the processes the way the sample nginx config does (`--route
table`, the default: all of a table's sockets on one process, chosen by table id, like nginx's
`hash $table_id consistent`) or spread round-robin socket by socket (`--route socket`: every process
renders every table's updates, the worst case for scaling). Then every table plays one action every
`--pace` seconds (the seat that is asked acts: discard the drawn tile, pass a claim, win when it can,
deal the next hand when one ends), each table at its own phase.

Printed: actions per second, the latency from sending an action to the LAST of the table's four
clients receiving the update that carries it (p50/p95/p99/max; a client that nothing changed for
gets no frame and is not waited for: the action is delivered once its actor has it), errors
(refusals, lost sockets, updates not seen within --patience seconds), the server processes' memory
(RSS) and CPU, the load generator's own CPU (it shares the machine), and the bytes each player
socket and each spectator socket received per action (p50/p95/mean over every socket and action).
Needs PostgreSQL and Redis (scripts/services.sh).

`--spectators N` adds N anonymous watching sockets per table (they read every frame; the latency is
still the four players'). `--compare REV` checks REV out into a temporary git worktree and runs this
benchmark's servers there and here alternately (`--repeat` times each, same arguments, this load
generator for both), then prints both sides' p95, server CPU and bytes per action: a side-by-side
figure on a shared host.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import websockets  # noqa: E402

from tests.multiprocess.cluster import Cluster, ClusterError, DaphneServer  # noqa: E402

# The frame's version: its stamp's (#frame-stamp), or the board's in a revision before the stamp.
VERSION_RE = re.compile(r'data-version="(\d+)"')
ACTION_RE = re.compile(r'name="action" value="(\d:[a-z_]+(?::[0-9a-z]+)?)"')
NEXT_HAND_RE = re.compile(r'name="command" value="next_hand"')
ERROR_RE = re.compile(r'data-error-code="([a-z_]+)"')
PREFERENCE = ("self_win", "win", "pass")
CONNECT_BATCH = 20


def choose(actions: list[str]) -> str | None:
    """The scripted player: win when it can, pass every claim, otherwise discard the drawn tile."""
    if not actions:
        return None
    for kind in PREFERENCE:
        for action in actions:
            if action.split(":")[1] == kind:
                return action
    discards = [a for a in actions if a.split(":")[1] == "discard"]
    return discards[-1] if discards else actions[0]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    lost_sockets: int = 0
    unseen: int = 0
    frames: int = 0
    spectator_frames: int = 0
    player_bytes: list[int] = field(default_factory=list)  # per player socket per action
    spectator_bytes: list[int] = field(default_factory=list)  # per spectator socket per action

    @property
    def errors(self) -> int:
        return sum(self.refused.values()) + self.lost_sockets + self.unseen


class Player:
    """One seat's websocket: remembers the newest version and the actions it is offered."""

    def __init__(self, table: Table, seat: int, url: str, origin: str, session: str) -> None:
        self.table, self.seat, self.url, self.origin, self.session = table, seat, url, origin, session
        self.version = -1
        self.actions: list[str] = []
        self.next_hand = False
        self.ws = None
        self.received = 0  # bytes since the table's last action

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            self.url,
            origin=self.origin,
            additional_headers={"Cookie": f"sessionid={self.session}"},
            open_timeout=60,
            max_size=2**22,
            ping_interval=None,
        )

    async def read(self, stats: Stats) -> None:
        try:
            async for message in self.ws:
                stats.frames += 1
                self.received += len(message.encode())
                found = VERSION_RE.search(message)
                if found is None:
                    error = ERROR_RE.search(message)
                    if error:
                        stats.refused[error.group(1)] = stats.refused.get(error.group(1), 0) + 1
                        self.table.refused()
                    continue
                version = int(found.group(1))
                if version <= self.version:
                    continue
                self.version = version
                # A frame carries the regions that changed: the offered actions are the controls' (the
                # discards in the hand, the rest in the action bar, a region of its own inside them).
                if 'id="controls"' in message:
                    self.actions = ACTION_RE.findall(message)
                elif 'id="controls-bar"' in message:
                    discards = [a for a in self.actions if ":discard:" in a]
                    self.actions = discards + ACTION_RE.findall(message)
                if 'id="settlement"' in message:
                    self.next_hand = bool(NEXT_HAND_RE.search(message))
                self.table.seen(self.seat, version)
        except websockets.ConnectionClosed:
            pass
        if not self.table.closing:
            stats.lost_sockets += 1

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))


class Spectator:
    """One anonymous watcher's websocket: reads and counts frames."""

    def __init__(self, url: str, origin: str) -> None:
        self.url, self.origin = url, origin
        self.ws = None
        self.received = 0  # bytes since the table's last action

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            self.url, origin=self.origin, open_timeout=60, max_size=2**22, ping_interval=None
        )

    async def read(self, stats: Stats) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for message in self.ws:
                stats.spectator_frames += 1
                self.received += len(message.encode())


class Table:
    """Drives one table: one action every `pace` seconds, and measures how long its update takes
    to reach all four players."""

    def __init__(self, table_id: int, stats: Stats, pace: float, patience: float) -> None:
        self.table_id, self.stats, self.pace, self.patience = table_id, stats, pace, patience
        self.players: list[Player] = []
        self.spectators: list[Spectator] = []
        self.target: int | None = None
        self.sent_at = 0.0
        self.actor: int | None = None
        self.arrived: dict[int, float] = {}  # seat -> when its update of the last action came
        self.done = asyncio.Event()
        self.changed = asyncio.Event()
        self.closing = False

    def seen(self, seat: int, version: int) -> None:
        if self.target is not None and version >= self.target and seat not in self.arrived:
            self.arrived[seat] = time.monotonic()
            if seat == self.actor:
                self.done.set()
        self.changed.set()

    def refused(self) -> None:
        self.done.set()  # the action will not produce an update: move on to the next one

    def _next_move(self) -> tuple[Player, dict] | None:
        """The seat asked, by what its socket shows (a socket shows the version of its last frame;
        its offered actions are still good: any change of them comes in a frame)."""
        for player in sorted(self.players, key=lambda p: -p.version):
            action = choose(player.actions)
            if action is not None:
                return player, {"action": action, "version": str(player.version)}
            if player.next_hand:
                return player, {"command": "next_hand", "version": str(player.version)}
        return None

    def _account(self, measuring: bool) -> None:
        """Close the last action's books: its latency (to the last client its update reached) and
        the bytes every socket received since it was sent."""
        if self.target is not None and self.actor in self.arrived:
            self.stats.latencies.append(max(self.arrived.values()) - self.sent_at)
        for socket in [*self.players, *self.spectators]:
            if measuring and self.target is not None:
                samples = (
                    self.stats.player_bytes if isinstance(socket, Player) else self.stats.spectator_bytes
                )
                samples.append(socket.received)
            socket.received = 0

    async def run(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        next_slot = loop.time() + random.uniform(0, self.pace)
        self._account(measuring=False)
        while loop.time() < until:
            await asyncio.sleep(max(0.0, next_slot - loop.time()))
            next_slot += self.pace
            move = self._next_move()
            if move is None:  # nobody is asked right now (e.g. a ready check): look again next slot
                continue
            player, message = move
            self._account(measuring=True)
            self.target = max(p.version for p in self.players) + 1
            self.actor = player.seat
            self.arrived = {}
            self.done.clear()
            self.sent_at = time.monotonic()
            self.stats.actions += 1
            await player.send(message)
            try:
                await asyncio.wait_for(self.done.wait(), timeout=self.patience)
            except TimeoutError:
                self.stats.unseen += 1
        self._account(measuring=True)
        self.target = None


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def sample_memory(servers: list[DaphneServer], peaks: dict[str, int], stop: asyncio.Event) -> None:
    while not stop.is_set():
        for server in servers:
            peaks[server.name] = max(peaks.get(server.name, 0), server.rss_kib())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=1.0)


async def run_load(cluster: Cluster, seeded: dict, args: argparse.Namespace) -> dict:
    stats = Stats()
    servers = cluster.servers
    tables = []
    index = 0
    for info in seeded["tables"]:
        table = Table(info["table_id"], stats, args.pace, args.patience)
        for seat, session in enumerate(info["sessions"]):
            if args.route == "table":
                server = servers[info["table_id"] % len(servers)]
            else:
                server = servers[index % len(servers)]
            index += 1
            url = f"{server.ws_url}/ws/table/{info['table_id']}/"
            table.players.append(Player(table, seat, url, server.http_url, session))
        tables.append(table)
    players = [p for t in tables for p in t.players]
    started = time.monotonic()
    readers = []
    # Not measured: connect in small batches, each waiting for its snapshots, so that no handshake
    # waits past daphne's 5 s websocket connect timeout.
    for batch in range(0, len(players), CONNECT_BATCH):
        group = players[batch : batch + CONNECT_BATCH]
        await asyncio.gather(*(p.connect() for p in group))
        readers += [asyncio.create_task(p.read(stats)) for p in group]
        for player in group:
            while player.version < 0:
                player.table.changed.clear()
                await asyncio.wait_for(player.table.changed.wait(), timeout=60)
    watchers = []
    for table in tables:
        server = servers[table.table_id % len(servers)]
        table.spectators = [
            Spectator(f"{server.ws_url}/ws/table/{table.table_id}/", server.http_url)
            for _ in range(args.spectators)
        ]
        watchers += table.spectators
    for batch in range(0, len(watchers), CONNECT_BATCH):
        group = watchers[batch : batch + CONNECT_BATCH]
        await asyncio.gather(*(w.connect() for w in group))
        readers += [asyncio.create_task(w.read(stats)) for w in group]
    connect_seconds = time.monotonic() - started
    print(
        f"connected {len(players)} player and {len(watchers)} spectator websockets in {connect_seconds:.1f}s;"
        " starting the tables",
        flush=True,
    )

    await asyncio.to_thread(
        cluster.seed,
        "start",
        timeout=1800,
        table_ids=[t["table_id"] for t in seeded["tables"]],
        players=[t["user_ids"] for t in seeded["tables"]],
    )
    # Every player has the dealt hand before the clock starts.
    for table in tables:
        while min(p.version for p in table.players) < 0 or not any(p.actions for p in table.players):
            table.changed.clear()
            await asyncio.wait_for(table.changed.wait(), timeout=60)

    peaks: dict[str, int] = {}
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(servers, peaks, stop))
    cpu_before = {s.name: cpu_seconds(s.pid) for s in servers}
    own_before = resource.getrusage(resource.RUSAGE_SELF)
    stats.latencies.clear()
    stats.player_bytes.clear()
    stats.spectator_bytes.clear()
    stats.actions = 0
    began = time.monotonic()
    until = asyncio.get_running_loop().time() + args.duration
    await asyncio.gather(*(t.run(until) for t in tables))
    elapsed = time.monotonic() - began
    own_after = resource.getrusage(resource.RUSAGE_SELF)
    cpu_after = {s.name: cpu_seconds(s.pid) for s in servers}
    stop.set()
    await sampler

    for table in tables:
        table.closing = True
    await asyncio.gather(*(p.ws.close() for p in [*players, *watchers]), return_exceptions=True)
    await asyncio.gather(*readers, return_exceptions=True)
    return {
        "stats": stats,
        "elapsed": elapsed,
        "peaks": peaks,
        "cpu": {name: (cpu_after[name] - cpu_before[name]) / elapsed for name in cpu_after},
        "own_cpu": (own_after.ru_utime + own_after.ru_stime - own_before.ru_utime - own_before.ru_stime)
        / elapsed,
    }


def report(args: argparse.Namespace, result: dict) -> None:
    stats: Stats = result["stats"]
    ms = [x * 1000 for x in stats.latencies]
    print(
        f"\nws_load: {args.tables} tables x 4 clients + {args.spectators} spectators, "
        f"{args.processes} daphne process(es) "
        f"(sockets routed by {args.route}), "
        f"one action per table every {args.pace:g}s, {result['elapsed']:.0f}s measured"
    )
    print(
        f"  actions/s        {stats.actions / result['elapsed']:.1f}  ({stats.actions} actions, {len(ms)} delivered to all 4)"
    )
    print(
        f"  latency ms       p50 {percentile(ms, 50):.1f}  p95 {percentile(ms, 95):.1f}  "
        f"p99 {percentile(ms, 99):.1f}  max {max(ms, default=float('nan')):.1f}"
        f"  mean {statistics.fmean(ms) if ms else float('nan'):.1f}"
    )
    refused = ", ".join(f"{code} {n}" for code, n in sorted(stats.refused.items())) or "none"
    print(
        f"  errors           {stats.errors}  (refused: {refused}; lost sockets {stats.lost_sockets}; "
        f"not delivered within {args.patience:g}s {stats.unseen})"
    )
    for name, peak in sorted(result["peaks"].items()):
        print(
            f"  {name:<16} peak RSS {peak / 1024:.0f} MiB, CPU {result['cpu'][name] * 100:.0f}% of one core"
        )
    print(f"  load generator   CPU {result['own_cpu'] * 100:.0f}% of one core")
    actions_per_s = stats.actions / result["elapsed"]
    if actions_per_s:
        server_ms = sum(result["cpu"].values()) * 1000 / actions_per_s
        print(f"  server CPU       {server_ms:.1f} ms per action (all daphne processes together)")
        if stats.actions:
            print(f"  frames           {stats.frames / stats.actions / 4:.2f} per player per action")
    for name, samples in (("player", stats.player_bytes), ("spectator", stats.spectator_bytes)):
        if samples:
            print(
                f"  bytes/{name:<9}  p50 {percentile(samples, 50):.0f}  p95 {percentile(samples, 95):.0f}"
                f"  mean {statistics.fmean(samples):.0f} per socket per action"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between two actions at one table")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of measured play")
    parser.add_argument("--processes", type=int, default=1, help="daphne processes to start")
    parser.add_argument(
        "--patience", type=float, default=10.0, help="seconds before an update counts as lost"
    )
    parser.add_argument(
        "--route",
        choices=("table", "socket"),
        default="table",
        help="sockets to processes: by table id (as deploy/nginx.conf does) or round-robin per socket",
    )
    parser.add_argument("--seed", type=int, default=1, help="random phase of the tables")
    parser.add_argument(
        "--env", action="append", default=[], metavar="NAME=VALUE", help="extra environment for the servers"
    )
    parser.add_argument("--spectators", type=int, default=0, help="anonymous watching sockets per table")
    parser.add_argument(
        "--claim-pause",
        type=float,
        metavar="SECONDS",
        help="the room's uniform pause after a discard (default: the room's default); 0 draws at once",
    )
    parser.add_argument("--compare", metavar="REV", help="run here and at git revision REV alternately")
    parser.add_argument("--repeat", type=int, default=2, help="runs per side with --compare")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.processes < 1 or args.pace <= 0 or args.duration <= 0:
        parser.error("--tables, --processes, --pace and --duration must be positive")
    if args.compare:
        return compare(args, sys.argv[1:] if argv is None else argv)
    random.seed(args.seed)

    log_dir = Path(os.environ.get("WS_LOAD_LOG_DIR", "/tmp/ws_load_logs"))
    env = {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "ws-load-benchmark-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_LOG_LEVEL": "ERROR",
        # Every scripted client connects from this machine's one address.
        "SOCKETS_PER_ADDRESS": "0",
        "SPECTATORS_PER_ADDRESS_PER_TABLE": "0",
        "SPECTATORS_PER_TABLE": str(max(200, args.spectators)),
    }
    for item in args.env:
        name, sep, value = item.partition("=")
        if not sep or not name:
            parser.error(f"--env takes NAME=VALUE, not {item!r}")
        env[name] = value
    try:
        print(
            f"starting {args.processes} daphne process(es) on a fresh database (logs in {log_dir})",
            flush=True,
        )
        cluster = Cluster.create(size=args.processes, log_dir=log_dir, extra_env=env, collectstatic=True)
    except ClusterError as error:
        print(f"ws_load: {error}", file=sys.stderr)
        return 2
    try:
        # Nobody times out, and the clock never deals the next hand for the players before they press.
        room = {"discard_timeout": 600, "claim_timeout": 600, "ready_timeout": 600, "bot_delay": 1}
        if args.claim_pause is not None:
            room["claim_pause"] = args.claim_pause
        seeded = cluster.seed("tables", timeout=1800, count=args.tables, humans=4, room=room)
        result = asyncio.run(run_load(cluster, seeded, args))
    finally:
        cluster.close()
    report(args, result)
    return 0


FIGURES_RE = re.compile(r"p95 ([0-9.]+).*?server CPU\s+([0-9.]+) ms per action", re.S)
BYTES_RE = re.compile(r"bytes/player\s+p50 (\d+)\s+p95 (\d+)")


def _without_compare(argv: list[str]) -> list[str]:
    out, skip = [], False
    for item in argv:
        if skip:
            skip = False
        elif item in ("--compare", "--repeat"):
            skip = True
        elif not item.startswith(("--compare=", "--repeat=")):
            out.append(item)
    return out


def compare(args: argparse.Namespace, argv: list[str]) -> int:
    """Run the servers of this checkout and of REV alternately (here, REV, REV, here, ...) with the
    same arguments, driven by this load generator both times (it reads either revision's frames)."""
    import subprocess
    import tempfile

    rev = subprocess.run(
        ["git", "rev-parse", "--short", args.compare], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.strip()
    other = Path(tempfile.gettempdir()) / f"ws_load_{rev}"
    if not other.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(other), rev], cwd=REPO, check=True)
    rest = _without_compare(argv)
    sides = {"here": REPO, rev: other}
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
    sizes: dict[str, list[tuple[int, int]]] = {name: [] for name in sides}
    order = []
    for i in range(args.repeat):
        pair = ["here", rev] if i % 2 == 0 else [rev, "here"]
        order += pair
    for name in order:
        print(f"--- {name}: {sides[name]}", flush=True)
        run = subprocess.run(
            [sys.executable, str(REPO / "bench" / "ws_load.py"), *rest],
            cwd=REPO,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(sides[name]), "SHMJ_CLUSTER_REPO": str(sides[name])},
        )
        print(run.stdout[-1100:], run.stderr[-600:] if run.returncode else "", flush=True)
        found = FIGURES_RE.search(run.stdout)
        if found:
            figures[name].append((float(found.group(1)), float(found.group(2))))
        found = BYTES_RE.search(run.stdout)
        if found:
            sizes[name].append((int(found.group(1)), int(found.group(2))))
    print(f"\ncompare ({' '.join(rest)}), runs in the order {', '.join(order)}:")
    cpu_of = {}
    for name, runs in figures.items():
        if runs:
            p95 = statistics.median(r[0] for r in runs)
            cpu = cpu_of[name] = statistics.median(r[1] for r in runs)
            each = "; ".join(f"p95 {a:.1f} ms, {b:.1f} ms CPU/action" for a, b in runs)
            size = ""
            if sizes[name]:
                size = f", bytes per player socket per action p50 {statistics.median(b[0] for b in sizes[name]):.0f}"
                size += f" p95 {statistics.median(b[1] for b in sizes[name]):.0f}"
            print(
                f"  {name:<8} median p95 {p95:.1f} ms, median server CPU {cpu:.2f} ms per action{size}  ({each})"
            )
    if "here" in cpu_of and rev in cpu_of and cpu_of[rev]:
        print(f"  server CPU per action here / {rev}: {cpu_of['here'] / cpu_of[rev]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
