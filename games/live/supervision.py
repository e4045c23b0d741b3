"""Keeping a process's long-lived tasks alive: the socket hub's listener and the game clock.

Each such task handles its own messages one at a time and catches what one of them raises; the
supervisor is the second line: whatever ends the task (an exception that escaped, a return), it is
logged and the task starts again. Only cancellation stops it, which is how an event loop shuts down.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


async def supervised(run: Callable[[], Awaitable[object]], *, name: str, pause: float = 1.0) -> None:
    """Run `run()` again whenever it ends, `pause` seconds later (so a task failing at once does not
    spin), until cancelled."""
    while True:
        try:
            await run()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s stopped; restarting it", name)
        else:
            log.error("%s ended; restarting it", name)
        await asyncio.sleep(pause)
