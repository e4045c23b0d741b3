"""`manage.py ensure_demo`: make sure the demo room exists (idempotent; `make run` calls it)."""

from django.core.management.base import BaseCommand

from games.models import Room

DEMO_ROOM = "演示房间 Demo"


class Command(BaseCommand):
    help = "Ensure the demo room exists."

    def handle(self, *args, **options):
        room, created = Room.objects.get_or_create(name=DEMO_ROOM, defaults={"preset": Room.Preset.STANDARD})
        self.stdout.write(f"demo room {'created' if created else 'already there'}: {room.name} (id {room.pk})")
