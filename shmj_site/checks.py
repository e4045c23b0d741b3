"""The site's own `manage.py check --deploy` checks (what Django's security checks do not know)."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register

W001_NOT_BEHIND_PROXY = Warning(
    "The site is not told that it runs behind a proxy (DJANGO_BEHIND_PROXY is unset).",
    hint=(
        "daphne reads a whole request body into memory before Django sees it (a 100 MB body was "
        "accepted), so DATA_UPLOAD_MAX_MEMORY_SIZE protects nothing there. Serve the site through "
        "nginx with `client_max_body_size 1m` (deploy/nginx.conf, deploy/README.md) and set "
        "DJANGO_BEHIND_PROXY=1."
    ),
    id="shmj.W001",
)


@register(Tags.security, deploy=True)
def check_behind_proxy(app_configs, **kwargs):
    return [] if settings.BEHIND_PROXY else [W001_NOT_BEHIND_PROXY]
