"""A person's table sockets close when they log out or are banned, and a socket whose session is
gone acts no more (issue 17 item 3)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from games import services
from games.live import close_user_sockets

from .test_consumers import send, setup_table, snapshot, until_human
from .wsclient import Reader, connect

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def session_keys(user) -> list[str]:
    return [
        s.session_key for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(user.pk)
    ]


async def closed_with(reader: Reader) -> int:
    """Read to the socket's close; its code (an error frame may come first)."""
    while True:
        output = await reader.communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output["code"]
        reader.keep(output["text"])


@database_sync_to_async
def log_out(user) -> None:
    client = Client()
    client.force_login(user)
    assert client.post(reverse("accounts:logout")).status_code in (200, 302)


async def test_logging_out_closes_the_user_s_sockets_and_no_one_else_s():
    table_id, (alice, bob) = await setup_table(humans=2)
    a1 = Reader(await connect(f"/ws/table/{table_id}/", alice))
    a2 = Reader(await connect(f"/ws/table/{table_id}/", alice))
    b = Reader(await connect(f"/ws/table/{table_id}/", bob))
    for reader in (a1, a2, b):
        await reader.next()
    await log_out(alice)
    assert await closed_with(a1) == 4401 and await closed_with(a2) == 4401
    assert 'data-error-code="signed_out"' in a1.shown
    await send(b, {"command": "snapshot"})
    assert 'id="board"' in await b.next()  # bob's socket lives on
    await b.communicator.disconnect()


async def test_close_user_sockets_is_callable_from_synchronous_code():
    table_id, (alice,) = await setup_table(humans=1)
    reader = Reader(await connect(f"/ws/table/{table_id}/", alice))
    await reader.next()
    await database_sync_to_async(close_user_sockets)(alice.pk)
    assert await closed_with(reader) == 4401


async def test_a_ban_closes_the_player_s_sockets():
    table_id, (alice,) = await setup_table(humans=1)
    reader = Reader(await connect(f"/ws/table/{table_id}/", alice))
    await reader.next()
    await database_sync_to_async(services.ban_player)(user=alice, reason="abuse")
    assert await closed_with(reader) == 4401


async def test_an_action_from_a_socket_whose_session_is_gone_is_refused():
    """The close message can be lost between processes: each action re-reads the session."""
    table_id, (alice,) = await setup_table(humans=1)
    reader = Reader(await connect(f"/ws/table/{table_id}/", alice))
    version, state = await until_human(table_id, 0, [reader])
    await database_sync_to_async(lambda: Session.objects.all().delete())()
    await send(reader, {"action": str(state.legal_actions(0)[0]), "version": version})
    assert await closed_with(reader) == 4401
    assert 'data-error-code="signed_out"' in reader.shown
    assert (await snapshot(table_id))[0] == version


@pytest.mark.parametrize("change", ["password", "deletion"])
async def test_a_socket_of_a_session_a_password_change_or_deletion_ended_acts_no_more(change):
    """Were the close message lost, the old session's next action is still refused (issue 24 item 1:
    a stolen session acted on after the password change)."""
    table_id, (alice,) = await setup_table(humans=1)
    reader = Reader(await connect(f"/ws/table/{table_id}/", alice))
    version, state = await until_human(table_id, 0, [reader])

    def end_the_session() -> None:  # the row changes, no message is sent
        if change == "password":
            alice.set_password("a-new-pass-99")
        else:
            alice.is_active = False
        alice.save()

    await database_sync_to_async(end_the_session)()
    await send(reader, {"action": str(state.legal_actions(0)[0]), "version": version})
    assert await closed_with(reader) == 4401
    assert (await snapshot(table_id))[0] == version


@pytest.mark.parametrize(
    "ending", ["log-out", "expiry", "password", "deactivation", "deletion", "another user"]
)
def test_a_session_already_vouched_for_is_read_again_on_each_action(ending, django_assert_num_queries):
    """The per-action check answers from one query once Django has vouched for the session, and
    whatever ends the session afterwards ends the answer too (nothing is trusted for a while)."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.live.users import signed_out, still_signed_in

    alice, bob = (get_user_model().objects.create_user(name, password="pw-123456") for name in ("al", "bo"))
    client = Client()
    client.force_login(alice)
    key = client.session.session_key
    assert still_signed_in(key, alice.pk)  # Django's get_user vouches for it
    with django_assert_num_queries(1):
        assert still_signed_in(key, alice.pk)
    with django_assert_num_queries(2):
        assert signed_out({(key, alice.pk), (None, bob.pk)}) == {(None, bob.pk)}
    user_id = alice.pk
    if ending == "log-out":
        client.post(reverse("accounts:logout"))
    elif ending == "expiry":
        Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    elif ending == "password":
        alice.set_password("a-new-pass-99")
        alice.save()
    elif ending == "deactivation":
        alice.is_active = False
        alice.save()
    elif ending == "deletion":
        alice.delete()
    else:
        user_id = bob.pk
    assert not still_signed_in(key, user_id)
    assert signed_out({(key, user_id)}) == {(key, user_id)}


def test_a_sweep_asks_django_about_a_bounded_number_of_sessions_not_yet_vouched_for(monkeypatch):
    """Rows that are gone are answered without asking; of the sessions Django has not vouched for
    yet, at most `asks` are put to `get_user` per sweep, and the rest wait for a later one."""
    from django.contrib.auth import get_user_model

    from games.live import users

    people = [get_user_model().objects.create_user(f"sw{i}", password="pw-123456") for i in range(3)]
    keys = []
    for person in people:
        client = Client()
        client.force_login(person)
        keys.append(client.session.session_key)
    changed = people[0]
    changed.set_password("a-new-pass-99")  # no close message: only Django can tell
    changed.save()
    Session.objects.filter(pk=keys[2]).delete()
    asked = []
    original = users._django_says_signed_in
    monkeypatch.setattr(users, "_django_says_signed_in", lambda *a: asked.append(a[:2]) or original(*a))
    pairs = {(key, person.pk) for key, person in zip(keys, people, strict=True)}
    first = users.signed_out(pairs, asks=1)
    assert (keys[2], people[2].pk) in first and len(asked) == 1
    later = users.signed_out(pairs, asks=5)
    assert first | later == {(keys[0], changed.pk), (keys[2], people[2].pk)}
    assert len(asked) == 2  # each of the two live rows was put to Django once
    # Now nothing is left to ask: Django vouched for one session and ended the other (get_user
    # flushes a session whose password hash no longer matches).
    assert users.signed_out(pairs, asks=0) == first | later and len(asked) == 2


async def test_a_socket_whose_close_message_was_lost_is_closed_by_the_session_sweep(settings):
    """The hub checks every signed-in socket's session every SOCKET_SESSION_SWEEP seconds: a socket
    whose session ended without a close message (lost between processes) closes as signed out, and
    the others live on."""
    settings.SOCKET_SESSION_SWEEP = 0.05
    table_id, (alice, bob) = await setup_table(humans=2)
    a = Reader(await connect(f"/ws/table/{table_id}/", alice))
    b = Reader(await connect(f"/ws/table/{table_id}/", bob))
    for reader in (a, b):
        await reader.next()
    keys = await session_keys(alice)
    await database_sync_to_async(lambda: Session.objects.filter(session_key__in=keys).delete())()
    assert await closed_with(a) == 4401
    assert 'data-error-code="signed_out"' in a.shown
    await send(b, {"command": "snapshot"})
    assert 'id="board"' in await b.next()
    await b.communicator.disconnect()


async def test_a_sweep_passes_over_a_socket_whose_close_fails(monkeypatch):
    """One socket whose close raises is dropped and logged; the sweep closes the others all the same."""
    from channels.layers import get_channel_layer

    from games.live.hub import update_hub

    table_id, (alice, bob) = await setup_table(humans=2)
    a = Reader(await connect(f"/ws/table/{table_id}/", alice))
    b = Reader(await connect(f"/ws/table/{table_id}/", bob))
    for reader in (a, b):
        await reader.next()
    await database_sync_to_async(lambda: Session.objects.all().delete())()
    hub = update_hub(get_channel_layer())
    (first, *_) = sorted(hub.sockets[table_id], key=lambda s: s.user.pk)

    async def failing(event):
        raise RuntimeError("this socket's close fails")

    monkeypatch.setattr(first, "user_close", failing)
    await hub.sweep_sessions()
    assert await closed_with(b) == 4401
    assert await closed_with(a) == 1011  # dropped
