"""The game clock: one loop per server process that plays bot moves and timeouts when they are due.

Timers are rows, not sleeps (ARCHITECTURE.md, "Many processes"): each Table stores its next `deadline`; the loop asks
`services.clock_tick` every `GAME_CLOCK_INTERVAL` seconds, which takes due tables with
`select_for_update(skip_locked=True)`, so any number of processes can run it and each event fires once.
A server process starts its loop when its event loop starts (`start_with_server`, called by
`shmj_site/asgi.py`), not with the first socket, so bots and timeouts run after a restart before anyone
connects; `manage.py run_clock` runs the same loop as a worker of its own. Neither runs when
`settings.GAME_CLOCK_ENABLED` is False (tests call `clock_tick` themselves).

Every `CLOCK_STEP_INTERVAL` seconds (a second by default: a coarser beat than the tables' tick, for
work that no person's click waits on) the loop also runs quick start's pairing step (`pairing_step`)
and the other apps' steps (`add_step`: the tournaments' rounds), each in one worker-thread hop: at a
tick of a quarter second they were, idle, a twentieth of a busy server's CPU (docs/perf/). Every
`PRESENCE_HEARTBEAT` seconds it also runs a presence round (`presence_round`): it vouches
for the seats of this process's open sockets and sweeps the seats no live process vouches for any
more (games/services/presence.py).

The loop survives what one tick or one table raises (`clock_tick` isolates its tables, a failed tick
is logged), and a supervisor (`games.live.supervision`) restarts it should it end all the same.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable

from channels.db import database_sync_to_async
from django.conf import settings

from games.live.hub import live_seat_pairs
from games.live.lobby_sockets import lobby_user_ids
from games.live.supervision import supervised
from games.services import (
    clock_tick,
    pair_pools,
    pool_vouch,
    sweep_pool_entries,
    sweep_stale_presence,
    vouch_for,
)

log = logging.getLogger(__name__)

_task: asyncio.Task | None = None

# Steps of other apps run every CLOCK_STEP_INTERVAL seconds after the tables' tick (the tournaments
# app starts and ends its rounds here, games never importing it): plain functions, run one after
# the other in one worker-thread hop, each one's failure logged without stopping the others.
_steps: list[Callable[[], object]] = []


def add_step(step: Callable[[], object]) -> None:
    """Run `step()` every `CLOCK_STEP_INTERVAL` seconds in the clock loop (in every process that runs
    it: a step must be safe to run in several at once, like `clock_tick`)."""
    if step not in _steps:
        _steps.append(step)


async def run_steps() -> None:
    """Every app's step, in one worker-thread hop."""
    await database_sync_to_async(_run_steps)()


def _run_steps() -> None:
    for step in list(_steps):
        try:
            step()
        except Exception:  # one app's failing step must not stop the others, nor the tables' clock
            log.exception("clock step %s failed", getattr(step, "__name__", step))


def ensure_started() -> bool:
    """Start this process's clock loop on the running event loop unless it runs already."""
    global _task
    if not settings.GAME_CLOCK_ENABLED:
        return False
    if _task is not None and not _task.done():
        return True
    _task = asyncio.get_running_loop().create_task(run_supervised(), name="game-clock")
    return True


async def run_supervised() -> None:
    """`run_forever`, restarted whenever it ends, until cancelled."""
    await supervised(run_forever, name="game clock", pause=float(settings.GAME_CLOCK_INTERVAL))


def start_with_server() -> bool:
    """Start the clock as soon as this server process's event loop runs (daphne runs it under
    Twisted's asyncio reactor, installed before the application is imported). False when no such
    server is starting (a test, a command importing the application)."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None or not settings.GAME_CLOCK_ENABLED:
        return False
    from twisted.internet import asyncioreactor

    if not isinstance(reactor, asyncioreactor.AsyncioSelectorReactor):
        return False
    # Startup triggers fire before the asyncio loop itself runs: the first call of the loop starts it.
    reactor.callWhenRunning(reactor.callLater, 0, lambda: ensure_started())
    return True


async def run_forever(ticks: int | None = None) -> None:
    """Tick every `GAME_CLOCK_INTERVAL` seconds, forever (or `ticks` times: `run_clock --ticks`)."""
    tick = database_sync_to_async(clock_tick)
    interval = float(settings.GAME_CLOCK_INTERVAL)
    heartbeat = float(settings.PRESENCE_HEARTBEAT)
    steps = float(settings.CLOCK_STEP_INTERVAL)
    loop = asyncio.get_running_loop()
    next_round = next_steps = loop.time()
    done = 0
    while ticks is None or done < ticks:
        done += 1
        try:
            await tick()
        except Exception:  # one bad tick must not stop every table's clock
            log.exception("game clock tick failed")
        if loop.time() >= next_steps:
            next_steps = loop.time() + steps
            await pairing_step()
            await run_steps()
        if loop.time() >= next_round:
            next_round = loop.time() + heartbeat
            try:
                await presence_round()
            except Exception:  # nor one bad presence round
                log.exception("presence round failed")
        await asyncio.sleep(interval)


_next_pool_vouch = float("-inf")


async def pairing_step() -> int:
    """Quick start's step of the loop (games/services/pairing.py): drop lapsed entries and pair the
    pools; every `PRESENCE_HEARTBEAT` seconds first vouch for the people with a lobby socket open
    here. One worker-thread hop. Returns how many tables opened; never raises (a failed step is
    logged)."""
    global _next_pool_vouch
    vouch = None
    now = asyncio.get_running_loop().time()
    if now >= _next_pool_vouch:
        _next_pool_vouch = now + float(settings.PRESENCE_HEARTBEAT)
        vouch = lobby_user_ids()
    try:
        return await database_sync_to_async(_pairing_round)(vouch)
    except Exception:  # one bad round must not stop the clock
        log.exception("pairing step failed")
        return 0


def _pairing_round(vouch: set[int] | None) -> int:
    if vouch is not None:
        pool_vouch(vouch)
    sweep_pool_entries()
    return pair_pools()


async def presence_round() -> tuple[int, int]:
    """Vouch for this process's sockets, then sweep the seats nobody vouches for; (vouched, swept)."""
    vouched = await database_sync_to_async(vouch_for)(live_seat_pairs())
    swept = await database_sync_to_async(sweep_stale_presence)()
    return vouched, swept
