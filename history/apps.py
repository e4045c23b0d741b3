from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class HistoryConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "history"
    verbose_name = pgettext_lazy("app", "战绩")

    def ready(self) -> None:
        # The game services tell history of every hand that ends (they never import history).
        from games.services import on_hand_finished

        from .services import record_finished_hand

        on_hand_finished(record_finished_hand)
