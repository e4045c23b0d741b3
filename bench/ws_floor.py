"""The server stack's own cost per action, without the game (a benchmark, not a test).

    .venv/bin/python bench/ws_floor.py --rooms 100 --pace 2 --duration 30

What one action costs a daphne process before any game work: one websocket message in, and a frame
of `--frame-bytes` (the median a player socket gets per action, bench/ws_load.py) out to each of the
room's five sockets (four players and a spectator, as `bench/ws_load.py --spectators 1`), through
the site's own websocket stack (daphne, the origin check, Channels' session and auth middleware,
`AsyncWebsocketConsumer`). No database, no channel layer, no render. Run twice: the frames sent
from the event loop at once, and after two worker-thread hops per action (`database_sync_to_async`
of nothing, as the live path hops once to act and once to render). It prints the server's CPU per
action for each: the floor under `bench/ws_load.py`'s figure on the same host.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOCKETS_PER_ROOM = 5

if os.environ.get("WS_FLOOR_SERVER"):  # imported by daphne: the application
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shmj_site.settings")
    import django

    django.setup()
    from channels.auth import AuthMiddlewareStack
    from channels.db import database_sync_to_async
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    from shmj_site.origins import SameOriginValidator

    FRAME = "x" * int(os.environ["WS_FLOOR_FRAME_BYTES"])
    HOPS = int(os.environ["WS_FLOOR_HOPS"])
    rooms: dict[int, set] = {}

    def nothing() -> None:
        return None

    class FloorConsumer(AsyncWebsocketConsumer):
        async def connect(self) -> None:
            self.room = self.scope["url_route"]["kwargs"]["room"]
            rooms.setdefault(self.room, set()).add(self)
            await self.accept()

        async def disconnect(self, code) -> None:
            rooms.get(self.room, set()).discard(self)

        async def receive(self, text_data=None, bytes_data=None) -> None:
            for _ in range(HOPS):
                await database_sync_to_async(nothing, thread_sensitive=False)()
            for other in list(rooms.get(self.room, ())):
                await other.send(text_data=FRAME)

    async def http(scope, receive, send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    application = ProtocolTypeRouter(
        {
            "http": http,
            "websocket": SameOriginValidator(
                AuthMiddlewareStack(URLRouter([path("floor/<int:room>/", FloorConsumer.as_asgi())]))
            ),
        }
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(hops: int, frame_bytes: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        WS_FLOOR_SERVER="1",
        WS_FLOOR_HOPS=str(hops),
        WS_FLOOR_FRAME_BYTES=str(frame_bytes),
        DATABASE_URL="sqlite:///:memory:",
        GAME_CLOCK_ENABLED="0",
        PYTHONPATH=str(REPO),
    )
    env.pop("REDIS_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "bench.ws_floor:application"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return process, port
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the floor server did not start (exit {process.poll()})") from None
            time.sleep(0.2)


async def run(port: int, pid: int, args: argparse.Namespace) -> tuple[int, float]:
    import websockets

    origin = f"http://127.0.0.1:{port}"
    sockets = []
    for room in range(args.rooms):
        for _ in range(SOCKETS_PER_ROOM):
            sockets.append(
                (room, await websockets.connect(f"ws://127.0.0.1:{port}/floor/{room}/", origin=origin))
            )
    received = [0]

    async def read(ws) -> None:
        async for _ in ws:
            received[0] += 1

    readers = [asyncio.create_task(read(ws)) for _, ws in sockets]
    senders = [ws for room, ws in sockets[::SOCKETS_PER_ROOM]]
    stop = asyncio.Event()
    sent = [0]

    async def act(ws, phase: float) -> None:
        await asyncio.sleep(phase)
        while not stop.is_set():
            await ws.send("act")
            sent[0] += 1
            await asyncio.sleep(args.pace)

    actors = [asyncio.create_task(act(ws, i * args.pace / len(senders))) for i, ws in enumerate(senders)]
    await asyncio.sleep(args.pace * 2)  # every room acting before the measured window
    cpu, counted = cpu_seconds(pid), sent[0]
    await asyncio.sleep(args.duration)
    cpu, counted = cpu_seconds(pid) - cpu, sent[0] - counted
    stop.set()
    for task in actors + readers:
        task.cancel()
    for _, ws in sockets:
        await ws.close()
    return counted, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between two actions in a room")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--frame-bytes", type=int, default=2700)
    args = parser.parse_args(argv)
    print(
        f"ws_floor: {args.rooms} rooms x {SOCKETS_PER_ROOM} sockets, one action per room every {args.pace}s, "
        f"a {args.frame_bytes}-byte frame to each socket per action, {args.duration:.0f}s measured"
    )
    for hops in (0, 2):
        process, port = start_server(hops, args.frame_bytes)
        try:
            actions, cpu = asyncio.run(run(port, process.pid, args))
        finally:
            process.terminate()
            process.wait(timeout=30)
        print(
            f"  {hops} thread hops per action: {actions / args.duration:.1f} actions/s, "
            f"server CPU {1000 * cpu / max(actions, 1):.2f} ms per action"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
