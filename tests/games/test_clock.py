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


async def test_pairing_and_the_apps_steps_run_on_their_own_slower_beat(settings, monkeypatch):
    """The tables tick every GAME_CLOCK_INTERVAL; pairing and the apps' steps every
    CLOCK_STEP_INTERVAL (the first tick runs them too)."""
    settings.GAME_CLOCK_INTERVAL = 0
    settings.CLOCK_STEP_INTERVAL = 3600
    settings.PRESENCE_HEARTBEAT = 3600
    counts = {"tick": 0, "pairing": 0, "step": 0, "vouch": 0, "sweep": 0}

    def count(name, value=0):
        def call(*args):
            counts[name] += 1
            return value

        return call

    monkeypatch.setattr(clock, "clock_tick", count("tick"))
    monkeypatch.setattr(clock, "_pairing_round", count("pairing"))
    monkeypatch.setattr(clock, "_steps", [count("step")])
    monkeypatch.setattr(clock, "vouch_for", count("vouch"))
    monkeypatch.setattr(clock, "sweep_stale_presence", count("sweep"))
    await clock.run_forever(ticks=5)
    assert counts == {"tick": 5, "pairing": 1, "step": 1, "vouch": 1, "sweep": 1}


async def test_a_failing_step_does_not_keep_the_next_from_running(monkeypatch, caplog):
    ran = []

    def broken():
        raise RuntimeError("a broken step")

    monkeypatch.setattr(clock, "_steps", [broken, lambda: ran.append(1)])
    await clock.run_steps()
    assert ran == [1]
    assert "clock step broken failed" in caplog.text
