"""What one client may ask of this process: messages per socket, sockets per address, spectators
per table. Counts are per process (a process cannot see the others' sockets cheaply); behind the
proxy each table's sockets meet on one process (README, `hash $table_id consistent`), so the
spectator limit holds per table, and the address limit per process."""

from __future__ import annotations

import time
from collections import Counter

from django.conf import settings


def now() -> float:
    return time.monotonic()


class RateLimit:
    """A token bucket per table socket: `TABLE_SOCKET_BURST` messages at once, then
    `TABLE_SOCKET_RATE` a second (a person clicks far less often). A message beyond it is refused
    with an error and never reaches a service, so one client cannot keep a table's row lock and the
    worker threads busy."""

    __slots__ = ("burst", "rate", "tokens", "stamp")

    def __init__(self) -> None:
        self.burst = float(settings.TABLE_SOCKET_BURST)
        self.rate = float(settings.TABLE_SOCKET_RATE)
        self.tokens = self.burst
        self.stamp = now()

    def take(self) -> bool:
        stamp = now()
        self.tokens = min(self.burst, self.tokens + (stamp - self.stamp) * self.rate)
        self.stamp = stamp
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Slots:
    """Counted places, e.g. sockets per address: `take` refuses beyond `limit` (0: no limit)."""

    def __init__(self) -> None:
        self.held: Counter = Counter()

    def take(self, key, limit: int) -> bool:
        if limit and self.held[key] >= limit:
            return False
        self.held[key] += 1
        return True

    def give_back(self, key) -> None:
        self.held[key] -= 1
        if self.held[key] <= 0:
            del self.held[key]


sockets_by_address = Slots()
spectators_by_table = Slots()


def client_address(scope) -> str:
    """The client's address as the server saw it (daphne `--proxy-headers`: the proxy's
    X-Forwarded-For)."""
    client = scope.get("client") or ("?", 0)
    return str(client[0])
