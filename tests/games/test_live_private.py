"""A private table's socket opens only to a browser that came through its invite link, a seated
player or staff: its id is sequential, so guessing `/ws/table/<id>/` must not let anyone watch."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Table
from shmj_site.asgi import application

from .test_consumers import setup_table

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def make_private(table_id: int) -> tuple[str, object]:
    Table.objects.filter(pk=table_id).update(private=True, invite_code="PRVT23")
    stranger = get_user_model().objects.create_user(username="stranger", password="pw-123456")
    return "PRVT23", stranger


@database_sync_to_async
def browser(user, invite: str | None = None) -> str:
    """A signed-in browser's session cookie; with `invite`, after it opened that invite link."""
    client = Client()
    client.force_login(user)
    if invite is not None:
        assert client.get(f"/join/{invite}/").status_code == 200
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def table_socket(table_id: int, cookie: str) -> WebsocketCommunicator:
    """A browser's socket to the table, with the session cookie and this site's Origin."""
    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)


async def opens(table_id: int, cookie: str) -> bool:
    communicator = table_socket(table_id, cookie)
    connected, _ = await communicator.connect()
    if connected:
        await communicator.disconnect()
    return connected


async def test_a_private_tables_socket_opens_only_through_its_invite():
    table_id, (owner,) = await setup_table(humans=1)
    code, stranger = await make_private(table_id)
    assert await opens(table_id, await browser(owner))  # seated
    assert not await opens(table_id, await browser(stranger))
    assert await opens(table_id, await browser(stranger, invite=code))


async def close_code(table_id: int, cookie: str) -> int | None:
    communicator = table_socket(table_id, cookie)
    connected, code = await communicator.connect()
    assert not connected
    return code


async def test_a_private_tables_socket_answers_a_stranger_as_a_missing_table():
    """Issue 24 item 3: the same refusal for a private table and for an id nobody uses."""
    table_id, _ = await setup_table(humans=1)
    _, stranger = await make_private(table_id)
    cookie = await browser(stranger)
    assert await close_code(table_id, cookie) == await close_code(987654321, cookie) == 4404
