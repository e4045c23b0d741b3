"""Sending to one socket so that its failure stays its own.

The hub and the lobby push to many sockets from one task: a send that raises must cost that socket,
never the task. A socket whose browser closed it first (daphne's protocol is already closing, and
autobahn raises `Disconnected`) is an ordinary event: it is marked closing and skipped from then on,
without a traceback. Anything else a send raises is logged with the socket's table and user, and
the socket is dropped (closed with 1011, so the browser reconnects and gets a snapshot).
"""

from __future__ import annotations

import logging

from autobahn.exception import Disconnected

log = logging.getLogger(__name__)


class GuardedSends:
    """Mixin for an `AsyncWebsocketConsumer`: `send` and `close` never raise, and do nothing once
    the socket is closing (closed by us, by the browser, or dropped after a failure)."""

    closing = False

    def describe(self) -> str:
        """Which socket this is, for the log."""
        user = getattr(self, "user", None)
        user_id = user.pk if user is not None and user.is_authenticated else None
        return f"socket {getattr(self, 'channel_name', '?')} (user {user_id})"

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        if self.closing:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            self.closing = True
        except Exception:
            log.exception("%s: sending failed; dropping the socket", self.describe())
            await self.drop()

    async def close(self, code=None, reason=None) -> None:
        if self.closing:
            return
        self.closing = True
        try:
            await super().close(code=code, reason=reason)
        except Disconnected:
            pass
        except Exception:
            log.exception("%s: closing failed", self.describe())

    async def drop(self) -> None:
        """After a failed send: close the socket; subclasses also stop pushing to it."""
        await self.close(code=1011)

    async def websocket_disconnect(self, message) -> None:
        self.closing = True
        await super().websocket_disconnect(message)
