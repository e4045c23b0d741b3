"""复盘 for the site: computed in the background when first asked, then served from `HandReview` rows.

`ask(hand, seat, export)` creates the seat's row (`pending`) and starts the work; `poll` is what a
waiting page calls every second. The work runs on a one-thread pool per process (a review of one
hand is well under a second of CPU, `bench/review_bench.py`), after the row's transaction commits.
A pending row records when its work `started`; if nothing finished it within `STALE` (the process
restarted, the thread died), the next `poll` or `ask` takes the work over — a conditional update
lets exactly one caller do so. With `settings.HISTORY_REVIEW_INLINE` (tests) the work runs in the
request instead.

Only this module writes `HandReview` rows.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import Q
from django.utils import timezone

from games.engine.review import VERSION, review
from games.engine.verify import HandExport, parse_export

from .models import HandRecord, HandReview

log = logging.getLogger(__name__)

STALE = timedelta(seconds=30)
TREND_HANDS = 30  # the statistics page's chart: this many of the player's last reviewed hands
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")


def current(hand, seat: int) -> HandReview | None:
    return HandReview.objects.filter(hand=hand, seat=seat).first()


def latest(hand, seat: int, export: HandExport) -> HandReview | None:
    """The seat's row as it stands (None: never asked); a pending one nobody works on is started."""
    row = current(hand, seat)
    if row is not None and row.status == HandReview.PENDING:
        row = poll(row.pk, export)
    return row


def is_ready(row: HandReview | None) -> bool:
    return row is not None and row.status == HandReview.DONE and row.version == VERSION


def ask(hand, seat: int, export: HandExport) -> HandReview:
    """The seat's review row, its work started unless it is done (a failed or outdated one again)."""
    record = HandRecord.objects.filter(hand=hand, seat=seat).only("player_id").first()
    row, _ = HandReview.objects.get_or_create(
        hand=hand, seat=seat, defaults={"player_id": record.player_id if record else None}
    )
    if is_ready(row):
        return row
    if row.status != HandReview.PENDING or row.version != VERSION:
        HandReview.objects.filter(pk=row.pk).update(status=HandReview.PENDING, started=None)
    return poll(row.pk, export)


def poll(row_id: int, export: HandExport) -> HandReview:
    """The row as it stands; a pending row nobody is working on (any more) is started here."""
    now = timezone.now()
    taken = (
        HandReview.objects.filter(pk=row_id, status=HandReview.PENDING)
        .filter(Q(started__isnull=True) | Q(started__lt=now - STALE))
        .update(started=now)
    )
    if taken:
        if getattr(settings, "HISTORY_REVIEW_INLINE", False):
            compute(row_id, export)
        else:
            data = export.to_json()
            transaction.on_commit(lambda: _POOL.submit(_in_thread, row_id, data))
    return HandReview.objects.get(pk=row_id)


def _in_thread(row_id: int, data: dict) -> None:
    close_old_connections()
    try:
        compute(row_id, parse_export(data))
    finally:
        close_old_connections()


def compute(row_id: int, export: HandExport) -> None:
    """Review the row's seat and store it (`failed` if the record cannot be reviewed)."""
    row = HandReview.objects.get(pk=row_id)
    try:
        result = review(export, row.seat)
    except Exception:  # a broken record must not leave the row pending for ever
        log.exception("review of hand %s seat %s failed", row.hand_id, row.seat)
        HandReview.objects.filter(pk=row_id).update(status=HandReview.FAILED, finished=timezone.now())
        return
    summary = result.summary
    HandReview.objects.filter(pk=row_id).update(
        status=HandReview.DONE,
        version=VERSION,
        data=result.to_json(),
        decisions=summary.rated,
        agreement=summary.agreement,
        mistakes=summary.mistakes,
        useful_lost=summary.useful_lost,
        finished=timezone.now(),
    )


def trend(player) -> list[HandReview]:
    """The player's last reviewed hands (done, current version), oldest first."""
    rows = HandReview.objects.filter(player=player, status=HandReview.DONE, version=VERSION).order_by("-id")
    return list(
        rows.only("id", "hand_id", "seat", "agreement", "mistakes", "decisions", "useful_lost")[:TREND_HANDS]
    )[::-1]
