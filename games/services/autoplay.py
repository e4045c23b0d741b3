"""托管 (auto-play): a bot plays a person's seat.

A seat goes into auto-play after two consecutive timeouts (its person presses "cancel 托管" to take it
back) or when its disconnected person's grace period runs out (it ends when they return, see
`presence`). The clock plays such a seat exactly like a bot seat.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.errors import ServiceError
from games.models import Seat, Table

from .changes import bump, locked_table, own_seat, require_user

TIMEOUTS_BEFORE_AUTOPLAY = 2
TIMEOUTS = "timeouts"
ASKED = "asked"


def note_timeout(seat: Seat) -> None:
    """A person's prompt timed out; the second in a row hands the seat to the bot."""
    seat.timeouts += 1
    fields = ["timeouts"]
    if seat.timeouts >= TIMEOUTS_BEFORE_AUTOPLAY and not seat.autoplay:
        seat.autoplay = True
        seat.autoplay_reason = TIMEOUTS
        fields += ["autoplay", "autoplay_reason"]
    seat.save(update_fields=fields)


def note_own_move(seat: Seat) -> None:
    """The person moved: the timeouts are no longer consecutive."""
    if seat.timeouts:
        seat.timeouts = 0
        seat.save(update_fields=["timeouts"])


def table_request_autoplay(*, table_id: int, user) -> Table:
    """ "托管": the person hands their seat to the bot until they cancel it (during a match)."""
    require_user(user)
    with transaction.atomic():
        table = locked_table(table_id)
        seat = own_seat(table, user)
        if table.status != Table.Status.PLAYING:
            raise ServiceError("table_not_playing")
        if seat.autoplay:
            raise ServiceError("already_in_autoplay")
        seat.autoplay = True
        seat.autoplay_reason = ASKED
        seat.save(update_fields=["autoplay", "autoplay_reason"])
        table.deadline = timezone.now()  # the bot may be the seat the clock is waiting for
        bump(table, "deadline")
    return table


def table_cancel_autoplay(*, table_id: int, user) -> Table:
    """ "取消托管": the person takes their seat back from the bot."""
    require_user(user)
    with transaction.atomic():
        table = locked_table(table_id)
        seat = own_seat(table, user)
        if not seat.autoplay:
            raise ServiceError("not_in_autoplay")
        seat.autoplay = False
        seat.autoplay_reason = ""
        seat.timeouts = 0
        seat.away_since = None
        seat.save(update_fields=["autoplay", "autoplay_reason", "timeouts", "away_since"])
        bump(table)
    return table
