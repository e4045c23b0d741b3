"""Set-up steps about accounts, run inside the cluster's Django like `seed.py`'s (and listed there).

`deletion_races` is a whole experiment rather than a set-up step: it races account deletion against
taking a seat, on threads of one process against the cluster's PostgreSQL (each thread its own
connection, so the two transactions really interleave), and reports what happened.
"""

from __future__ import annotations

import secrets
import threading
from collections import Counter

from tests.multiprocess.seed import _batched_broadcasts, _session_for

PASSWORD = "revoked-pass-77"


def signed_in_users(*, count: int) -> dict:
    """`count` users with the password `PASSWORD`, each with a logged-in session."""
    from django.contrib.auth import get_user_model

    tag = secrets.token_hex(3)
    users = [
        get_user_model().objects.create_user(username=f"revoked{i}-{tag}", password=PASSWORD)
        for i in range(count)
    ]
    return {"users": [{"user_id": u.pk, "session": _session_for(u)} for u in users], "password": PASSWORD}


def _on_own_connection(work, results: list, index: int, barrier: threading.Barrier) -> threading.Thread:
    def run() -> None:
        from django.db import connection

        try:
            barrier.wait()
            results[index] = work()
        finally:
            connection.close()

    return threading.Thread(target=run)


def deletion_races(*, count: int) -> dict:
    """`count` races, each between a user deleting their account and the same user sitting down at a
    waiting table (two threads released together). Returns the outcomes and the ghosts: seats held
    by a deleted (inactive) user at a table that is not finished."""
    from django.contrib.auth import get_user_model
    from django.test import override_settings

    from accounts import services as accounts
    from games import services as games
    from games.errors import ServiceError
    from games.models import Room, Seat, Table

    user_model = get_user_model()
    tag = secrets.token_hex(3)
    outcomes: Counter = Counter()

    def delete(user):
        try:
            accounts.delete_account(user=user, password=PASSWORD)
        except accounts.AccountError:
            return "deletion refused"
        return "deleted"

    def sit(table_id, user):
        try:
            games.table_sit(table_id=table_id, user=user)
        except ServiceError as error:
            return f"sit refused: {error.code}"
        return "seated"

    # A fast hasher: the races are about the transactions, not the password check before them.
    fast = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with override_settings(PASSWORD_HASHERS=fast), _batched_broadcasts(deliver=False):
        room = Room.objects.create(name=f"races-{tag}")
        for i in range(count):
            owner = user_model.objects.create_user(username=f"owner{i}-{tag}", password=None)
            racer = user_model.objects.create_user(username=f"racer{i}-{tag}", password=PASSWORD)
            table = games.table_create(room_id=room.pk, user=owner)
            results: list = [None, None]
            barrier = threading.Barrier(2)
            threads = [
                _on_own_connection(lambda u=racer: delete(u), results, 0, barrier),
                _on_own_connection(lambda t=table.pk, u=racer: sit(t, u), results, 1, barrier),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            outcomes[" / ".join(results)] += 1
    ghosts = (
        Seat.objects.filter(table__room=room, user__is_active=False)
        .exclude(table__status=Table.Status.FINISHED)
        .count()
    )
    return {"ghosts": ghosts, "outcomes": dict(outcomes)}


COMMANDS = {"signed_in_users": signed_in_users, "deletion_races": deletion_races}
