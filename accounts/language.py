"""The chosen language, per browser (Django's language cookie) and per user (`Profile.language`).

Switching goes through Django's own `set_language` view; when the person is logged in the choice is
also stored on their profile (`services.set_language`). Logging in applies the profile's language:
the `user_logged_in` receiver notes it on the request and the middleware writes the cookie.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from . import services


def supported(code: str | None) -> bool:
    return bool(code) and code in dict(settings.LANGUAGES)


@require_POST
def set_language(request):
    response = django_set_language(request)
    code = request.POST.get("language")
    if request.user.is_authenticated and supported(code):
        services.set_language(user=request.user, language=code)
    return response


@receiver(user_logged_in)
def apply_profile_language(sender, request, user, **kwargs):
    code = services.profile_for(user).language
    if request is not None and supported(code):
        translation.activate(code)
        request.LANGUAGE_CODE = code
        request.profile_language = code


class ProfileLanguageMiddleware:
    """Sets the language cookie to the profile's language on the response of a log-in."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        code = getattr(request, "profile_language", None)
        if code:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                code,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
