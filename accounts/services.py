"""Account state changes: creating an account with its profile, editing the profile, what follows a
password change, and deleting an account. Views call these; nothing else writes a Profile."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from .models import DELETED_NAME, Profile, deleted_username
from .names import normalise_display_name


class AccountError(Exception):
    """A refused account change; `str()` is the message shown to the person."""


def create_account(
    *, username: str, password: str, display_name: str = "", email: str = ""
) -> AbstractBaseUser:
    """A new user and their profile, together. Two sign-ups racing for one username: the second is
    refused (AccountError), not a server error."""
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=username, password=password, email=email)
            Profile.objects.create(user=user, display_name=normalise_display_name(display_name))
    except IntegrityError:
        raise AccountError(_("这个用户名已被使用。")) from None
    return user


def profile_for(user) -> Profile:
    """The user's profile; an unsaved blank one for users made elsewhere (admin, createsuperuser),
    saved by `update_profile` the first time they change it."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)


def update_profile(*, user, display_name: str, email: str) -> Profile:
    with transaction.atomic():
        profile, _ = Profile.objects.update_or_create(
            user=user, defaults={"display_name": normalise_display_name(display_name)}
        )
        if user.email != email:
            user.email = email
            user.save(update_fields=["email"])
    return profile


def set_language(*, user, language: str) -> Profile:
    """Remember the language the user chose (a code of settings.LANGUAGES) on their profile."""
    with transaction.atomic():
        profile, _ = Profile.objects.update_or_create(user=user, defaults={"language": language})
    return profile


def password_changed(*, user) -> None:
    """After a password change or reset (or a deletion): every process closes the user's open table
    sockets once this transaction commits, as the sessions behind them no longer authenticate."""
    from games.services.broadcast import on_commit_close_user_sockets

    on_commit_close_user_sockets(user.pk)


def seated_table_id(user) -> int | None:
    """The table where the user holds a seat (waiting or playing), if any."""
    from games.models import Seat, Table

    seat = (
        Seat.objects.filter(user=user).exclude(table__status=Table.Status.FINISHED).only("table_id").first()
    )
    return seat.table_id if seat else None


def delete_account(*, user, password: str):
    """Delete an account while keeping the ledger and the history whole; returns the deleted user.

    The user row stays (ledger entries, penalties and hand records point at it) but loses everything
    personal: the name shown everywhere becomes 已注销, the username a placeholder no sign-up can
    take, the e-mail goes, the password becomes unusable and the account inactive, which ends every
    session of it (Django checks both on each request). Refused without the right password, and
    while the user holds a seat (they leave the table first: leaving during a hand is the table's
    business, with its penalty). The user row's lock serialises this with taking a seat, which
    locks it too (`games.services.changes.lock_seat_taker`): a deleted user never holds a seat.
    """
    if not user.check_password(password):
        raise AccountError(_("密码不对。"))
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if not user.is_active:  # a second request of the same deletion, queued behind the first
            raise AccountError(_("账户已注销。"))
        table_id = seated_table_id(user)
        if table_id is not None:
            raise AccountError(_("你还坐在 {table} 号桌，请先离开牌桌。").format(table=table_id))
        user.username = deleted_username(user.pk)
        user.email = user.first_name = user.last_name = ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()
        Profile.objects.update_or_create(user=user, defaults={"display_name": DELETED_NAME})
        password_changed(user=user)
    return user
