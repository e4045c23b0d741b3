"""The tournament app's websocket routes (joined to the games app's in shmj_site/asgi.py)."""

from django.urls import path

from .sockets import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
