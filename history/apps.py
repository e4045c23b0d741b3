from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class HistoryConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "history"
    verbose_name = pgettext_lazy("app", "战绩")

    def ready(self) -> None:
        # The game services tell history of every hand that ends (they never import history).
        from games.services import on_hand_finished
        from games.services.pairing import on_rating_lookup

        from .services import pool_ratings, record_finished_hand

        on_hand_finished(record_finished_hand)
        # Quick start pairs people of similar rating (games/services/pairing.py).
        on_rating_lookup(pool_ratings)
