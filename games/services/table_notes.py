"""Notes the table shows everyone about what happened to a seat that the game state does not say:
who left a seat and why, and that a discard was made by the turn timer (issue 26).

They are words for people, not game state, read by no rule: kept on the table's row (`Table.notes`),
written in the transaction of the change that makes them, so the snapshot of that version carries
them and a frame costs no read of its own.

A note is shown until the table deals its next hand (a departure) or the next tile is discarded (a
timer discard): moments when every viewer gets a frame anyway, so a note's coming and going never
makes a frame of its own (a frame at another moment would tell something, issue 24 item 8).
"""

from __future__ import annotations

from games.models import Seat, Table
from games.names import person_name

# Why a person's seat was emptied: they left, did not press Start in time (TIMED_OUT), were banned;
# or (AWAY) their connection stayed lost past the grace period and a bot plays the seat (托管); or
# (ERASED) staff deleted the account outright (the site's own deletion is refused while the person holds
# a seat: accounts.services.delete_account).
LEFT, TIMED_OUT, BANNED, AWAY, ERASED = "left", "timed_out", "banned", "away", "erased"
REASONS = (LEFT, TIMED_OUT, BANNED, AWAY, ERASED)


def note_departure(table: Table, seat: Seat, reason: str, *, bot: bool) -> None:
    """`seat`'s person (still on the seat object) leaves for `reason`; `bot`: a bot plays the seat on.
    The table keeps its last four departures (several people can go at once: a ready check)."""
    assert reason in REASONS, reason
    note = {"seat": seat.index, "user": seat.user_id, "reason": reason, "bot": bot, "hand": table.hand_id}
    if reason == ERASED:  # the user row is about to go: the line keeps the name it had
        note["name"] = person_name(seat.user)
    kept = [n for n in (table.notes or {}).get("departures", ()) if n["hand"] == note["hand"]]
    _write(table, departures=[*kept, note][-4:])


def read(table: Table) -> tuple[list[dict], dict | None]:
    """The table's notes: its departures, oldest first (seat, user id, reason, bot, and the table's
    hand then: shown while it is the table's hand), and its timer discard."""
    notes = table.notes or {}
    return notes.get("departures", []), notes.get("timer-discard")


def note_timer_discard(table: Table, seat: int, discards: int) -> None:
    """The turn timer discarded for `seat` in the table's current hand, the hand's `discards`-th
    discard (`kinds.discards_in`): the note holds until the next discard."""
    _write(table, **{"timer-discard": {"seat": seat, "hand": table.hand_id, "discards": discards}})


def _write(table: Table, **notes) -> None:
    """On the object the service goes on with (and the version's snapshot keeps), and on the row."""
    table.notes = {**(table.notes or {}), **notes}
    Table.objects.filter(pk=table.pk).update(notes=table.notes)
