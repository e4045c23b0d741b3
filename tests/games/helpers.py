"""Driving a table through the services the way the browser and the clock do."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, store
from games.engine.actions import Action as EngineAction
from games.engine.rules import Rules
from games.engine.state import GameState
from games.models import Action, Hand, Seat, Table
from games.services.commands import Move


def state_of(table: Table) -> GameState:
    table.refresh_from_db()
    return store.load(table)


def put_state(table: Table, state: GameState) -> None:
    """Make `state` the table's current hand, as if it had been dealt and played at the table: its
        deal on the Table row and its actions as the hand's log, each at a new version (a rigged hand); the
    table's version is its last action's (or one more, with none)."""
    hand = Hand.objects.get(pk=table.hand_id)
    hand.actions.all().delete()
    for seq, action in enumerate(state.actions, start=1):
        table.version += 1
        Action.objects.create(hand=hand, seq=seq, seat=action.seat, action=str(action), version=table.version)
    if not state.actions:
        table.version += 1
    table.state = store.state_json(state)
    table.deadline = table.changed = timezone.now()
    table.save(update_fields=["state", "version", "deadline", "changed"])


def deal_in_and_win(table: Table, state: GameState, discarder, winner, tile: str = "5p") -> None:
    """Rig `state` as the table's hand, then seat 0's person (`discarder`) discards `tile` and seat 1's
    (`winner`) wins on it, through the services; the table is read back after each step."""
    put_state(table, state)
    table.refresh_from_db()
    services.table_act(
        table_id=table.pk, user=discarder, action=Move.parse(f"0:discard:{tile}"), version=table.version
    )
    table.refresh_from_db()
    services.table_act(
        table_id=table.pk, user=winner, action=Move.parse(f"1:win:{tile}"), version=table.version
    )
    table.refresh_from_db()


def play_until_ended(table: Table, humans: dict[int, object], *, max_steps: int = 3000) -> GameState:
    """Humans answer with the engine's timeout action (a legal move); bots move through clock_tick."""
    for _ in range(max_steps):
        state = state_of(table)
        if state.phase == "ended":
            return state
        waiting_humans = [s for s in state.pending_seats() if s in humans and state.legal_actions(s)]
        if waiting_humans:
            seat = waiting_humans[0]
            services.table_act(
                table_id=table.pk,
                user=humans[seat],
                action=Move.of(state.timeout_action(seat)),
                version=table.version,
            )
        else:
            assert services.clock_tick(now=timezone.now()) > 0, "the clock found nothing to do"
    raise AssertionError("the hand did not end")


def start_match(table_id: int) -> None:
    """Everyone seated agrees to the stake and presses Start, the owner first (rules §10)."""
    table = Table.objects.get(pk=table_id)
    people = [s.user for s in table.seats.select_related("user").order_by("index") if s.user_id]
    people.sort(key=lambda user: user.pk != table.owner_id)
    for user in people:
        if user.pk != table.owner_id:
            services.table_accept_stake(table_id=table_id, user=user)
        services.table_start(table_id=table_id, user=user)


def started_table(room, alice, bob) -> Table:
    """A table of `room` with alice (seat 0, the owner) and bob (seat 1) and two bots, its match
    started."""
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_sit(table_id=table.pk, user=bob)
    services.table_fill_bots(table_id=table.pk, user=alice)
    start_match(table.pk)
    table.refresh_from_db()
    return table


def press_next_hand_for_all(table_id: int) -> None:
    """Every person seated who is not ready yet presses 下一局, in seat order: the last press deals
    the next hand (bots and seats in 托管 are ready already)."""
    seats = Seat.objects.filter(table_id=table_id, user__isnull=False, ready=False, autoplay=False)
    for seat in seats.select_related("user").order_by("index"):
        services.table_next_hand(table_id=table_id, user=seat.user)


def replay_hand(hand: Hand) -> GameState:
    actions = [EngineAction.parse(a) for a in hand.actions.order_by("seq").values_list("action", flat=True)]
    return GameState.replay(
        seed=hand.seed,
        rules=Rules.from_json(hand.rules),
        dealer=hand.dealer,
        huangfan=hand.huangfan,
        stake=hand.stake,
        actions=actions,
        gengfeng=hand.gengfeng,
    )


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def advance_to_seat_zero(table: Table, now=None) -> GameState:
    """Let the bots play (think delay 0) until seat 0 must answer; skip the test if the hand ends first."""
    for _ in range(500):
        state = state_of(table)
        if 0 in state.pending_seats() and state.legal_actions(0):
            return state
        if state.phase == "ended":
            pytest.skip("the hand ended before the human had to act")
        services.clock_tick(now=now or timezone.now())
    raise AssertionError("never the human's turn")
