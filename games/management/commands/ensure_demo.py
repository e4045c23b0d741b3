"""`manage.py ensure_demo`: make sure the demo room exists (idempotent; `make run` calls it)."""

from django.core.management.base import BaseCommand

from games.engine.bots import levels as bot_levels
from games.models import Room

DEMO_ROOM = "演示房间 Demo"


class Command(BaseCommand):
    help = "Ensure the demo room exists."

    def handle(self, *args, **options):
        level = "normal" if "normal" in bot_levels() else "easy"
        room, created = Room.objects.get_or_create(
            name=DEMO_ROOM, defaults={"preset": Room.Preset.STANDARD, "bot_level": level}
        )
        self.stdout.write(
            f"demo room {'created' if created else 'already there'}: {room.name} (id {room.pk})"
        )
