"""Quick start across two processes (issue 30): 200 people join and leave 4 pools at random, each
through one of the two servers, with a lobby socket open on it; both processes' clocks pair the
pools. Every table has four distinct people, nobody is seated twice, nobody waits forever, and each
person's lobby socket sends them to the table the database seats them at."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from dataclasses import dataclass, field

import websockets

from tests.multiprocess.cluster import Cluster, DaphneServer
from tests.multiprocess.helpers import assert_clean_logs, post_form

PEOPLE = 200
POOLS = 4
GO = re.compile(r'id="lobby-go"[^>]*data-go="/table/(\d+)/"')
# Every person's last join asks for bots after this many seconds, so nobody waits forever.
FILL_AFTER = 3
# Long timers: the hands dealt must not end (and free the seats) while the test checks them.
ROOM = {"discard_timeout": 120, "claim_timeout": 120, "bot_delay": 30}


@dataclass
class Person:
    user_id: int
    session: str
    server: DaphneServer
    table_id: int | None = None
    refused: int = 0  # joins answered otherwise than by a redirect back to the lobby
    _seated: asyncio.Event = field(default_factory=asyncio.Event)
    _ws: websockets.ClientConnection | None = None
    _reader: asyncio.Task | None = None

    async def open_lobby(self) -> None:
        self._ws = await websockets.connect(
            f"{self.server.ws_url}/ws/lobby/",
            origin=self.server.http_url,
            additional_headers={"Cookie": f"sessionid={self.session}"},
            open_timeout=30,
            ping_interval=None,  # a loaded machine must not cost a lobby its socket
            max_size=2**22,
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for message in self._ws:
                found = GO.search(message if isinstance(message, str) else message.decode())
                if found and self.table_id is None:
                    self.table_id = int(found.group(1))
                    self._seated.set()
        except websockets.ConnectionClosed:
            pass

    async def post(self, path: str, data: dict | None = None) -> int:
        return await asyncio.to_thread(post_form, self.server, path, self.session, data)

    async def wander(self, rng: random.Random, pools: list[int]) -> None:
        """A few joins, switches and leaves at random, then a last join asking for bots; done once
        the lobby socket says where to go."""
        for _ in range(rng.randint(0, 4)):
            if self._seated.is_set():
                return
            if rng.random() < 0.7:
                await self.post(f"/pools/{rng.choice(pools)}/join/")
            else:
                await self.post("/pools/leave/")
        if not self._seated.is_set():
            status = await self.post(
                f"/pools/{rng.choice(pools)}/join/", {"bots": "1", "fill_after": str(FILL_AFTER)}
            )
            self.refused += status != 302
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._seated.wait(), timeout=120)

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await self._reader


def seat_rows(cluster: Cluster, room_id: int) -> list[tuple]:
    return cluster.database.query(
        """SELECT t.id, t.pool_id, t.status, s.index, s.user_id, s.is_bot FROM games_table t
           JOIN games_seat s ON s.table_id = t.id WHERE t.room_id = %s ORDER BY t.id, s.index""",
        (room_id,),
    )


async def test_two_hundred_people_in_four_pools_on_two_processes(cluster, servers):
    seeded = cluster.seed("pool_people", people=PEOPLE, pools=POOLS, room=ROOM, timeout=300)
    pools = seeded["pools"]
    people = [
        Person(p["user_id"], p["session"], servers[i % len(servers)]) for i, p in enumerate(seeded["people"])
    ]
    rng = random.Random(30)
    try:
        for start in range(0, PEOPLE, 20):  # open the lobbies twenty at a time
            await asyncio.gather(*(person.open_lobby() for person in people[start : start + 20]))
        await asyncio.gather(*(person.wander(random.Random(rng.random()), pools) for person in people))
    finally:
        await asyncio.gather(*(person.close() for person in people), return_exceptions=True)

    waiting = [p.user_id for p in people if p.table_id is None]
    if waiting:  # say what the database holds for them
        entries = cluster.database.query(
            "SELECT user_id, pool_id, joined, expires, fill_after FROM games_poolentry WHERE user_id = ANY(%s)",
            (waiting,),
        )
        seats = cluster.database.query(
            "SELECT user_id, table_id FROM games_seat WHERE user_id = ANY(%s)", (waiting,)
        )
        raise AssertionError(f"{len(waiting)} never sent to a table; entries {entries}; seats {seats}")
    rows = seat_rows(cluster, seeded["room_id"])
    tables: dict[int, list[tuple]] = {}
    for row in rows:
        tables.setdefault(row[0], []).append(row)
    seated_users = [row[4] for row in rows if row[4] is not None]
    # Nobody is seated twice, and everybody is seated: nobody waited forever.
    assert len(seated_users) == len(set(seated_users)) == PEOPLE
    for table_id, seats in tables.items():
        assert seats[0][1] in pools and seats[0][2] == "playing", f"table {table_id}: {seats[0]}"
        assert [s[3] for s in seats] == [0, 1, 2, 3]
        assert all((s[4] is None) == s[5] for s in seats), f"table {table_id}: a seat both or neither"
        humans = [s[4] for s in seats if s[4] is not None]
        assert humans and len(humans) == len(set(humans))
    # Each person's lobby sent them to the table the database seats them at.
    where = {row[4]: row[0] for row in rows if row[4] is not None}
    assert {p.user_id: p.table_id for p in people} == where
    assert cluster.database.query(
        "SELECT count(*) FROM games_poolentry WHERE user_id = ANY(%s)", ([p.user_id for p in people],)
    ) == [(0,)]
    full = sum(1 for seats in tables.values() if all(s[4] is not None for s in seats))
    print(
        f"{PEOPLE} people: {len(tables)} tables, {full} of four people, {sum(p.refused for p in people)} refused"
    )
    assert_clean_logs(servers)
