from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class LedgerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger"
    verbose_name = pgettext_lazy("app", "账本")
