"""CPU time of rendering one table version for its four seated viewers, in process, on SQLite.

Four people play whole hands through the services (each answering with the engine's timeout
action); after every action the acting process renders the new version for the four of them the way
the socket hub does (`rendering.render_for_viewers` with the announced version). Prints the CPU time
(process time) per version rendered for four viewers: mean, p50, p95; the size of the frames the
sockets get (each carries the regions that changed for it since its last frame) against a full
frame's, and which regions they carry. `--regions` also times one viewer's regions with its four
seat blocks rendered again rather than taken from the memo.

    .venv/bin/python bench/render_bench.py --actions 600 [--regions] [--profile]

Which template engine renders the table's regions was decided with this script at commit c019d91,
where `--engines` timed the same frames (board, controls, settlement and four seat blocks, no memo)
three ways: the hand-written strings of the former games/fragments.py, the Django partials of
templates/games/table.html, and the Jinja2 templates. 400 versions, shared 2-core host (load 4),
CPU ms per frame:

    strings (games/fragments.py)   mean 0.273  p95 0.388
    Django template partials       mean 3.550  p95 5.114
    Jinja2 templates               mean 1.055  p95 1.523

Jinja2 is 3.4 times faster than Django's engine on these regions, so the regions are Jinja2
templates (templates/jinja2/games/table/, games/presentation/jinja.py). The strings were faster
still, but were a second copy of every region's HTML.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=600, help="versions to render (default 600)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the renders")
    parser.add_argument(
        "--regions", action="store_true", help="also time one frame's regions, seat blocks unmemoised"
    )
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="also compress each socket's frames as permessage-deflate would (one raw-deflate stream per socket)",
    )
    parser.add_argument(
        "--deflate-window", type=int, default=15, help="window bits (8-15; memory 2^(bits+2) B)"
    )
    parser.add_argument(
        "--deflate-mem", type=int, default=8, help="zlib memLevel (1-9; memory 2^(level+9) B)"
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
    # The servers serve collected static files; here a static URL need not name a collected file.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
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


def _frame_regions(ctx: dict) -> str:
    """One viewer's frame with its four seat blocks (each four parts) rendered again, not taken from the memo."""
    from games.presentation import rendering

    has_state = ctx["state"] is not None
    parts = ("head", "hand", "open", "river") if has_state else ("head",)
    blocks = [
        rendering.render_region(f"seat_{part}", {"s": seat, "_": ctx["_"]})
        for seat in ctx["seats"]
        for part in parts
    ]
    names = ["info", "centre" if has_state else "waiting", "controls", "settlement"]
    return "".join(blocks + [rendering.render_region(name, ctx) for name in names])


def run(args: argparse.Namespace) -> int:
    import cProfile
    import pstats
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    from games import services
    from games.engine.kinds import Phase
    from games.models import Room, Table
    from games.presentation import rendering
    from games.services.commands import Move
    from tests.games.helpers import press_next_hand_for_all, start_match, state_of

    users = [get_user_model().objects.create_user(username=f"p{i}", password="pw-123456") for i in range(4)]
    room = Room.objects.create(
        name="Bench room", bot_delay=Decimal("0"), bot_level="easy", claim_pause=Decimal("0")
    )
    table = services.table_create(room_id=room.pk, user=users[0])
    for user in users[1:]:
        services.table_sit(table_id=table.pk, user=user)
    start_match(table.pk)
    import re
    from collections import Counter

    screens = [None] * len(users)
    region_id = re.compile(r'<[a-z]+ id="([a-z0-9-]+)"[^>]*hx-swap-oob')
    profiler = cProfile.Profile() if args.profile else None
    times: list[float] = []
    regions: list[float] = []
    sizes: list[int] = []
    full_sizes: list[int] = []
    carried: Counter = Counter()
    carried_bytes: Counter = Counter()
    # permessage-deflate with context takeover (autobahn's default when offered): a stream per socket.
    streams = (
        [zlib.compressobj(6, zlib.DEFLATED, -args.deflate_window, args.deflate_mem) for _ in users]
        if args.deflate
        else []
    )
    deflated: list[int] = []
    deflate_cpu: list[float] = []
    while len(times) < args.actions:
        state = state_of(table)
        if state.phase == Phase.ENDED:
            press_next_hand_for_all(table.pk)
        else:
            seat = next(s for s in state.pending_seats() if state.legal_actions(s))
            move = str(state.timeout_action(seat))
            services.table_act(
                table_id=table.pk, user=users[seat], action=Move.parse(move), version=table.version
            )
        table = Table.objects.get(pk=table.pk)
        start = time.process_time()
        if profiler:
            profiler.enable()
        viewers = [(user, "NOTPROVIDED", None, screen) for user, screen in zip(users, screens, strict=True)]
        frames = rendering.render_for_viewers(table.pk, viewers, table.version, table.created)
        if profiler:
            profiler.disable()
        times.append(time.process_time() - start)
        assert all(screen.version == table.version for screen, _ in frames)
        sizes.extend(len(html.encode()) for _, html in frames)
        full_sizes.extend(len(rendering.frame(None, screen).encode()) for screen, _ in frames)
        for screen, html in frames:
            found = region_id.findall(html)
            carried.update(found)
            for name in found:
                carried_bytes[name] += len(screen.regions.get(name, "").encode())
        screens = [screen for screen, _ in frames]
        for stream, (_, html) in zip(streams, frames, strict=False):
            if html:
                start = time.process_time()
                out = stream.compress(html.encode()) + stream.flush(zlib.Z_SYNC_FLUSH)
                deflate_cpu.append(time.process_time() - start)
                deflated.append(len(out) - 4)  # the sync flush's 00 00 ff ff is left off the wire
        if args.regions:
            contexts = []
            for user in users:
                ctx = rendering.table_context(table, user)
                ctx.update(user=user, csrf_token="NOTPROVIDED")
                contexts.append(ctx)
            start = time.process_time()
            for ctx in contexts:
                _frame_regions(ctx)
            regions.append((time.process_time() - start) / len(contexts))
    report(f"{len(times)} versions x 4 viewers: CPU ms per version", times)
    ordered = sorted(sizes)
    print(
        f"frame sent, per viewer per version: mean {statistics.mean(sizes) / 1024:.2f} KiB,"
        f" p50 {ordered[len(ordered) // 2] / 1024:.2f} KiB, p95 {ordered[int(len(ordered) * 0.95)] / 1024:.2f} KiB,"
        f" max {max(sizes) / 1024:.1f} KiB; none at all {sum(1 for n in sizes if n == 0) / len(sizes):.0%}"
    )
    print(
        f"a full frame: mean {statistics.mean(full_sizes) / 1024:.1f} KiB, max {max(full_sizes) / 1024:.1f} KiB"
    )
    print(
        "regions carried per viewer per version (how often, mean bytes):",
        ", ".join(f"{k} {n / len(sizes):.2f} {carried_bytes[k] / n:.0f}" for k, n in carried.most_common()),
    )
    if deflated:
        ordered = sorted(deflated)
        print(
            f"deflated frames (sent ones): mean {statistics.mean(deflated) / 1024:.2f} KiB,"
            f" p50 {ordered[len(ordered) // 2] / 1024:.2f} KiB; the sent bytes"
            f" {sum(deflated) / sum(n for n in sizes if n):.0%} of plain"
        )
        report("deflate CPU ms per frame sent", deflate_cpu)
    if regions:
        report("one frame's regions, its 4 seat blocks unmemoised: CPU ms per frame", regions)
    if profiler:
        stats = pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "cumulative"))
        stats.print_stats(40)
        if os.environ.get("CALLEES"):
            stats.print_callees(os.environ["CALLEES"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
