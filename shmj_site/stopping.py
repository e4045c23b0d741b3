"""A server process told to stop, stops: within `SHUTDOWN_GRACE` seconds of daphne's shutdown.

On SIGTERM daphne cancels its sockets' applications and waits for them; then Python waits for every
worker thread to finish what it was given (a clock tick, a render, a review). Under load that can
run long, and a thread stuck on a lock (SQLite waits up to 20 s for one) would hold the process for
as long as it is stuck. So when the shutdown begins, a watchdog thread starts; should the process
still be alive `SHUTDOWN_GRACE` seconds later, it writes every thread's stack to standard error (what
was holding it) and ends the process with exit code 3. Nothing is lost by that: every state change is
one database transaction, and one cut short rolls back. `SHUTDOWN_GRACE=0` turns the watchdog off.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
import threading
import time

from django.conf import settings

log = logging.getLogger(__name__)

FORCED_EXIT = 3


def arm_with_server() -> bool:
    """Start the watchdog when this daphne process's shutdown begins. False when no daphne server
    runs here (a test, a command importing the application) or the grace is 0."""
    reactor = sys.modules.get("twisted.internet.reactor")
    grace = float(settings.SHUTDOWN_GRACE)
    if reactor is None or grace <= 0:
        return False
    reactor.addSystemEventTrigger("before", "shutdown", start_watchdog, grace)
    return True


def start_watchdog(grace: float) -> threading.Thread:
    """A daemon thread that ends the process `grace` seconds from now unless it has exited by then
    (a daemon thread does not itself keep the process alive)."""
    thread = threading.Thread(target=_end_after, args=(grace,), name="shutdown-watchdog", daemon=True)
    thread.start()
    return thread


def _end_after(grace: float) -> None:
    time.sleep(grace)
    log.error("the server did not stop within %s s of its shutdown; its threads:", grace)
    sys.stderr.flush()
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    os._exit(FORCED_EXIT)
