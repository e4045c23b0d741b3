"""Tables whose hands are dealt from a plan: the seeds (and dealers) given in advance (issue 29).

A duplicate tournament plays the same walls at every table of a round. Its tables are ordinary
tables, so every rule, timer, bot, replay and statistic works unchanged; the only differences are
made here:

- the k-th hand dealt at a planned table uses the plan's k-th seed and dealer instead of a fresh
  seed and the carried-on dealer (`_deal` asks `planned_deal`), so the same seat of the same deal
  gets the same tiles at every table of the round;
- the table closes when its plan's last hand ends (`last_planned_hand`);
- its clock deals the next hand when the ready timeout is over even if no person is there (an
  absent player's seat is played by the bot, 托管), so a round never stalls.

The plan lives above the games app (the tournaments app registers its `planner`, as history
registers its hand listener): `planner(table_id)` returns the table's `[(seed, dealer), ...]` or
None for an ordinary table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import transaction

from games.models import TOURNAMENT_ROOM, Hand, Match, Room, Seat, Table

Plan = Sequence[tuple[str, int]]

_planners: list[Callable[[int], Plan | None]] = []


def plan_hands(planner: Callable[[int], Plan | None]) -> None:
    """Register `planner(table_id) -> [(seed, dealer), ...] | None`."""
    if planner not in _planners:
        _planners.append(planner)


def plan_of(table: Table) -> Plan | None:
    """The table's plan; ordinary tables (in any other room) cost no query."""
    if table.room.name != TOURNAMENT_ROOM:
        return None
    for planner in _planners:
        plan = planner(table.pk)
        if plan:
            return plan
    return None


def _dealt(table: Table) -> int:
    return Hand.objects.filter(match__table_id=table.pk).count()


def planned_deal(table: Table) -> tuple[str, int] | None:
    """(seed, dealer) of the next hand to deal at a planned table, else None."""
    plan = plan_of(table)
    if not plan:
        return None
    index = _dealt(table)
    return tuple(plan[min(index, len(plan) - 1)])


def next_planned_dealer(table: Table) -> int | None:
    """At a planned table, the dealer of the plan's next hand (the plan fixes it; the engine's
    `dealer_next` does not apply); None after the plan's last hand or at an ordinary table."""
    plan = plan_of(table)
    if not plan:
        return None
    index = _dealt(table)
    return int(plan[index][1]) if index < len(plan) else None


def last_planned_hand(table: Table) -> bool:
    """The hand just ended at this table is its plan's last: the table closes."""
    plan = plan_of(table)
    return bool(plan) and _dealt(table) >= len(plan)


def withholds_reveal(table: Table) -> bool:
    """Whether the table's ended hands keep their seed and wall out of the settlement panel until
    the round is over (the tournament page reveals them then). No query: planned tables, and only
    they, sit in the tournament room."""
    return table.room.name == TOURNAMENT_ROOM


def is_planned(table: Table) -> bool:
    return plan_of(table) is not None


def planned_room() -> Room:
    """The room of planned tables (made on first use): hidden tables only, so the lobby shows none."""
    room, _ = Room.objects.get_or_create(name=TOURNAMENT_ROOM, defaults={"bot_level": "normal"})
    return room


def table_create_planned(*, users: list, bot_levels: list[str], settings: dict) -> Table:
    """A private playing table with `users` in seats 0–3 (None: a bot of that seat's `bot_levels`),
    no hand dealt.

    `settings`: Table fields already checked (`table_settings.clean_choices` against the room).
    The caller registers the table's plan, then deals its first hand (`play.table_deal_planned`)."""
    with transaction.atomic():
        room = planned_room()
        table = Table.objects.create(
            room=room,
            status=Table.Status.PLAYING,
            version=1,
            dealer=0,
            **{**settings, "stake": settings.get("stake") or 1},
        )
        Seat.objects.bulk_create(
            [
                Seat(
                    table=table,
                    index=i,
                    user=u,
                    is_bot=u is None,
                    bot_level="" if u else bot_levels[i],
                    stake_accepted=True,
                )
                for i, u in enumerate(users)
            ]
        )
        Match.objects.create(table=table, players=[u.pk if u else None for u in users])
    return table


def tables_publish(*, table_ids: list[int]) -> int:
    """Make finished planned tables public (their round is over and its seeds revealed): their
    matches, hands and replays become anyone's to see, like any public table's. Returns how many."""
    return Table.objects.filter(
        pk__in=table_ids, status=Table.Status.FINISHED, private=True, room__name=TOURNAMENT_ROOM
    ).update(private=False)
