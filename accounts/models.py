"""A player's profile: what the tables show instead of the login name."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# What a deleted account is called everywhere (accounts.services.delete_account); nobody else may take
# it, nor anything that reads as it (accounts.names).
DELETED_NAME = "已注销"


def deleted_username(user_id: int) -> str:
    """A deleted account's username. "#" is outside what the username validator accepts (letters,
    digits and @ . + - _), so no sign-up can take it beforehand and make the deletion fail."""
    return f"deleted#{user_id}"


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile", verbose_name=_("用户")
    )
    display_name = models.CharField(_("昵称"), max_length=24, blank=True, default="")
    # The language chosen in the header while logged in ("" = not chosen yet); applied at log-in.
    language = models.CharField(_("语言"), max_length=8, blank=True, default="", choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("玩家资料")
        verbose_name_plural = pgettext_lazy("plural", "玩家资料")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


def display_name(user) -> str:
    """The name shown at tables: the profile's display name, else the username."""
    if user is None:
        return ""
    profile = Profile.objects.filter(user=user).only("display_name").first()
    return (profile.display_name if profile else "") or user.get_username()
