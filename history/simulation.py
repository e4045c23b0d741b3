"""Write bot-played hands into the database the way `games.services.play` does (for tests and bench).

Each hand is played by the engine's bots from a reproducible seed, then stored as the services store
it — a `Hand` row (commitment at the deal; result, revealed seed and end time at the end), its
`Action` log, the table's running scores and next dealer, the hand's ledger settlement — and handed
to the same end-of-hand hook (`record_finished_hand`). Far faster than driving the clock, and the rows are the same.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engine.bots import get_bot
from games.engine.simulate import play_hand
from games.engine.state import GameState
from games.models import Action, Hand, Match, Room, Seat, Table

from .services import record_finished_hand


def seated_table(room: Room, users: list) -> tuple[Table, Match]:
    """A playing table whose seat i holds `users[i]` (None: a bot of the room's level), and its match."""
    table = Table.objects.create(room=room, status=Table.Status.PLAYING, version=1, dealer=0)
    Seat.objects.bulk_create(
        [
            Seat(table=table, index=i, user=u, is_bot=u is None, bot_level="" if u else room.bot_level)
            for i, u in enumerate(users)
        ]
    )
    match = Match.objects.create(table=table, players=[u.pk if u else None for u in users])
    return table, match


def play_stored_hand(
    table: Table, match: Match, number: int, seed: str, ended: datetime | None = None
) -> Hand:
    """Play one hand with bots in every seat and store it as the services would."""
    import games.services  # noqa: F401  (loaded before ledger.services, which it imports in turn)
    from games.services.table_settings import table_rules
    from ledger.services import post_hand_settlement

    rules = table_rules(table)
    state = GameState.new(rules, dealer=table.dealer or 0, huangfan=table.huangfan, stake=1, seed=seed)
    with transaction.atomic():
        hand = Hand.objects.create(
            match=match,
            number=number,
            commitment=state.commitment,
            rules=rules.to_json(),
            dealer=state.dealer,
            huangfan=state.huangfan,
            stake=state.stake,
        )
        play_hand(state, [get_bot(table.room.bot_level or "easy") for _ in range(4)])
        version = table.version
        Action.objects.bulk_create(
            [
                Action(hand=hand, seq=i, seat=a.seat, action=str(a), version=version + i, by_clock=True)
                for i, a in enumerate(state.actions, start=1)
            ]
        )
        result = state.result
        hand.result = result.to_json()
        hand.seed = state.reveal()["seed"]
        hand.ended = ended or timezone.now()
        hand.save(update_fields=["result", "seed", "ended"])
        table.version = version + len(state.actions)
        table.scores = [int(a) + int(b) for a, b in zip(table.scores, result.payments, strict=True)]
        table.dealer = result.dealer_next
        table.huangfan = result.huangfan_next
        table.hand = hand
        table.save(update_fields=["version", "scores", "dealer", "huangfan", "hand"])
        record_finished_hand(table=table, hand=hand)
        seats = sorted(table.seats.select_related("user"), key=lambda seat: seat.index)
        post_hand_settlement(hand=hand, seat_users=[seat.user if seat.user_id else None for seat in seats])
    return hand


def play_stored_hands(table: Table, match: Match, count: int, seed: str = "history") -> list[Hand]:
    """`count` hands in a row at one table, seeds derived from `seed`; each ends when it is written."""
    first = (match.hands.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    return [
        play_stored_hand(
            table, match, first + i, hashlib.sha256(f"{seed}:{table.pk}:{first + i}".encode()).hexdigest()
        )
        for i in range(count)
    ]
