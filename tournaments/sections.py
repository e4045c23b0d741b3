"""The statistics page's list of a player's tournaments (registered with history in apps.py)."""

from __future__ import annotations

from django.template.loader import render_to_string

from .selectors import player_tournaments


def player_tournaments_section(request, player) -> str:
    if player.user_id is None:
        return ""
    user = request.user
    everyone = user.is_authenticated and (user.is_staff or user.pk == player.user_id)
    tournaments = player_tournaments(player.user_id, everyone=everyone)
    if not tournaments:
        return ""
    return render_to_string("tournaments/_player.html", {"tournaments": tournaments}, request=request)
