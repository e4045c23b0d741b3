from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site itself, as an app only so that its system checks are registered."""

    name = "shmj_site"
    label = "shmj_site"
    verbose_name = "Shanghai Mahjong site"

    def ready(self) -> None:
        from shmj_site import checks  # noqa: F401  (registers the checks)
