"""Quick-start benchmark (issue 30): from the fourth person's click on 快速开始 to the first table
frame of all four, while hundreds of other people cycle through the pools (a benchmark, not a test).

    .venv/bin/python bench/pairing_bench.py --cyclers 500 --trials 10

It creates a fresh PostgreSQL database and a Redis prefix and starts one daphne process
(production-like: DJANGO_DEBUG=0, the game clock at its default interval). A room gets five pools.
`--cyclers` people cycle through the first four over HTTP as browsers do (htmx posts): join a pool
at random, now and then leave it or switch (a click every `--pace` seconds on average), and when quick start seats them (the lobby fragment then
offers 回到牌桌) stand up and join again. Meanwhile, `--trials` times, four other people open their
lobby sockets and press 快速开始 in the fifth pool one after the other; the clock is timed from the
fourth press to the moment each of the four, sent to the table by their lobby socket, has opened the
table's socket and received its first frame. Printed: p50 / p95 / max of that time, and how many
joins, seatings and stand-ups the cyclers made per second. Needs PostgreSQL and Redis
(scripts/services.sh).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import websockets  # noqa: E402

from tests.multiprocess.cluster import Cluster, DaphneServer  # noqa: E402
from tests.multiprocess.helpers import form_request  # noqa: E402

GO = re.compile(r'id="lobby-go"[^>]*data-go="/table/(\d+)/"')
BACK = re.compile(r'href="/table/(\d+)/" data-testid="back-to-table"')
STAMP = re.compile(r'id="frame-stamp"')
# Idle tables: the cyclers' abandoned seats are played by bots slowly, so the load is the pools'.
ROOM = {"bot_delay": 30, "discard_timeout": 120, "claim_timeout": 120, "grace_period": 600}


@dataclass
class Counts:
    joins: int = 0
    seated: int = 0
    leaves: int = 0
    errors: int = 0


def post(server: DaphneServer, path: str, session: str, data: dict | None = None) -> tuple[int, str]:
    """An htmx POST as the session's user: (status, body)."""
    try:
        with urllib.request.urlopen(
            form_request(server, path, session, data, htmx=True), timeout=60
        ) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""


async def cycle(
    server, person: dict, pools: list[int], counts: Counts, stop: asyncio.Event, pool, pace
) -> None:
    rng = random.Random(person["user_id"])
    loop = asyncio.get_running_loop()

    async def call(path: str, data: dict | None = None) -> str:
        status, body = await loop.run_in_executor(pool, post, server, path, person["session"], data)
        if status >= 400:
            counts.errors += 1
        return body

    while not stop.is_set():
        body = await call(f"/pools/{rng.choice(pools)}/join/")
        counts.joins += 1
        seated = BACK.search(body)
        if seated:  # seated meanwhile: leave that table and go round again
            counts.seated += 1
            await call(f"/table/{seated.group(1)}/stand/")
            continue
        await asyncio.sleep(rng.uniform(*pace))  # a person's pace, not a wait for the server
        if rng.random() < 0.3:
            await call("/pools/leave/")
            counts.leaves += 1


async def first_frame(
    server: DaphneServer, person: dict, table_url_seen: asyncio.Future
) -> tuple[float, float]:
    """Open the lobby socket; once it says where to go, open that table's socket: (the moment the
    lobby said where, the moment the table's first frame arrived)."""
    headers = {"Cookie": f"sessionid={person['session']}"}
    async with websockets.connect(
        f"{server.ws_url}/ws/lobby/", origin=server.http_url, additional_headers=headers, max_size=2**22
    ) as lobby:
        table_url_seen.set_result(None)
        async for message in lobby:
            found = GO.search(message)
            if found:
                sent = time.monotonic()
                break
    url = f"{server.ws_url}/ws/table/{found.group(1)}/"
    async with websockets.connect(
        url, origin=server.http_url, additional_headers=headers, max_size=2**22
    ) as table:
        async for message in table:
            if STAMP.search(message):
                return sent, time.monotonic()
    raise RuntimeError("the table socket closed before its first frame")


async def trial(server: DaphneServer, four: list[dict], pool_id: int, executor) -> tuple[float, float]:
    """(fourth click -> the last of the four lobbies told where to go, -> the last first table frame)"""
    loop = asyncio.get_running_loop()
    opened = [loop.create_future() for _ in four]
    frames = [asyncio.create_task(first_frame(server, p, f)) for p, f in zip(four, opened, strict=True)]
    await asyncio.gather(*opened)
    for person in four[:3]:
        await loop.run_in_executor(executor, post, server, f"/pools/{pool_id}/join/", person["session"])
    clicked = time.monotonic()
    await loop.run_in_executor(executor, post, server, f"/pools/{pool_id}/join/", four[3]["session"])
    arrived = await asyncio.wait_for(asyncio.gather(*frames), timeout=60)
    return max(go for go, _ in arrived) - clicked, max(frame for _, frame in arrived) - clicked


async def run(args) -> None:
    with tempfile.TemporaryDirectory() as logs:
        cluster = Cluster.create(
            size=1,
            log_dir=Path(logs),
            extra_env={
                "DJANGO_DEBUG": "0",
                "DJANGO_SECRET_KEY": "pairing-benchmark-" + "x" * 40,
                "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
                "DJANGO_SECURE_SSL_REDIRECT": "0",
                "DJANGO_LOG_LEVEL": "ERROR",
                "SOCKETS_PER_ADDRESS": "0",
                "SPECTATORS_PER_ADDRESS_PER_TABLE": "0",
            },
            collectstatic=True,
        )
        try:
            seeded = cluster.seed(
                "pool_people", people=args.cyclers + 4 * args.trials, pools=5, room=ROOM, timeout=600
            )
            (server,) = cluster.servers
            pools = seeded["pools"]
            cyclers, measured = seeded["people"][: args.cyclers], seeded["people"][args.cyclers :]
            counts, stop = Counts(), asyncio.Event()
            executor = ThreadPoolExecutor(max_workers=args.threads)
            clicks = ThreadPoolExecutor(max_workers=4)  # the measured clicks queue behind nobody's
            pace = (args.pace / 2, args.pace * 1.5)
            started = time.monotonic()
            tasks = [
                asyncio.create_task(cycle(server, p, pools[:4], counts, stop, executor, pace))
                for p in cyclers
            ]
            await asyncio.sleep(args.warmup)  # let the cycling reach its pace before measuring
            times, sent = [], []
            for i in range(args.trials):
                go, frame = await trial(server, measured[4 * i : 4 * i + 4], pools[4], clicks)
                times.append(frame)
                sent.append(go)
                print(
                    f"trial {i + 1}: sent to the table {go * 1000:.0f} ms, first frames {frame * 1000:.0f} ms",
                    flush=True,
                )
            elapsed = time.monotonic() - started
            stop.set()
            for task in tasks:  # not waiting for the clicks still queued
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            executor.shutdown(cancel_futures=True)
            clicks.shutdown()
        finally:
            cluster.close()
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(
        f"fourth click -> four first table frames, {args.cyclers} people cycling, {args.trials} trials: "
        f"p50 {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms"
    )
    print(
        f"  of which fourth click -> the four lobbies told where to go: p50 {statistics.median(sent) * 1000:.0f} ms"
    )
    print(
        f"cyclers: {counts.joins / elapsed:.1f} joins/s, {counts.seated / elapsed:.2f} seated/s, "
        f"{counts.leaves / elapsed:.1f} leaves/s, {counts.errors} errors"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cyclers", type=int, default=500)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds of cycling before the first trial"
    )
    parser.add_argument("--threads", type=int, default=8, help="the cyclers' HTTP requests in flight at most")
    parser.add_argument("--pace", type=float, default=6.0, help="a cycler's mean seconds between clicks")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
