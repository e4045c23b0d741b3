"""Pushing a read-only page part (the lobby, a tournament's standings) whenever it changes, without
rendering once per change: the changes that arrive while a render runs are folded into one render
after it."""

from __future__ import annotations

import asyncio
import logging
import time

from channels.db import database_sync_to_async

log = logging.getLogger(__name__)


class FoldedPushes:
    """Mixin for a `GuardedSends` consumer: `changed()` asks for a push; a subclass gives
    `render_push(fresh_after)` (run on a worker thread; `fresh_after` is the `time.monotonic()` of the
    newest change it must show) and may set `push_interval()` (seconds between two renders). A failed
    render costs that push only: the next change renders afresh."""

    dirty = False
    dirty_since = 0.0  # time.monotonic() of the latest change not yet rendered
    render_task: asyncio.Task | None = None

    def push_interval(self) -> float:
        return 0.0

    def render_push(self, fresh_after: float) -> str:
        raise NotImplementedError

    def changed(self) -> None:
        if self.closing:
            return
        self.dirty = True
        self.dirty_since = time.monotonic()
        if self.render_task is None or self.render_task.done():
            self.render_task = asyncio.get_running_loop().create_task(self._render_while_dirty())

    async def _render_while_dirty(self) -> None:
        while self.dirty and not self.closing:
            self.dirty = False
            try:
                html = await database_sync_to_async(self.render_push, thread_sensitive=False)(
                    self.dirty_since
                )
            except Exception:
                log.exception("%s: rendering failed", self.describe())
            else:
                await self.send(text_data=html)
            interval = self.push_interval()
            if interval > 0:
                await asyncio.sleep(interval)
