"""A player's statistics, derived from the stored hand records (and the ledger, for money).

One pass over the player's `HandRecord` rows (narrow, indexed by player) gives the counts, the
streaks, the pattern and feature distributions and the running balance of hand payments; the
ledger adds what money moved outside hands (penalties and their reversals) to the balance. A fixed
number of queries whatever the history length.

Definitions: win rate = hands won / hands played; self-draw share = self-drawn wins (自摸, 杠开,
八花齐) / wins; deal-in rate = hands in which the player's discard (or added kong) was won on / hands
played; average gain = sum of hand payments / hands played (a Decimal, two places); the longest
winning streak counts consecutive hands won, the longest losing streak consecutive hands with a
negative payment.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.db import connection
from django.db.models import Q, Sum

from games.names import FEATURES, PATTERNS, WIN_KINDS, word

from .models import HandRecord, Player, Rating, RatingChange

CENT = Decimal("0.01")


def ratio(part: int, whole: int) -> Decimal | None:
    """part / whole as a percentage with one decimal place; None when there is nothing to divide."""
    if not whole:
        return None
    return (Decimal(100 * part) / Decimal(whole)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


@dataclass
class Distribution:
    code: str
    label: str  # a lazy word
    count: int
    share: Decimal | None


@dataclass
class PlayerStats:
    player: Player
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    draws: int = 0
    total: int = 0
    best_win_streak: int = 0
    worst_loss_streak: int = 0
    biggest_win: HandRecord | None = None
    patterns: list[Distribution] = field(default_factory=list)
    features: list[Distribution] = field(default_factory=list)
    win_kinds: list[Distribution] = field(default_factory=list)
    balance: list[int] = field(default_factory=list)  # running balance after each hand (and ledger extra)
    ledger_extra: Decimal = Decimal("0.00")  # penalties etc. outside hand settlements
    ledger_balance: Decimal | None = None  # the person's ledger account balance (None for bots)
    rating: Rating | None = None
    rating_history: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> Decimal | None:
        return ratio(self.wins, self.hands)

    @property
    def self_draw_share(self) -> Decimal | None:
        return ratio(self.self_draws, self.wins)

    @property
    def deal_in_rate(self) -> Decimal | None:
        return ratio(self.deal_ins, self.hands)

    @property
    def average(self) -> Decimal | None:
        if not self.hands:
            return None
        return (Decimal(self.total) / Decimal(self.hands)).quantize(CENT, rounding=ROUND_HALF_UP)


def _distribution(counter: Counter, names: dict, whole: int) -> list[Distribution]:
    out = []
    for code, count in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])):
        out.append(Distribution(code, word(names, code), count, ratio(count, whole)))
    return out


def ledger_figures(player: Player) -> tuple[Decimal | None, Decimal]:
    """(the person's ledger balance, the part of it moved outside hand settlements: penalties and
    their reversals), in one query. Bots share one ledger account, so a bot level has neither."""
    if player.user_id is None:
        return None, Decimal("0.00")
    from ledger.models import Journal, LedgerEntry

    sums = LedgerEntry.objects.filter(account__user_id=player.user_id).aggregate(
        balance=Sum("amount"), extra=Sum("amount", filter=~Q(journal__kind=Journal.Kind.HAND))
    )
    return Decimal(sums["balance"] or 0).quantize(CENT), Decimal(sums["extra"] or 0).quantize(CENT)


def _tuples(queryset) -> list[tuple]:
    """Run a `values_list` queryset with a plain cursor: the rows as the database returns them.

    The statistics read every hand of a player (10,000 and more); skipping Django's per-row
    conversion makes that pass several times faster. Callers read only columns whose raw form they
    handle: integers, booleans (0/1 on SQLite), floats, text, and JSON (text on SQLite and psycopg 3).
    """
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def player_stats(player: Player, room_id: int | None = None, *, ledger: bool = True) -> PlayerStats:
    """The player's statistics, in one room or all; `ledger=False` leaves out the ledger balance and
    penalties (private to the player and the staff)."""
    stats = PlayerStats(player=player)
    rows = HandRecord.objects.filter(player=player)
    if room_id is not None:
        rows = rows.filter(room_id=room_id)
    running = 0
    win_run = loss_run = 0
    best_id = best_payment = None
    balance = stats.balance
    ordered = rows.order_by("id").values_list("id", "payment", "won", "self_drawn", "dealt_in", "drawn")
    for rid, payment, won, self_drawn, dealt_in, drawn in _tuples(ordered):
        running += payment
        balance.append(running)
        if won:
            stats.wins += 1
            if self_drawn:
                stats.self_draws += 1
            win_run += 1
            if win_run > stats.best_win_streak:
                stats.best_win_streak = win_run
            if best_payment is None or payment > best_payment:
                best_id, best_payment = rid, payment
        else:
            win_run = 0
            if dealt_in:
                stats.deal_ins += 1
            if drawn:
                stats.draws += 1
        if payment < 0:
            loss_run += 1
            if loss_run > stats.worst_loss_streak:
                stats.worst_loss_streak = loss_run
        else:
            loss_run = 0
    stats.hands = len(balance)
    stats.total = running
    if stats.wins:
        patterns: Counter = Counter()
        kinds: Counter = Counter()
        features: Counter = Counter()
        for pattern, win_kind, feats in _tuples(
            rows.filter(won=True).order_by().values_list("pattern", "win_kind", "features")
        ):
            patterns[pattern] += 1
            kinds[win_kind] += 1
            if isinstance(feats, str):
                if feats == "[]":
                    continue
                feats = json.loads(feats)
            features.update(feats)
        stats.patterns = _distribution(patterns, PATTERNS, stats.wins)
        stats.features = _distribution(features, FEATURES, stats.wins)
        stats.win_kinds = _distribution(kinds, WIN_KINDS, stats.wins)
        stats.biggest_win = HandRecord.objects.select_related("hand", "room").get(pk=best_id)
    if room_id is None and ledger:
        stats.ledger_balance, stats.ledger_extra = ledger_figures(player)
    stats.rating = Rating.objects.filter(player=player, room_id=room_id).first()
    if stats.rating is not None:
        changes = RatingChange.objects.filter(rating=stats.rating).order_by("id").values_list("ordinal")
        stats.rating_history = [ordinal for (ordinal,) in _tuples(changes)]
    return stats
