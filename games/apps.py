from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = pgettext_lazy("app", "牌局")

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_delete

        from games.live import users  # noqa: F401  (connects the logout signal)
        from games.services.moderation import stand_up_deleted

        pre_delete.connect(stand_up_deleted, sender=get_user_model(), dispatch_uid="games-stand-up-deleted")
