"""CPU time of rendering one table version for its four seated viewers, in process, on SQLite.

Four people play whole hands through the services (each answering with the engine's timeout
action); after every action the acting process renders the new version for the four of them the way
the socket hub does (`rendering.render_for_viewers` with the announced version). Prints the CPU time
(process time) per version rendered for four viewers: mean, p50, p95.

    .venv/bin/python bench/render_bench.py --actions 600 [--profile]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=600, help="versions to render (default 600)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the renders")
    parser.add_argument(
        "--engines", action="store_true", help="also time one frame's regions on each template engine"
    )
    args = parser.parse_args(argv)

    os.environ.pop("DATABASE_URL", None)
    os.environ["DJANGO_TEST_DB"] = str(Path(tempfile.mkdtemp()) / "render-bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shmj_site.settings")
    # As the servers run (bench/ws_load.py): no SQL log, templates not looked up again on every use.
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ.setdefault("DJANGO_SECRET_KEY", "render-bench-" + "x" * 40)
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    settings.GAME_CLOCK_ENABLED = False
    connection.creation.create_test_db(verbosity=0)
    try:
        return run(args)
    finally:
        connection.creation.destroy_test_db(settings.DATABASES["default"]["NAME"], verbosity=0)


def report(label: str, seconds: list[float]) -> None:
    ms = sorted(t * 1000 for t in seconds)
    print(
        f"{label} mean {statistics.mean(ms):.3f} p50 {ms[len(ms) // 2]:.3f} p95 {ms[int(len(ms) * 0.95)]:.3f}"
    )


def _strings_frame(ctx: dict) -> str:
    from django.template.loader import render_to_string

    from games import fragments

    blocks = [fragments.seat_block(seat, ctx["state"] is not None) for seat in ctx["seats"]]
    parts = []
    for name, covered, build in (
        ("board", fragments.can_build_board, fragments.board),
        ("controls", fragments.can_build_controls, fragments.controls),
        ("settlement", fragments.can_build_settlement, fragments.settlement),
    ):
        parts.append(
            build(ctx) if covered(ctx) else render_to_string(f"games/_table_before_jinja.html#{name}", ctx)
        )
    return "".join(blocks + parts)


def _django_frame(ctx: dict) -> str:
    from django.template.loader import render_to_string

    has_state = ctx["state"] is not None
    blocks = [
        render_to_string("games/_table_before_jinja.html#seatblock", {"s": seat, "state": has_state})
        for seat in ctx["seats"]
    ]
    parts = [
        render_to_string(f"games/_table_before_jinja.html#{name}", ctx)
        for name in ("board", "controls", "settlement")
    ]
    return "".join(blocks + parts)


def _jinja_frame(ctx: dict) -> str:
    from django.template import engines

    env = engines["jinja2"].env
    has_state = ctx["state"] is not None
    seat = env.get_template("games/table/seat.html")
    blocks = [seat.render({"s": s, "state": has_state}) for s in ctx["seats"]]
    parts = [
        env.get_template(f"games/table/{name}.html").render(ctx)
        for name in ("board", "controls", "settlement")
    ]
    return "".join(blocks + parts)


ENGINES = {"strings": _strings_frame, "django": _django_frame, "jinja2": _jinja_frame}


def run(args: argparse.Namespace) -> int:
    import cProfile
    import pstats
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    from games import rendering, services
    from games.models import Room, Table
    from tests.games.helpers import start_match, state_of

    users = [get_user_model().objects.create_user(username=f"p{i}", password="pw-123456") for i in range(4)]
    room = Room.objects.create(name="Bench room", bot_delay=Decimal("0"), bot_level="easy")
    table = services.table_create(room_id=room.pk, user=users[0])
    for user in users[1:]:
        services.table_sit(table_id=table.pk, user=user)
    start_match(table.pk)
    viewers = [(user, "NOTPROVIDED") for user in users]
    profiler = cProfile.Profile() if args.profile else None
    times: list[float] = []
    engines: dict[str, list[float]] = {name: [] for name in ENGINES}
    while len(times) < args.actions:
        state = state_of(table)
        if state.phase == "ended":
            services.table_next_hand(table_id=table.pk, user=users[0])
        else:
            seat = next(s for s in state.pending_seats() if state.legal_actions(s))
            move = str(state.timeout_action(seat))
            services.table_act(table_id=table.pk, user=users[seat], action=move, version=table.version)
        table = Table.objects.get(pk=table.pk)
        start = time.process_time()
        if profiler:
            profiler.enable()
        frames = rendering.render_for_viewers(table.pk, viewers, table.version, table.created)
        if profiler:
            profiler.disable()
        times.append(time.process_time() - start)
        assert all(version == table.version for version, _ in frames)
        if args.engines:
            contexts = []
            for user, token in viewers:
                ctx = rendering.table_context(table, user)
                ctx.update(oob=True, user=user, csrf_token=token)
                contexts.append(ctx)
            for name, frame in ENGINES.items():
                start = time.process_time()
                for ctx in contexts:
                    frame(ctx)
                engines[name].append((time.process_time() - start) / len(contexts))
    report(f"{len(times)} versions x 4 viewers: CPU ms per version", times)
    for name, spent in engines.items():
        if spent:
            report(f"  one frame, 4 seat blocks unmemoised, {name:>7}: CPU ms per frame", spent)
    if profiler:
        stats = pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "cumulative"))
        stats.print_stats(40)
        if os.environ.get("CALLEES"):
            stats.print_callees(os.environ["CALLEES"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
