"""Benchmark: statistics and history pages for one player with 10,000 finished hands.

Fills a fresh database (by default a new SQLite file under /tmp; `--database-url` for PostgreSQL)
with `--hands` finished hands for one player — 100 hands per match, against three other people and
bots, in two rooms — written the way the services write them: `Hand` rows with their `Action` logs,
the ledger settlement, and the history hook (`record_hand`: records and ratings). To fill quickly,
the engine plays a pool of distinct bot hands once and the pool is reused in turn (the pages never
replay, except the replay page itself).

Then each page is fetched `--repeat` times through Django's test client (logged in as the player)
and the script prints, per page, the median and worst time and the number of queries, against the
target of 200 ms.

Run: `.venv/bin/python bench/stats_bench.py` (add `--hands 2000` for a quick run).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_MS = 200.0
HANDS_PER_MATCH = 100
POOL = 250


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--database-url", default=None, help="default: a new SQLite file in /tmp")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="time the pages of a database this script filled before (no fill)",
    )
    return parser.parse_args()


def setup_django(database_url: str | None) -> str:
    if database_url is None:
        path = Path(tempfile.mkdtemp(prefix="stats-bench-")) / "bench.sqlite3"
        database_url = f"sqlite:///{path}"
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shmj_site.settings")
    import django

    django.setup()
    from django.conf import settings

    settings.GAME_CLOCK_ENABLED = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast fixture users
    if database_url.startswith("sqlite"):
        from django.db.backends.signals import connection_created

        def scratch(sender, connection, **kwargs):  # a throwaway file: skip fsync while filling
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA synchronous=OFF")
                cursor.execute("PRAGMA journal_mode=MEMORY")

        connection_created.connect(scratch, weak=False)
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    return database_url


def play_pool(n: int) -> list:
    from games.engine.bots import get_bot
    from games.engine.rules import Rules
    from games.engine.simulate import play_hand
    from games.engine.state import GameState

    pool = []
    for i in range(n):
        seed = hashlib.sha256(f"stats-bench:{i}".encode()).hexdigest()
        state = GameState.new(Rules(), dealer=i % 4, seed=seed)
        play_hand(state, [get_bot("easy") for _ in range(4)])
        pool.append(state)
    return pool


def fill(hands: int) -> tuple:
    """Write the hands; returns (the player's user, one match id, one hand id, room ids)."""
    from datetime import timedelta
    from decimal import Decimal

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    import games.services  # noqa: F401  (loaded before ledger.services, which it imports in turn)
    from games.models import Action, Hand, Match, Room, Seat, Table
    from history.services import Sitter, record_hand
    from ledger.services import post_hand_settlement

    users = get_user_model()
    me = users.objects.create_user(username="bench", password="bench-pass-1")
    others = [users.objects.create_user(username=f"rival{i}", password="bench-pass-1") for i in range(3)]
    rooms = [
        Room.objects.create(name=f"Bench room {i}", bot_delay=Decimal("0"), bot_level="easy")
        for i in range(2)
    ]
    start = time.perf_counter()
    pool = play_pool(min(POOL, hands))
    print(f"engine: {len(pool)} distinct bot hands played in {time.perf_counter() - start:.1f} s")

    start = time.perf_counter()
    now = timezone.now() - timedelta(minutes=hands)
    written = 0
    match_number = 0
    while written < hands:
        room = rooms[match_number % 2]
        seat_users = [
            me,
            others[match_number % 3] if match_number % 2 else None,
            None,
            others[(match_number + 1) % 3],
        ]
        with transaction.atomic():
            table = Table.objects.create(room=room, status=Table.Status.FINISHED, version=1, dealer=0)
            Seat.objects.bulk_create(
                [
                    Seat(table=table, index=i, user=u, is_bot=u is None, bot_level="" if u else "easy")
                    for i, u in enumerate(seat_users)
                ]
            )
            match = Match.objects.create(table=table, players=[u.pk if u else None for u in seat_users])
            count = min(HANDS_PER_MATCH, hands - written)
            states = [pool[(written + i) % len(pool)] for i in range(count)]
            rows = Hand.objects.bulk_create(
                [
                    Hand(
                        match=match,
                        number=i + 1,
                        seed=s.seed,
                        commitment=s.commitment,
                        rules=s.rules.to_json(),
                        dealer=s.dealer,
                        huangfan=s.huangfan,
                        stake=s.stake,
                        result=s.result.to_json(),
                        ended=now + timedelta(minutes=written + i),
                    )
                    for i, s in enumerate(states)
                ]
            )
            Action.objects.bulk_create(
                [
                    Action(hand=h, seq=k, seat=a.seat, action=str(a), version=k, by_clock=True)
                    for h, s in zip(rows, states, strict=True)
                    for k, a in enumerate(s.actions, start=1)
                ],
                batch_size=5000,
            )
            sitters = [Sitter(u.pk) if u else Sitter(None, "easy") for u in seat_users]
            for h in rows:
                record_hand(hand=h, sitters=sitters, room_id=room.pk)
                post_hand_settlement(hand=h, seat_users=seat_users)
        written += count
        match_number += 1
    print(
        f"database: {written} hands in {match_number} matches written in {time.perf_counter() - start:.1f} s"
    )
    return me, match.pk, rows[-1].pk, [r.pk for r in rooms]


def filled_before() -> tuple:
    from django.contrib.auth import get_user_model

    from games.models import Hand, Room

    user = get_user_model().objects.filter(username="bench").first()
    if user is None:
        raise SystemExit("stats_bench: --reuse needs a database this script filled (no user 'bench')")
    hand = Hand.objects.filter(match__players__0=user.pk).order_by("-id").first() or Hand.objects.last()
    rooms = list(
        Room.objects.filter(name__startswith="Bench room").order_by("name").values_list("pk", flat=True)
    )
    print(f"database: reused, {Hand.objects.count()} hands")
    return user, hand.match_id, hand.pk, rooms


def time_pages(user, match_id: int, hand_id: int, room_ids: list[int], repeat: int) -> bool:
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from history.models import Player

    client = Client()
    client.force_login(user)
    key = Player.objects.get(user=user).key
    pages = [
        ("statistics (all rooms)", reverse("history:stats", args=[key])),
        ("statistics (one room)", reverse("history:stats", args=[key]) + f"?room={room_ids[0]}"),
        ("my matches, page 1", reverse("history:my_matches")),
        ("my matches, last page", reverse("history:my_matches") + "?page=last"),
        ("match hands", reverse("history:match", args=[match_id])),
        ("leaderboard", reverse("history:leaderboard")),
        ("leaderboard (room, no bots)", reverse("history:leaderboard") + f"?room={room_ids[1]}&bots=hide"),
        ("hand replay", reverse("history:replay", args=[hand_id])),
    ]
    all_ok = True
    print(f"\n{'page':32} {'median ms':>10} {'worst ms':>9} {'queries':>8}  target {TARGET_MS:.0f} ms")
    for name, url in pages:
        times = []
        queries = 0
        for _ in range(repeat):
            reset_queries()
            with CaptureQueriesContext(connection) as ctx:
                start = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - start) * 1000)
            queries = len(ctx.captured_queries)
            if response.status_code != 200:
                raise SystemExit(f"{name}: HTTP {response.status_code} at {url}")
        median = statistics.median(times)
        ok = median < TARGET_MS
        all_ok &= ok
        print(f"{name:32} {median:10.1f} {max(times):9.1f} {queries:8d}  {'ok' if ok else 'SLOW'}")
    return all_ok


def main() -> int:
    args = parse_args()
    if args.reuse and not args.database_url:
        print("stats_bench: --reuse needs --database-url", file=sys.stderr)
        return 2
    if args.hands < 1 or args.repeat < 1:
        print("stats_bench: --hands and --repeat must be at least 1", file=sys.stderr)
        return 2
    url = setup_django(args.database_url)
    print(f"database: {url.split('@')[-1]}")
    if args.reuse:
        user, match_id, hand_id, room_ids = filled_before()
    else:
        user, match_id, hand_id, room_ids = fill(args.hands)
    ok = time_pages(user, match_id, hand_id, room_ids, args.repeat)
    print("\nall pages under the target" if ok else "\nsome pages are over the target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
