"""Recording finished hands and updating ratings: the history app's only writes.

`record_finished_hand(table=..., hand=...)` is registered with `games.services.on_hand_finished`
(history/apps.py) and called inside the transaction that ends a hand, so a hand's records and rating changes commit (or roll back) with the hand itself.
Recording is idempotent: a hand already recorded is left alone (`history_backfill` relies on it).

Who a seat belongs to: the seat's occupant when the hand ends — the person sitting there (also while
a bot plays for them, 托管), else the bot level playing it. A person who stood up mid-hand left the
seat to a bot, and the rest of that hand is the bot's.

Ratings (OpenSkill Plackett-Luce) are updated after every hand that has a winner: a hand is a
four-player game whose ranking is the order of the payments (equal payments share a rank). A drawn
hand (流局, no payments) ranks nobody and leaves ratings alone; it still counts as a hand played.
Each player has one rating overall and one per room, updated together. When one player holds several
seats (three bots of one level), each seat is rated from the same prior and the player moves by the
average of its seats' changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import models, transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from games.engine.kinds import ResultKind
from games.engine.scoring.core import SELF_DRAWN

from .models import HandRecord, Player, Rating, RatingChange

MODEL = PlackettLuce()
DEFAULT_BOT_LEVEL = "easy"


@dataclass(frozen=True)
class Sitter:
    """Who sat in a seat: a user id, or None and the bot level."""

    user_id: int | None
    bot_level: str = ""

    @property
    def key(self) -> str:
        if self.user_id is not None:
            return f"u{self.user_id}"
        return f"bot-{self.bot_level or DEFAULT_BOT_LEVEL}"


def sitters_of_seats(seats, default_level: str = DEFAULT_BOT_LEVEL) -> list[Sitter]:
    """The four sitters of a table's Seat rows (in index order)."""
    ordered = sorted(seats, key=lambda s: s.index)
    return [
        Sitter(s.user_id) if s.user_id is not None else Sitter(None, s.bot_level or default_level)
        for s in ordered
    ]


def players_for(sitters: Sequence[Sitter]) -> list[Player]:
    """The Player row of each sitter, created on first sight."""
    keys = {s.key: s for s in sitters}
    found = {p.key: p for p in Player.objects.filter(key__in=list(keys))}
    for key, sitter in keys.items():
        if key not in found:
            found[key], _ = Player.objects.get_or_create(
                key=key,
                defaults={"user_id": sitter.user_id, "bot_level": "" if sitter.user_id else sitter.key[4:]},
            )
    return [found[s.key] for s in sitters]


def records_for(hand, players: Sequence[Player], room_id: int) -> list[HandRecord]:
    """The four unsaved HandRecord rows of a finished hand, from `hand.result`."""
    result = hand.result
    winners = {w["seat"]: w for w in result.get("winners", [])}
    feeders = {w.get("from_seat") for w in winners.values() if w.get("win") in ("discard", "rob_kong")}
    ended = hand.ended or timezone.now()
    paid = (result.get("garden") or {}).get("paid") or result["payments"]  # 逛花园: what the stacks covered
    rows = []
    for seat, player in enumerate(players):
        win = winners.get(seat)
        rows.append(
            HandRecord(
                hand=hand,
                match_id=hand.match_id,
                room_id=room_id,
                player=player,
                seat=seat,
                ended=ended,
                is_dealer=seat == hand.dealer,
                drawn=result.get("kind") != ResultKind.WIN,
                won=win is not None,
                self_drawn=win is not None and win.get("win") in SELF_DRAWN,
                dealt_in=seat in feeders and win is None,
                payment=int(paid[seat]),
                pattern=(win or {}).get("pattern") or "",
                features=list((win or {}).get("features") or []),
                win_kind=(win or {}).get("win") or "",
                value=int((win or {}).get("value") or 0),
            )
        )
    return rows


def ranks_of(payments: Sequence[int]) -> list[int]:
    """1 for the best payment; equal payments share a rank (1, 2, 2, 4)."""
    return [1 + sum(1 for other in payments if other > p) for p in payments]


def _ratings(players: Sequence[Player], room_id: int | None) -> dict[int, Rating]:
    """Lock (creating if needed) the rating of each distinct player, overall or for one room.

    Rows are created with `get_or_create` (two tables may meet a new player at once) and then locked
    in player order, so two hands ending together wait for each other instead of deadlocking.
    """
    ids = sorted({p.pk for p in players})
    existing = set(
        Rating.objects.filter(player_id__in=ids, room_id=room_id).values_list("player_id", flat=True)
    )
    fresh = MODEL.rating()
    for pid in ids:
        if pid not in existing:
            Rating.objects.get_or_create(
                player_id=pid,
                room_id=room_id,
                defaults={"mu": fresh.mu, "sigma": fresh.sigma, "ordinal": fresh.ordinal()},
            )
    locked = (
        Rating.objects.select_for_update().filter(player_id__in=ids, room_id=room_id).order_by("player_id")
    )
    return {r.player_id: r for r in locked}


def _update_ratings(hand, players: Sequence[Player], room_id: int | None, payments: Sequence[int]) -> None:
    rows = _ratings(players, room_id)
    rated = len({*payments}) > 1
    changes: dict[int, list[tuple[float, float]]] = {}
    if rated:
        teams = [[MODEL.rating(mu=rows[p.pk].mu, sigma=rows[p.pk].sigma)] for p in players]
        new = MODEL.rate(teams, ranks=ranks_of(payments))
        for player, (after,) in zip(players, new, strict=True):
            changes.setdefault(player.pk, []).append((after.mu, after.sigma))
    seats_of: dict[int, int] = {}
    for player in players:
        seats_of[player.pk] = seats_of.get(player.pk, 0) + 1
    history = []
    for pid, rating in rows.items():
        rating.hands += seats_of[pid]
        if pid in changes:
            moved = changes[pid]
            rating.mu += sum(mu - rating.mu for mu, _ in moved) / len(moved)
            rating.sigma = sum(sigma for _, sigma in moved) / len(moved)
            rating.ordinal = MODEL.rating(mu=rating.mu, sigma=rating.sigma).ordinal()
            rating.rated_hands += 1
            history.append(
                RatingChange(
                    rating=rating, hand=hand, mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal
                )
            )
        rating.save(update_fields=["mu", "sigma", "ordinal", "hands", "rated_hands", "updated"])
    RatingChange.objects.bulk_create(history)


def record_hand(*, hand, sitters: Sequence[Sitter], room_id: int) -> bool:
    """Write the hand's four records and update ratings; False if it was recorded already."""
    if hand.result is None:
        raise ValueError("only a finished hand can be recorded")
    if len(sitters) != 4:
        raise ValueError("a hand has four seats")
    with transaction.atomic():
        if HandRecord.objects.filter(hand=hand).exists():
            return False
        players = players_for(sitters)
        HandRecord.objects.bulk_create(records_for(hand, players, room_id))
        payments = [int(p) for p in hand.result["payments"]]
        _update_ratings(hand, players, None, payments)
        _update_ratings(hand, players, room_id, payments)
    return True


def record_finished_hand(*, table, hand) -> bool:
    """Called by the game services when a hand ends (inside its transaction; history/apps.py)."""
    sitters = sitters_of_seats(table.seats.all(), table.room.bot_level)
    return record_hand(hand=hand, sitters=sitters, room_id=table.room_id)


def backfill(*, batch: int = 500) -> int:
    """Record every finished hand that has no records yet (hands that ended before this app);
    the seats are taken from the match's players. Returns how many hands were recorded."""
    from games.models import Hand

    done = 0
    pending = (
        Hand.objects.filter(result__isnull=False, records__isnull=True)
        .select_related("match__table__room")
        .order_by("ended", "id")
    )
    for hand in pending.iterator(chunk_size=batch):
        room = hand.match.table.room
        players = list(hand.match.players or [None] * 4)
        sitters = [Sitter(uid) if uid is not None else Sitter(None, room.bot_level) for uid in players]
        done += record_hand(hand=hand, sitters=sitters, room_id=room.pk)
    return done


def pool_ratings(user_ids: Sequence[int], room_id: int) -> dict[int, float]:
    """Each person's μ for quick-start pairing: their rating in the room once they have rated hands
    there, else their overall one; people never rated are left out (the pool uses its default)."""
    found: dict[int, float] = {}
    rows = Rating.objects.filter(player__user_id__in=list(user_ids)).filter(
        models.Q(room_id=room_id, rated_hands__gt=0) | models.Q(room__isnull=True)
    )
    for user_id, room, mu in rows.values_list("player__user_id", "room_id", "mu"):
        if room is not None or user_id not in found:
            found[user_id] = mu
    return found
