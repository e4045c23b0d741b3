"""Throttles for the forms and links that answer strangers: sign-up tells whether a username is taken
and a password-reset request sends mail, so one address may post each only a few times per window
(settings.SIGNUP_ATTEMPTS_LIMIT per SIGNUP_WINDOW), and not at all while django-axes has that address
locked out of logging in; a private table's invite link (`/join/<code>/`) is its only key, so
guesses at it are counted too (`counted_within`, games/views.py).

Counted in Django's cache: per process with the default local-memory cache, shared by every process
when `REDIS_URL` gives the cache Redis (settings.py).
"""

from __future__ import annotations

from datetime import timedelta

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_ip_address
from django.conf import settings
from django.core.cache import cache


def attempt_allowed(request, form: str) -> bool:
    """May this address post `form` ("signup", "password_reset") once more now? Counts the attempt."""
    if not AxesProxyHandler.is_allowed(request, credentials={}):
        return False
    return counted_within(
        f"throttle:{form}:{client_address(request)}", settings.SIGNUP_ATTEMPTS_LIMIT, settings.SIGNUP_WINDOW
    )


def client_address(request) -> str:
    """The address django-axes counts the request under (the proxy's X-Forwarded-For, see settings)."""
    return get_client_ip_address(request) or "unknown"


def counted_within(key: str, limit: int, window: timedelta) -> bool:
    """Count one attempt under `key`; whether it is within `limit` attempts in the window that
    began with the first of them."""
    seconds = max(1, int(window.total_seconds()))
    cache.add(key, 0, timeout=seconds)
    try:
        attempts = cache.incr(key)
    except ValueError:  # expired between add and incr: this is the first attempt of a new window
        cache.set(key, 1, timeout=seconds)
        attempts = 1
    return attempts <= limit
