from django.contrib import admin
from django.urls import include, path

from accounts.language import set_language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("history/", include("history.urls")),
    path("calc/", include("calc.urls")),
    path("tournaments/", include("tournaments.urls")),
    # Django's set_language, wrapped to also store the choice on a logged-in user's profile.
    path("i18n/setlang/", set_language, name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.urls")),
]
