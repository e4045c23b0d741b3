from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Ensure the demo room exists (rooms arrive with the web issue)."

    def handle(self, *args, **options):
        self.stdout.write("demo: nothing to create yet")
