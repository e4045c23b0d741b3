from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = pgettext_lazy("app", "牌局")

    def ready(self) -> None:
        from games.live import users  # noqa: F401  (connects the logout signal)
