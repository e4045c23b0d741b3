"""The game clock: one loop per server process that plays bot moves and timeouts when they are due.

Timers are rows, not sleeps (DESIGN.md §3): each Table stores its next `deadline`; the loop asks
`services.clock_tick` every `GAME_CLOCK_INTERVAL` seconds, which takes due tables with
`select_for_update(skip_locked=True)`, so any number of processes can run it and each event fires once.
The loop is started by the first websocket that connects to this process (`ensure_started`), and not at
all when `settings.GAME_CLOCK_ENABLED` is False (tests call `clock_tick` themselves).

Every `PRESENCE_HEARTBEAT` seconds the loop also runs a presence round (`presence_round`): it vouches
for the seats of this process's open sockets and sweeps the seats no live process vouches for any
more (games/services/presence.py).
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from games.services import clock_tick, sweep_stale_presence, vouch_for

log = logging.getLogger(__name__)

_task: asyncio.Task | None = None


def ensure_started() -> bool:
    """Start this process's clock loop on the running event loop unless it runs already."""
    global _task
    if not settings.GAME_CLOCK_ENABLED:
        return False
    if _task is not None and not _task.done():
        return True
    _task = asyncio.get_running_loop().create_task(run_forever(), name="game-clock")
    return True


async def run_forever() -> None:
    tick = database_sync_to_async(clock_tick)
    interval = float(settings.GAME_CLOCK_INTERVAL)
    heartbeat = float(settings.PRESENCE_HEARTBEAT)
    loop = asyncio.get_running_loop()
    next_round = loop.time()
    while True:
        try:
            await tick()
        except Exception:  # one bad tick must not stop every table's clock
            log.exception("game clock tick failed")
        if loop.time() >= next_round:
            next_round = loop.time() + heartbeat
            try:
                await presence_round()
            except Exception:  # nor one bad presence round
                log.exception("presence round failed")
        await asyncio.sleep(interval)


async def presence_round() -> tuple[int, int]:
    """Vouch for this process's sockets, then sweep the seats nobody vouches for; (vouched, swept)."""
    from games.consumers import live_seat_pairs  # the sockets' module imports this one

    vouched = await database_sync_to_async(vouch_for)(live_seat_pairs())
    swept = await database_sync_to_async(sweep_stale_presence)()
    return vouched, swept
