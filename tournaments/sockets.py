"""The tournament page's socket (issue 29): its standings and rounds pushed as hands end.

A recorded hand (or a step of the tournament: a round seated or ended) sends the tournament's group
one message after the commit carrying only the tournament's id; each socket then renders the page's
live part for its own viewer. Everything in it is public (standings, the rounds' tables, the seeds
once revealed); only the viewer's own row mark and the organiser's remove buttons depend on who
looks.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from games.live.consumers import csrf_cookie, socket_language
from games.live.delivery import GuardedSends
from games.live.folding import FoldedPushes
from games.presentation.rendering import csrf_token_for

from . import selectors
from .broadcast import tournament_group
from .models import Tournament

CLOSE_NOT_FOUND = 4404


class TournamentConsumer(FoldedPushes, GuardedSends, AsyncWebsocketConsumer):
    """The tournament page's live part, pushed on connect and whenever its tournament's group is told
    it changed. Read-only: the page's forms post over HTTP with CSRF. Changes arriving while a render runs are
    folded into one render after it."""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.language = socket_language(self.scope)
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await database_sync_to_async(self._may_watch, thread_sensitive=False)():
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.tournament_changed({})  # what changed between the page's render and this connect

    async def disconnect(self, code) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        """Nothing is accepted over this socket."""

    def describe(self) -> str:
        return f"tournament {self.tournament_id}, {super().describe()}"

    async def tournament_changed(self, event) -> None:
        self.changed()

    def _may_watch(self) -> bool:
        tournament = Tournament.objects.filter(pk=self.tournament_id).first()
        return tournament is not None and selectors.may_see(tournament, self.user, "")

    def render_push(self, fresh_after: float) -> str:
        """On a worker thread: the page's live part for this socket's viewer, in its language."""
        tournament = Tournament.objects.get(pk=self.tournament_id)
        with translation.override(self.language):
            ctx = selectors.live_context(tournament, self.user)
            ctx["csrf_token"] = csrf_token_for(csrf_cookie(self.scope))
            return render_to_string("tournaments/_live.html", ctx)
