"""`manage.py run_clock`: the game clock as a worker of its own, beside the daphne processes.

Bot moves, timeouts, grace penalties and the presence sweep run here even when no server process
has started its clock. Any number may run: each takes due tables with `select_for_update(
skip_locked=True)`, so every event fires once (games/clock.py).
"""

from __future__ import annotations

import asyncio
import contextlib

from django.core.management.base import BaseCommand

from games import clock


class Command(BaseCommand):
    help = "Run the game clock (bots, timeouts, presence sweep) until stopped."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--ticks", type=int, default=0, help="stop after this many ticks (0: never)")

    def handle(self, *args, ticks: int = 0, **options) -> None:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(clock.run_forever(ticks=ticks) if ticks else clock.run_supervised())
