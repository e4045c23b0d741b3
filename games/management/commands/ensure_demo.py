"""`manage.py ensure_demo`: make sure the demo room and its quick-start pools exist (idempotent; `make
run` calls it)."""

from django.core.management.base import BaseCommand

from games.engine.bots import levels as bot_levels
from games.models import Room
from games.services.pairing import ensure_pools

DEMO_ROOM = "演示房间 Demo"
# The demo room's quick-start pools: (preset, stake).
DEMO_POOLS = [("standard", 1), ("standard", 5), ("lazi", 1), ("home", 1)]


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
        pools = ensure_pools(room_id=room.pk, offers=DEMO_POOLS)
        if pools:
            self.stdout.write(f"quick-start pools created: {pools}")
