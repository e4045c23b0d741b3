"""A person's sockets as a group: closed when they log out, change their password or are banned.

`close_user_sockets(user_id)` tells every process's socket hub (one group membership per process)
to close that person's table sockets (a ban does it in `games.services.ban_player`; a
password change view calls it). A message can be lost (the channel layer delivers at most once), so
each action also re-reads the socket's session (`still_signed_in`): a logged-out session acts no more.
"""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver
from django.http import HttpRequest

from games.services.broadcast import close_user_sockets

__all__ = ["close_user_sockets", "still_signed_in"]


def still_signed_in(session_key: str | None, user_id: int) -> bool:
    """Whether the session a socket opened with still signs in `user_id`, as a request with it would:
    the session exists, the account is active, and the password is the one the session was signed
    in with (Django's session hash). A lost close message after a password change or a deletion
    then costs nothing: the old session's next action is refused."""
    if not session_key:
        return False
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(request)
    return user.is_authenticated and user.pk == user_id


@receiver(user_logged_out, dispatch_uid="games.live.close_sockets_on_logout")
def _on_logout(sender, request, user, **kwargs) -> None:
    # An account no longer active had its sockets closed by what ended it (its deletion ends the
    # request's session with a log-out): that log-out is not a second event.
    if user is not None and user.is_active:
        close_user_sockets(user.pk)
