from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = pgettext_lazy("app", "账户")
