"""A person's sockets as a group: closed when they log out, change their password or are banned.

`close_user_sockets(user_id)` tells every process's socket hub (one group membership per process)
to close that person's table sockets (a ban does it in `games.services.ban_player`; a
password change view calls it). A message can be lost (the channel layer delivers at most once), so
each action also re-reads the socket's session (`still_signed_in`): a logged-out session acts no more.
"""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from games.services.broadcast import close_user_sockets

__all__ = ["close_user_sockets", "still_signed_in"]


def still_signed_in(session_key: str | None, user_id: int) -> bool:
    """Whether the session a socket opened with still exists and still belongs to `user_id`."""
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return store.load().get(SESSION_KEY) == str(user_id)


@receiver(user_logged_out, dispatch_uid="games.live.close_sockets_on_logout")
def _on_logout(sender, request, user, **kwargs) -> None:
    # An account no longer active had its sockets closed by what ended it (its deletion ends the
    # request's session with a log-out): that log-out is not a second event.
    if user is not None and user.is_active:
        close_user_sockets(user.pk)
