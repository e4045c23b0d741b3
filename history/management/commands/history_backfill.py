"""`manage.py history_backfill`: record finished hands that ended before the history app existed."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from history.services import backfill


class Command(BaseCommand):
    help = "Write hand records and rating updates for finished hands that have none (oldest first)."

    def handle(self, *args, **options) -> None:
        done = backfill()
        self.stdout.write(f"recorded {done} hand(s)")
