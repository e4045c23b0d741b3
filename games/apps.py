from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games 牌局"

    def ready(self) -> None:
        from games.live import users  # noqa: F401  (connects the logout signal)
