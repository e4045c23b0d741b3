"""Sections other apps add to a player's statistics page (the tournaments app lists the player's
tournaments), so history never imports them: each is `section(request, player) -> html` (empty
when it has nothing to show), registered from the app's `ready`."""

from __future__ import annotations

from collections.abc import Callable

_sections: list[Callable[..., str]] = []


def add_stats_section(section: Callable[..., str]) -> None:
    if section not in _sections:
        _sections.append(section)


def stats_sections(request, player) -> list[str]:
    return [html for section in _sections if (html := section(request, player))]
