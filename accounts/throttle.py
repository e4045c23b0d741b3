"""Throttles for the account forms that answer strangers: sign-up tells whether a username is taken
and a password-reset request sends mail, so one address may post each only a few times per window
(settings.SIGNUP_ATTEMPTS_LIMIT per SIGNUP_WINDOW), and not at all while django-axes has that address
locked out of logging in.

Counted in Django's cache: per process with the default local-memory cache, shared by every process
when `REDIS_URL` gives the cache Redis (settings.py).
"""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_ip_address
from django.conf import settings
from django.core.cache import cache


def attempt_allowed(request, form: str) -> bool:
    """May this address post `form` ("signup", "password_reset") once more now? Counts the attempt."""
    if not AxesProxyHandler.is_allowed(request, credentials={}):
        return False
    key = f"throttle:{form}:{get_client_ip_address(request) or 'unknown'}"
    window = int(settings.SIGNUP_WINDOW.total_seconds())
    cache.add(key, 0, timeout=window)
    try:
        attempts = cache.incr(key)
    except ValueError:  # expired between add and incr: this is the first attempt of a new window
        cache.set(key, 1, timeout=window)
        attempts = 1
    return attempts <= settings.SIGNUP_ATTEMPTS_LIMIT
