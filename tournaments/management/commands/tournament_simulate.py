"""`manage.py tournament_simulate --players 16 --rounds 3 --hands 4 --bots normal --json`: a whole
all-bot tournament through the same services as a live one, printed as one JSON object.

The field is filled with bots by `tournament_start`, each round's tables are made and dealt from the
round's seeds by the games services, and each hand is played to its end at once
(`table_play_bots_hand`, the clock's own storage path without its delays); the round ends through
the clock's step (`end_round_if_over`). Tests and benches read the JSON.
"""

from __future__ import annotations

import json
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from games import selectors as game_selectors
from games.engine.bots import levels
from games.services import table_play_bots_hand
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.services import end_round_if_over, tournament_create, tournament_start

ORGANISER = "tournament-simulator"


class Command(BaseCommand):
    help = "Run an all-bot duplicate tournament through the services and print its standings and rounds."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, default=16)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--hands", type=int, default=4, help="hands per round")
        parser.add_argument(
            "--bots",
            default="normal",
            help="bot level, or levels separated by commas (given to the bots in turn)",
        )
        parser.add_argument("--json", action="store_true", help="print JSON (the only output there is)")

    def handle(self, *args, players: int, rounds: int, hands: int, bots: str, **options) -> None:
        bot_levels = bots.split(",")
        if any(level not in levels() for level in bot_levels):
            raise CommandError(f"bot levels are {', '.join(levels())}")
        if players < 4 or players % 4:
            raise CommandError("--players must be a positive multiple of four")
        started = time.perf_counter()
        organiser, _ = get_user_model().objects.get_or_create(
            username=ORGANISER, defaults={"is_active": False}
        )
        tournament = tournament_create(
            user=organiser,
            name=f"simulation {timezone.now():%Y-%m-%d %H:%M:%S}",
            starts_at=timezone.now(),
            rounds=rounds,
            hands_per_round=hands,
            max_players=players,
            bot_level=bot_levels[0],
            join=False,
        )
        tournament_start(
            tournament_id=tournament.pk, user=organiser, field=players, bot_levels=bot_levels, deal=False
        )
        while True:
            tournament.refresh_from_db()
            if tournament.status != Tournament.Status.RUNNING:
                break
            round_ = tournament.round_set.get(number=tournament.current_round)
            for table_id, seed in _hands_to_play(round_):
                table_play_bots_hand(table_id=table_id, seed=seed)
            with transaction.atomic():
                locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
                if not end_round_if_over(locked, timezone.now(), deal=False):
                    raise CommandError(f"round {round_.number} did not end")
        report = selectors.tournament_report(tournament.pk)
        report["seconds"] = round(time.perf_counter() - started, 2)
        self.stdout.write(json.dumps(report, ensure_ascii=False))


def _hands_to_play(round_):
    """Every hand of the round at every table, round-robin over the tables (deal by deal)."""
    tables = list(round_.tables.values_list("table_id", flat=True))
    for seed in round_.seeds:
        for table_id in tables:
            if game_selectors.table_is_playing(table_id):
                yield table_id, seed
