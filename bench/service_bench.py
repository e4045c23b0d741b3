"""CPU cost of the playing services in this process (a benchmark, not a test; issue 7).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/shmj_service_bench .venv/bin/python bench/service_bench.py

Creates a fresh test database (PostgreSQL with DATABASE_URL, else SQLite), seats four people at each
of `--tables` tables and plays `--actions` actions round-robin over the tables, each by the seat that
is asked (the drawn tile discarded, claims passed, a win taken); when a hand ends its four people press
下一局 one per action, and the fourth press deals the next hand.
Prints the process CPU time (client side: the database server's own CPU is not counted) per
`table_act` and per `table_next_hand`, the one-time compile of the first calls included.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shmj_site.settings")
os.environ.setdefault("DATABASE_POOL", "0")

from games.engine.kinds import ActionKind, Phase  # noqa: E402


def choose(state, seat: int) -> str:
    legal = state.legal_actions(seat)
    for action in legal:
        if action.kind == ActionKind.WIN:
            return str(action)
    return str(state.timeout_action(seat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest calls in table_act")
    parser.add_argument(
        "--in-loop",
        action="store_true",
        help="call table_act as the socket consumer does: through sync_to_async from a running event "
        "loop, so the after-commit send is queued on that loop as in the server (without it there is no "
        "loop, and each send runs async_to_sync: a new thread and event loop per send)",
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        run(args, get_user_model())
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(args, User) -> None:
    from games import services, store
    from games.models import Room, Seat, Table
    from games.services.commands import Move

    room = Room.objects.create(
        name="Bench", bot_delay=Decimal("0"), discard_timeout=600, claim_timeout=600, claim_pause=Decimal("0")
    )
    users = [User.objects.create_user(username=f"p{i}", password="pw-123456") for i in range(4)]
    tables = []
    for t in range(args.tables):
        table = services.table_create(room_id=room.pk, user=users[0])
        for user in users[1:]:
            services.table_sit(table_id=table.pk, user=user, seat=users.index(user))
        services.table_set_stake(table_id=table.pk, user=users[0], stake=1)
        for user in users[1:]:
            services.table_accept_stake(table_id=table.pk, user=user)
        for user in users:
            services.table_start(table_id=table.pk, user=user)
        tables.append(table.pk)
        del t
    if args.in_loop:
        if args.profile:
            raise SystemExit("--profile profiles one thread: not with --in-loop")
        asyncio.run(run_in_loop(args, users, tables))
        return
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    act_cpu = deal_cpu = 0.0
    acts = deals = 0
    for i in range(args.actions):
        table = Table.objects.get(pk=tables[i % len(tables)])
        state = store.load(table)
        if state.phase == Phase.ENDED:  # the next person not ready presses 下一局 (the fourth press deals)
            presser = (
                Seat.objects.filter(table=table, ready=False).order_by("index").values_list("index")[0][0]
            )
            t0 = time.process_time()
            services.table_next_hand(table_id=table.pk, user=users[presser], version=table.version)
            deal_cpu += time.process_time() - t0
            deals += 1
            continue
        seat = min(state.pending_seats())
        move = choose(state, seat)
        if profiler:
            profiler.enable()
        t0 = time.process_time()
        services.table_act(
            table_id=table.pk, user=users[seat], action=Move.parse(move), version=table.version
        )
        act_cpu += time.process_time() - t0
        if profiler:
            profiler.disable()
        acts += 1
    print(f"service_bench: {args.tables} tables, {connection_vendor()}")
    print(
        f"  table_act        {acts:5d} calls  {act_cpu / max(acts, 1) * 1e3:.3f} ms CPU each (process time)"
    )
    print(
        f"  table_next_hand  {deals:5d} calls  {deal_cpu / max(deals, 1) * 1e3:.3f} ms CPU each (process time)"
    )
    if profiler:
        print("(with the profiler on, table_act's figure includes its overhead)")
        pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(args.profile)


async def run_in_loop(args, users, tables) -> None:
    """The actions of `run`, each `table_act` awaited through `sync_to_async` (a worker thread, as
    games/live/consumers.py calls the services), timed in the loop: the process's CPU time across
    its threads from the call to its return, the queued after-commit send included. The choice of
    the move is read in the worker thread too, outside the timing."""
    from asgiref.sync import sync_to_async

    from games import services, store
    from games.models import Seat, Table
    from games.services.commands import Move

    def next_move(i: int):
        table = Table.objects.get(pk=tables[i % len(tables)])
        state = store.load(table)
        if state.phase == Phase.ENDED:
            presser = (
                Seat.objects.filter(table=table, ready=False).order_by("index").values_list("index")[0][0]
            )
            return table, presser, None
        seat = min(state.pending_seats())
        return table, seat, choose(state, seat)

    act = sync_to_async(services.table_act)
    next_hand = sync_to_async(services.table_next_hand)
    act_cpu = deal_cpu = 0.0
    acts = deals = 0
    for i in range(args.actions):
        table, seat, move = await sync_to_async(next_move)(i)
        t0 = time.process_time()
        if move is None:
            await next_hand(table_id=table.pk, user=users[seat], version=table.version)
            deal_cpu += time.process_time() - t0
            deals += 1
            continue
        await act(table_id=table.pk, user=users[seat], action=Move.parse(move), version=table.version)
        act_cpu += time.process_time() - t0
        acts += 1
    from django.db import connections

    await sync_to_async(connections.close_all)()  # the worker thread's connection (the test database goes)
    print(f"service_bench: {args.tables} tables, {connection_vendor()}, in an event loop (sync_to_async)")
    print(
        f"  table_act        {acts:5d} calls  {act_cpu / max(acts, 1) * 1e3:.3f} ms CPU each (process time)"
    )
    print(
        f"  table_next_hand  {deals:5d} calls  {deal_cpu / max(deals, 1) * 1e3:.3f} ms CPU each (process time)"
    )


def connection_vendor() -> str:
    from django.db import connection

    return connection.vendor


if __name__ == "__main__":
    main()
