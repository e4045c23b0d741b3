"""Leaving and losing the connection during a hand (rules §10, 逃跑 / 掉线).

A person who stands up during a hand is penalised at once. A person whose connection drops gets the
room's `grace_period`: coming back within it costs nothing; past it the clock charges the penalty
(1 × 底分 × k: 25 % to each other seat, 25 % to the house, see `ledger.services.issue_penalty`), puts
the seat into auto-play (托管) until the person returns, and resets 荒番. The grace deadline is one
more candidate for the Table's `deadline` row, so the same clock enforces it.

A socket's close is only seen by a process that lives to see it. So every process's clock also
vouches, every `PRESENCE_HEARTBEAT` seconds, for the seats of the sockets it holds (`vouch_for`
sets `Seat.seen`), and sweeps the seats marked connected that no process has vouched for in
`PRESENCE_STALE` seconds (`sweep_stale_presence`): their process died, and the person counts as
disconnected from the sweep on, with the usual grace period.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Hand, Seat, Table
from ledger.models import Penalty
from ledger.services import issue_penalty

from . import table_notes
from .changes import bump, current_hand, locked_table, seats_of, user_seat
from .policy import is_away
from .room_settings import grace_period
from .settlement import player_left, seat_users

AWAY = "away"


def hand_in_progress(table: Table) -> Hand | None:
    """The current hand while it is being played, else None."""
    if table.status != Table.Status.PLAYING or not table.state:
        return None
    hand = current_hand(table)
    return hand if hand is not None and hand.result is None else None


def penalise(table: Table, seat: Seat, hand: Hand, kind: str) -> Penalty | None:
    """Charge the seat's person for leaving this hand — once: a player who was already charged for
    losing the connection is not charged again for then standing up (and vice versa)."""
    absent = (Penalty.Kind.LEAVE, Penalty.Kind.DISCONNECT)
    if Penalty.objects.filter(hand=hand, user_id=seat.user_id, kind__in=absent).exists():
        return None
    words = {
        Penalty.Kind.LEAVE: "逃跑 left during the hand",
        Penalty.Kind.DISCONNECT: "掉线 did not return in time",
    }
    return issue_penalty(
        hand=hand, seat=seat.index, kind=kind, reason=words[kind], seat_users=seat_users(table)
    )


def expire_grace(table: Table, now: datetime) -> bool:
    """Penalise every seat whose grace period is over and put it in 托管; True if any was.

    Runs inside the clock's transaction with the table locked; the caller saves the table.
    """
    hand = hand_in_progress(table)
    if hand is None:
        return False
    grace = grace_period(table)
    expired = [seat for seat in seats_of(table) if is_away(seat) and seat.away_since + grace <= now]
    for seat in expired:
        table_notes.note_departure(table, seat, table_notes.AWAY, bot=True)
        penalise(table, seat, hand, Penalty.Kind.DISCONNECT)
        seat.away_since = None
        seat.autoplay = True
        seat.autoplay_reason = AWAY
        seat.save(update_fields=["away_since", "autoplay", "autoplay_reason"])
    if expired:
        player_left(table)
    return bool(expired)


def mark_away_seats(table: Table, now: datetime) -> None:
    """A new hand starts: a person still away since an earlier disconnect gets a fresh grace period."""
    for seat in seats_of(table):
        if is_away(seat) and seat.autoplay_reason != AWAY:
            seat.away_since = now
            seat.save(update_fields=["away_since"])


def seat_disconnected(*, table_id: int, user, now: datetime | None = None) -> None:
    """The person's socket closed: start the grace period if the match is on.

    Presence alone is not game state (no version bump); during a hand the grace deadline joins the
    Table's deadline; between hands it starts again when the next hand is dealt.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return
    now = now or timezone.now()
    with transaction.atomic():
        table = locked_table(table_id)
        seat = user_seat(table, user)
        if seat is not None:
            _mark_disconnected(table, seat, now)


def _mark_disconnected(table: Table, seat: Seat, now: datetime) -> None:
    """With the table locked: the seat's person is gone from `now` (grace period if the match is on)."""
    seat.connected = False
    fields = ["connected"]
    playing = table.status == Table.Status.PLAYING
    if playing and seat.away_since is None and seat.autoplay_reason != AWAY:
        seat.away_since = now
        fields.append("away_since")
        due = now + grace_period(table)
        if hand_in_progress(table) is not None and (table.deadline is None or due < table.deadline):
            table.deadline = due
            table.save(update_fields=["deadline"])
    seat.save(update_fields=fields)


def seat_connected(*, table_id: int, user, now: datetime | None = None) -> None:
    """The person is back: the grace period ends, and auto-play started by their absence stops."""
    if user is None or not getattr(user, "is_authenticated", False):
        return
    with transaction.atomic():
        table = locked_table(table_id)
        seat = user_seat(table, user)
        if seat is None:
            return
        seat.connected = True
        seat.away_since = None
        seat.seen = now or timezone.now()
        fields = ["connected", "away_since", "seen"]
        if seat.autoplay_reason == AWAY:
            seat.autoplay = False
            seat.autoplay_reason = ""
            seat.timeouts = 0
            fields += ["autoplay", "autoplay_reason", "timeouts"]
            bump(table)
        seat.save(update_fields=fields)


def vouch_for(pairs: Iterable[tuple[int, int]], now: datetime | None = None) -> int:
    """A process's heartbeat: the people of these (table id, user id) pairs have a socket open here.

    Their seats are marked seen (one read, one UPDATE); returns how many. A seat the sweep marked
    disconnected while its socket lived on (its process stalled for longer than `PRESENCE_STALE`)
    is marked connected again."""
    pairs = set(pairs)
    if not pairs:
        return 0
    now = now or timezone.now()
    candidates = Seat.objects.filter(
        table_id__in={table_id for table_id, _ in pairs}, user_id__in={user_id for _, user_id in pairs}
    ).select_related("user")
    seats = [seat for seat in candidates if (seat.table_id, seat.user_id) in pairs]
    Seat.objects.filter(pk__in=[seat.pk for seat in seats]).update(seen=now)
    for seat in seats:
        if not seat.connected:
            seat_connected(table_id=seat.table_id, user=seat.user, now=now)
    return len(seats)


def sweep_stale_presence(now: datetime | None = None) -> int:
    """Mark disconnected every seat still marked connected that no process has vouched for in
    `PRESENCE_STALE` seconds; returns how many. Safe in several processes at once: each seat is
    checked again with its table locked."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.PRESENCE_STALE)
    stale = Q(seen__lt=cutoff) | Q(seen__isnull=True)
    found = list(Seat.objects.filter(stale, connected=True, user__isnull=False).values_list("table_id", "pk"))
    swept = 0
    for table_id, seat_pk in found:
        with transaction.atomic():
            table = locked_table(table_id, required=False)
            seat = None if table is None else next((s for s in seats_of(table) if s.pk == seat_pk), None)
            if seat is None or not seat.connected or (seat.seen is not None and seat.seen >= cutoff):
                continue
            _mark_disconnected(table, seat, now)
            swept += 1
    return swept
