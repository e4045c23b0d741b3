"""What one client may ask of this process: messages per socket, and places for spectators: sockets
per address (all tables), per address at one table, and per table. A table's members (seated,
played there, invited to a private one) never take a place and are never refused: a crowd of
watchers cannot keep a player from their own table.

Counts are per process (a process cannot see the others' sockets cheaply); behind the proxy each
table's sockets meet on one process (deploy/nginx.conf, `hash $table_id consistent`), so the
limits at one table hold for the site, and the address limit across tables is also enforced for
the whole site by nginx's `limit_conn` (deploy/nginx.conf)."""

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
spectators_by_address_at_table = Slots()
spectators_by_table = Slots()


def spectator_places(address: str, table_id: int) -> list[tuple[Slots, object]] | None:
    """The places a spectator's socket holds (give each back when it closes), taken together; None,
    and nothing taken, when one of them is full. Seven addresses once took all 200 places of a
    table: one address now gets `SPECTATORS_PER_ADDRESS_PER_TABLE` of them."""
    wanted = [
        (sockets_by_address, address, settings.SOCKETS_PER_ADDRESS),
        (spectators_by_address_at_table, (address, table_id), settings.SPECTATORS_PER_ADDRESS_PER_TABLE),
        (spectators_by_table, table_id, settings.SPECTATORS_PER_TABLE),
    ]
    held: list[tuple[Slots, object]] = []
    for slots, key, limit in wanted:
        if not slots.take(key, limit):
            for taken, taken_key in held:
                taken.give_back(taken_key)
            return None
        held.append((slots, key))
    return held


def client_address(scope) -> str:
    """The client's address as the server saw it (daphne `--proxy-headers`: the proxy's
    X-Forwarded-For)."""
    client = scope.get("client") or ("?", 0)
    return str(client[0])
