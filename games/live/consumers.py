"""The table and lobby sockets: authenticate, parse once into a typed command, call one service.

Group messages only say "table T is now at version V"; the process's hub (`games.live.hub`) then
renders each socket its own viewer's fragments (from `state.view(seat)`, or `view(None)` for a
spectator), so a socket never receives anything its viewer may not see.

A socket's frames are in the language of the page that opened it (`socket_language`: Django's
language cookie, else the browser's Accept-Language, else the site's default, as for a request).
"""

from __future__ import annotations

import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from games.live import limits, lobby_sockets, messages
from games.live.delivery import GuardedSends
from games.live.folding import FoldedPushes
from games.live.hub import update_hub
from games.live.users import still_signed_in
from games.models import Table
from games.presentation import rendering
from games.services import (
    ServiceError,
    pool_socket_closed,
    pool_vouch,
    seat_connected,
    seat_disconnected,
    table_act,
    table_next_hand,
    table_set_stake,
    table_swap,
)
from games.services.broadcast import table_group
from games.services.table_settings import is_member, may_enter

log = logging.getLogger(__name__)

CLOSE_SIGNED_OUT = 4401
CLOSE_TOO_MANY = 4429


def csrf_cookie(scope) -> str | None:
    return (scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME)


def socket_language(scope) -> str:
    """The language the socket's page was shown in, found as `LocaleMiddleware` finds a request's
    (the language switch sets the cookie; a log-in sets it to the profile's language)."""
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated


@database_sync_to_async
def _admission(table_id: int, user, session) -> tuple:
    """(the table's `created`, or None: no such table, or a private one this browser may not see;
    whether the browser is one of the table's members, who never wait for a place: someone seated
    there or who played in its matches, and for a private table everyone it admits, invited
    browsers and staff)."""
    row = Table.objects.filter(pk=table_id).values_list("created", "private").first()
    if row is None:
        return None, False
    created, private = row
    member = is_member(table_id, user)
    if private:
        if not may_enter(private=True, table_id=table_id, user=user, session=session, seated=member):
            return None, False
        return created, True
    return created, member


class TableConsumer(GuardedSends, AsyncWebsocketConsumer):
    def describe(self) -> str:
        return f"table {getattr(self, 'table_id', '?')}, {super().describe()}"

    async def drop(self) -> None:
        await super().drop()
        if hasattr(self, "hub"):
            await self.hub.leave(self)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        session = self.scope.get("session")
        self.session_key = session.session_key if session is not None else None
        self.version = -1  # the table version the socket shows
        self.screen = None  # what it shows (rendering.Screen), region by region
        self.language = socket_language(self.scope)
        self.pushing = -1  # the newest version a render in flight will push to this socket
        self.rate = limits.RateLimit()
        self.address = limits.client_address(self.scope)
        self.holds = []
        # One masked token per socket: it stays valid for the socket's life, and frames stay stable.
        self.csrf_token = rendering.csrf_token_for(csrf_cookie(self.scope))
        self.table_created, member = await _admission(self.table_id, self.user, session)
        if self.table_created is None:
            await self.close(code=4404)
            return
        if not member:
            holds = limits.spectator_places(self.address, self.table_id)
            if holds is None:
                await self.close(code=CLOSE_TOO_MANY)
                return
            self.holds = holds
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # Listening before the snapshot below: an update committed after it is pushed, one
        # committed before it is in the snapshot.
        self.hub = update_hub(self.channel_layer)
        await self.hub.join(self)
        await database_sync_to_async(seat_connected)(table_id=self.table_id, user=self.user)
        await self.send_snapshot()

    async def disconnect(self, code) -> None:
        for slots, key in getattr(self, "holds", ()):
            slots.give_back(key)
        self.holds = []
        if not hasattr(self, "group"):
            return
        if hasattr(self, "hub"):
            await self.hub.leave(self)
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await database_sync_to_async(seat_disconnected)(table_id=self.table_id, user=self.user)
        if _signed_in(self.user):
            # The same person may still have this table open elsewhere (another tab or device):
            # those sockets answer by marking the seat connected again (see `presence_check`).
            await self.channel_layer.group_send(
                self.group, {"type": "presence.check", "user_id": self.user.pk}
            )

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if not self.rate.take():
            await self.send_error(ServiceError("too_fast"))
            return
        try:
            command = messages.parse(text_data)
            await self.HANDLERS[type(command)](self, command)
        except ServiceError as error:
            await self.send_error(error)
            if error.code == "signed_out":
                await self.close(code=CLOSE_SIGNED_OUT)
        except Exception:  # a bug must not cost the player their socket; nothing was committed
            log.exception("table %s: unexpected error handling a message", self.table_id)
            await self.send_error(ServiceError("server_error"))

    async def send_error(self, error: ServiceError) -> None:
        await self.send(text_data=rendering.render_error(error, self.language))

    def _call(self, service, **kwargs):
        """On a worker thread: the service for this socket's user, if their session still holds."""
        if _signed_in(self.user) and not still_signed_in(self.session_key, self.user.pk):
            raise ServiceError("signed_out")
        return service(table_id=self.table_id, user=self.user, **kwargs)

    def _clicked_on(self, version):
        """The table version a click was made on. The browser sends its frame stamp's: the version of
        the last frame this socket got. A version that changed nothing the socket shows brings it no
        frame, but the hub moves `self.version` on all the same (`games.live.hub`): a click on the last
        frame stands for that newer version, so such a version never makes the click stale. Any other
        version goes to the service as sent (which refuses it if it is stale)."""
        if self.screen is not None and str(version) == str(self.screen.version):
            return self.version
        return version

    async def _act(self, command: messages.Act) -> None:
        # Not thread-sensitive: the service locks its table row, so actions at different
        # tables need not queue behind one thread per process (bench/ws_load.py).
        await database_sync_to_async(self._call, thread_sensitive=False)(
            table_act, action=command.action, version=self._clicked_on(command.version)
        )

    async def _next_hand(self, command: messages.NextHand) -> None:
        await database_sync_to_async(self._call)(table_next_hand, version=self._clicked_on(command.version))

    async def _swap(self, command: messages.Swap) -> None:
        await database_sync_to_async(self._call)(
            table_swap, tiles=command.tiles, version=self._clicked_on(command.version)
        )

    async def _snapshot(self, command: messages.Snapshot) -> None:
        await self.send_snapshot(force=True)

    async def _set_stake(self, command: messages.SetStake) -> None:
        await database_sync_to_async(self._call)(table_set_stake, stake=command.stake)

    async def _table_command(self, command: messages.TableCommand) -> None:
        await database_sync_to_async(self._call)(command.service)

    HANDLERS = {
        messages.Act: _act,
        messages.NextHand: _next_hand,
        messages.Snapshot: _snapshot,
        messages.SetStake: _set_stake,
        messages.Swap: _swap,
        messages.TableCommand: _table_command,
    }

    async def presence_check(self, event) -> None:
        """Another socket of this socket's person closed: this one is still here, so they are not away."""
        if _signed_in(self.user) and event.get("user_id") == self.user.pk:
            await database_sync_to_async(seat_connected)(table_id=self.table_id, user=self.user)
            await self.send_snapshot(force=True)

    async def user_close(self, event) -> None:
        """The socket's user logged out, changed their password or was banned (`close_user_sockets`)."""
        await self.send_error(ServiceError("signed_out"))
        await self.close(code=CLOSE_SIGNED_OUT)

    async def dispatch(self, message) -> None:
        """Channels closes stale database connections before every handler, through a hop to the one
        thread-sensitive worker thread. An action's message touches the database only inside
        `database_sync_to_async`, which closes stale connections itself, so it skips that hop;
        everything else is dispatched as usual."""
        if message.get("type") == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    async def send_snapshot(self, force: bool = False) -> None:
        """A full frame of the table as it is now (on connecting, on request, or when the socket's
        person came back on another socket): every region, whatever the socket showed before."""
        [(screen, html)] = await database_sync_to_async(rendering.render_for_viewers, thread_sensitive=False)(
            self.table_id, [(self.user, self.csrf_token, self.language, None)]
        )
        if screen is not None and (force or screen.version > self.version):
            self.version, self.screen = screen.version, screen
            await self.send(text_data=html)


class LobbyConsumer(FoldedPushes, GuardedSends, AsyncWebsocketConsumer):
    """The live lobby: rooms, pools, tables and people online, pushed whenever they change; and, for
    a person quick start seated, the push that sends their browser to the table. The process's lobby
    hub (`lobby_sockets`) hands it the lobby group's messages. While open it keeps its person's place
    in a pool (vouched for by the clock)."""

    def describe(self) -> str:
        return f"lobby, {super().describe()}"

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.language = socket_language(self.scope)
        await self.accept()
        self.hub = lobby_sockets.lobby_hub(self.channel_layer)
        await self.hub.join(self)
        if _signed_in(self.user):
            await database_sync_to_async(pool_vouch, thread_sensitive=False)([self.user.pk])
        await self.lobby_update({})

    async def disconnect(self, code) -> None:
        if hasattr(self, "hub") and self.hub.leave(self) and _signed_in(self.user):
            await database_sync_to_async(pool_socket_closed, thread_sensitive=False)(self.user.pk)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        """The lobby is read-only over the socket; forms post over HTTP with CSRF."""

    async def lobby_update(self, event) -> None:
        """Push the lobby, at most one render every `LOBBY_PUSH_INTERVAL` seconds: the updates that
        arrive meanwhile are folded into one render after it (people joining and leaving pools all
        the time would otherwise make every lobby socket render all the time)."""
        self.changed()

    def push_interval(self) -> float:
        return float(settings.LOBBY_PUSH_INTERVAL)

    def render_push(self, fresh_after: float) -> str:
        """On a worker thread: this socket's lobby, from a snapshot read after `fresh_after`."""
        return rendering.render_lobby_fragment(
            self.user, csrf_cookie(self.scope), self.language, lobby_sockets.snapshot_after(fresh_after)
        )

    async def lobby_seated(self, event) -> None:
        """Quick start seated people: if this socket's person is one, send the browser to the table."""
        if self.closing or not _signed_in(self.user):
            return
        for user_id, table_id in event.get("seated") or ():
            if user_id == self.user.pk:
                await self.send(text_data=rendering.render_lobby_go(table_id))
                return
