"""The clock outside the first socket: `manage.py run_clock` as a worker, and a server process that
starts its clock when its event loop starts (issue 17 item 7)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.models import Table
from games.services.commands import Move

from .helpers import state_of

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.django_db(transaction=True)
def test_run_clock_plays_a_due_bot_move(bot_table, alice, settings):
    settings.GAME_CLOCK_INTERVAL = 0
    state = state_of(bot_table)
    if 0 in state.pending_seats():  # alice first: then a bot is to move
        action = str(state.timeout_action(0))
        services.table_act(
            table_id=bot_table.pk, user=alice, action=Move.parse(action), version=bot_table.version
        )
    assert 0 not in state_of(bot_table).pending_seats()
    Table.objects.filter(pk=bot_table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    before = Table.objects.get(pk=bot_table.pk).version
    call_command("run_clock", ticks=1)
    assert Table.objects.get(pk=bot_table.pk).version > before


def test_a_server_process_starts_its_clock_when_its_event_loop_runs():
    """Under Twisted's asyncio reactor (daphne's), importing the application schedules the clock for
    when the reactor runs; nothing starts before, and no socket is needed."""
    script = textwrap.dedent(
        """
        import asyncio, os
        from twisted.internet import asyncioreactor
        asyncioreactor.install(asyncio.new_event_loop())
        from twisted.internet import reactor
        os.environ["DJANGO_SETTINGS_MODULE"] = "shmj_site.settings"
        os.environ["GAME_CLOCK_ENABLED"] = "1"
        import django
        django.setup()
        from games import clock
        started = []
        clock.ensure_started = lambda: started.append(asyncio.get_running_loop() is not None)
        import shmj_site.asgi
        assert started == [], "started before the event loop ran"
        reactor.callLater(0.05, reactor.stop)
        reactor.run()
        print("started", started)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    assert "started [True]" in out.stdout, out.stderr
