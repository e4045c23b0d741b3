"""A person's sockets as a group: closed when they log out, change their password or are banned.

`close_user_sockets(user_id)` tells every process's socket hub (one group membership per process)
to close that person's table sockets (a ban does it in `games.services.ban_player`; a
password change view calls it). A message can be lost (the channel layer delivers at most once), so
each action also re-reads the socket's session (`still_signed_in`): a logged-out session acts no more.
"""

from __future__ import annotations

import functools
import threading
from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user, get_user_model
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.models import Session
from django.db import connection
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import timezone

from games.services.broadcast import close_user_sockets

__all__ = ["close_user_sockets", "still_signed_in"]


def still_signed_in(session_key: str | None, user_id: int) -> bool:
    """Whether the session a socket opened with still signs in `user_id`, as a request with it would:
    the session exists, the account is active, and the password is the one the session was signed
    in with (Django's session hash). A lost close message after a password change or a deletion
    then costs nothing: the old session's next action is refused.

    It runs on every action, so the answer comes from one query (`_signed_in_row`): no row (no
    session, an expired one, no active account) is no, as Django would say; a row already vouched for
    is yes; anything else — a session not yet seen, a hash made with an older secret — is answered by
    Django's own `get_user`."""
    if not session_key:
        return False
    row = _signed_in_row(session_key, user_id)
    if row is None:
        return False
    return (user_id, session_key, *row) in _verified or _django_says_signed_in(session_key, user_id, row)


def signed_out(sockets: set[tuple[str | None, int]], asks: int = 100) -> set[tuple[str | None, int]]:
    """Of (session key, user id) pairs, those whose session no longer signs that user in, as
    `still_signed_in` would answer for each, from two queries for them all (the hub's sweep).

    A pair whose session and account rows are there but not yet vouched for is put to Django's
    `get_user` (about a millisecond each); at most `asks` of them per call, so that the first sweep
    after a restart does not hold a worker for seconds: the others wait for a later sweep (or their
    first action). A missing or expired session, or an account gone or inactive, needs no asking."""
    now = timezone.now()
    sessions = _by_chunks(
        sorted({key for key, _ in sockets if key}),
        lambda keys: Session.objects.filter(session_key__in=keys, expire_date__gt=now).values_list(
            "session_key", "session_data"
        ),
    )
    passwords = _by_chunks(
        sorted({user_id for _, user_id in sockets}),
        lambda ids: get_user_model().objects.filter(pk__in=ids, is_active=True).values_list("pk", "password"),
    )
    ended = set()
    for key, user_id in sockets:
        row = (sessions.get(key), passwords.get(user_id))
        if None in row:  # no session, an expired one, or no active account: Django signs no one in
            ended.add((key, user_id))
        elif (user_id, key, *row) not in _verified and asks > 0:
            asks -= 1
            if not _django_says_signed_in(key, user_id, row):
                ended.add((key, user_id))
    return ended


def _by_chunks(values: list, read) -> dict:
    """`dict(read(chunk))` over `values` in chunks of 500 (one IN (...) list each)."""
    found = {}
    for start in range(0, len(values), 500):
        found.update(read(values[start : start + 500]))
    return found


def _django_says_signed_in(session_key: str, user_id: int, row: tuple[str, str]) -> bool:
    """Django's own answer (`get_user`), remembered in `_verified` when it is yes for `row`."""
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(request)
    signed_in = user.is_authenticated and user.pk == user_id
    # Remembered only when the row read before is still the row after: what `get_user` accepted.
    if signed_in and _signed_in_row(session_key, user_id) == row:
        with _verified_lock:
            if len(_verified) >= _MAX_VERIFIED:
                _verified.clear()
            _verified.add((user_id, session_key, *row))
    return signed_in


# (user id, session key, session data, password hash) that Django's `get_user` signed in. The
# session's data and the account's password are in the key: a log-out deletes the session's row, a
# password change changes the hash, a deactivation or an expiry leaves `_signed_in_row` no row.
_verified: set[tuple[int, str, str, str]] = set()
_verified_lock = threading.Lock()
_MAX_VERIFIED = 20_000


def _signed_in_row(session_key: str, user_id: int) -> tuple[str, str] | None:
    """(session data, password hash) of an unexpired session and an active account, in one query."""
    with connection.cursor() as cursor:
        cursor.execute(
            _signed_in_sql(), [session_key, connection.ops.adapt_datetimefield_value(timezone.now()), user_id]
        )
        row = cursor.fetchone()
    return tuple(row) if row is not None else None


@functools.cache
def _signed_in_sql() -> str:
    ops = connection.ops
    session, user = Session._meta, get_user_model()._meta
    return (
        f"SELECT s.{ops.quote_name('session_data')}, u.{ops.quote_name(user.get_field('password').column)}"
        f" FROM {ops.quote_name(session.db_table)} s, {ops.quote_name(user.db_table)} u"
        f" WHERE s.{ops.quote_name('session_key')} = %s AND s.{ops.quote_name('expire_date')} > %s"
        f" AND u.{ops.quote_name(user.pk.column)} = %s AND u.{ops.quote_name('is_active')}"
    )


@receiver(user_logged_out, dispatch_uid="games.live.close_sockets_on_logout")
def _on_logout(sender, request, user, **kwargs) -> None:
    # An account no longer active had its sockets closed by what ended it (its deletion ends the
    # request's session with a log-out): that log-out is not a second event.
    if user is not None and user.is_active:
        close_user_sockets(user.pk)
