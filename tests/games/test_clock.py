"""The clock loop: off when disabled, started once per process, and it keeps ticking after errors."""

from __future__ import annotations

import asyncio

from games import clock


async def test_clock_is_off_when_disabled(settings):
    settings.GAME_CLOCK_ENABLED = False
    assert clock.ensure_started() is False
    assert clock._task is None or clock._task.done()


async def test_clock_starts_once_and_survives_a_failing_tick(settings, monkeypatch):
    settings.GAME_CLOCK_ENABLED = True
    settings.GAME_CLOCK_INTERVAL = 0
    calls = []
    ticked_twice = asyncio.Event()

    def fake_tick():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bad tick")
        if len(calls) >= 2:
            ticked_twice.set()
        return 0

    monkeypatch.setattr(clock, "clock_tick", fake_tick)
    monkeypatch.setattr(clock, "_task", None)
    assert clock.ensure_started() is True
    first = clock._task
    assert clock.ensure_started() is True and clock._task is first  # one loop per process
    try:
        await asyncio.wait_for(ticked_twice.wait(), timeout=5)
    finally:
        first.cancel()
        await asyncio.gather(first, return_exceptions=True)
    assert len(calls) >= 2
