"""The table's notes for everyone (games.services.table_notes) as words: who left a seat and why, and
the seat whose discard the turn timer made (issue 26). Both are public: a departure is seen by all at
the table, and so is a turn's countdown running out.

They come with the table's row (`Table.notes`); the departed people's names are looked up once per
table version and process and kept with the version's snapshot (every viewer of a version renders
the same notes; the words are put in each viewer's language when rendered).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from games import selectors
from games.engine.kinds import discards_in
from games.engine.state import GameState
from games.models import Table
from games.presentation.viewmodels import SeatView, person_name
from games.services import table_notes

DEPARTURE_WORDS = {
    (table_notes.LEFT, False): _("%(name)s 离开了牌桌。"),
    (table_notes.LEFT, True): _("%(name)s 中途离开，由机器人代打。"),
    (table_notes.TIMED_OUT, False): _("%(name)s 没有按时按开始，已离座。"),
    (table_notes.BANNED, False): _("%(name)s 被禁止入座，已离座。"),
    (table_notes.BANNED, True): _("%(name)s 被禁止入座，已离座，由机器人代打。"),
    (table_notes.AWAY, True): _("%(name)s 掉线未回，由机器人代打。"),
    (table_notes.ERASED, False): _("%(name)s 的账户已被删除，已离座。"),
    (table_notes.ERASED, True): _("%(name)s 的账户已被删除，由机器人代打。"),
}


@dataclass(frozen=True, slots=True)
class Departure:
    seat: int
    name: str
    reason: str
    bot: bool

    @property
    def words(self) -> str:
        """The line the table shows, in the active language."""
        found = DEPARTURE_WORDS.get((self.reason, self.bot)) or DEPARTURE_WORDS[(table_notes.LEFT, self.bot)]
        return str(found) % {"name": self.name}


def _notes(table: Table) -> tuple[tuple[Departure, ...], dict | None]:
    """(departures, timer note) of the table's version: made once, kept with its snapshot."""
    derived = selectors.snapshot(table).derived
    found = derived.get("notes")
    if found is not None:
        return found
    departed, timer = table_notes.read(table)
    noted = [n for n in departed if n["hand"] == table.hand_id]
    users = get_user_model().objects.select_related("profile").in_bulk({n["user"] for n in noted})
    gone = tuple(
        Departure(
            n["seat"],
            person_name(users[n["user"]]) if n["user"] in users else n["name"],
            n["reason"],
            n["bot"],
        )
        for n in noted
        if n["user"] in users or "name" in n
    )
    derived["notes"] = (gone, timer)
    return gone, timer


def departures(table: Table) -> tuple[Departure, ...]:
    """The departures to show: those since the table's current hand was dealt (or, before its first
    hand, since it was opened)."""
    return _notes(table)[0]


def timer_discard(table: Table, views: list[SeatView], state: GameState) -> SeatView | None:
    """The seat whose last discard the turn timer made, while that discard is the hand's newest."""
    note = _notes(table)[1]
    if note is None or note["hand"] != table.hand_id:
        return None
    if discards_in(state) != note["discards"]:
        return None
    return views[note["seat"]]
