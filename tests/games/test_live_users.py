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
