"""Playing verbs: start a match, act in a hand, deal the next hand, and the clock's tick.

The engine decides everything about the game; these functions load the hand's state from the locked
Table row, apply one engine action at a time, append it to the `Action` log, bump the version,
schedule the table's next clock event and broadcast after commit.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import store
from games.engine.actions import Action as EngineAction
from games.engine.actions import RuleError
from games.engine.bots import get_bot
from games.engine.kinds import DISCARDS, Phase, discards_in
from games.engine.rules import Rules
from games.engine.simulate import play_hand
from games.engine.state import GameState
from games.errors import ServiceError
from games.models import Hand, Match, Seat, Table

from . import claim_pause, garden, house_options, planned, table_notes
from .autoplay import note_own_move, note_timeout
from .changes import (
    bump,
    client_version,
    current_hand,
    each_table,
    locked_table,
    notify,
    own_seat,
    playing_table,
    require_user,
    seats_of,
)
from .commands import Move
from .policy import (
    all_ready,
    bot_level_of,
    bot_move,
    grace_deadlines,
    next_hand_due,
    plays_itself,
    someone_present,
    view_still_current,
)
from .presence import expire_grace, mark_away_seats
from .readiness import clear_check, clear_ready, expire_ready_checks, press_next_hand, press_start
from .room_settings import bot_delay, bot_level, table_rules, table_timers
from .settlement import CARRIED_COUNTS, after_hand, hand_finished
from .stakes import require_agreed

log = logging.getLogger(__name__)

DEFAULT_STAKE = 1  # k when a table never had one set (rules §10: the owner sets it)
MAX_CLOCK_STEPS = 400  # bot moves one tick may play when the think delay is 0 (a hand is ~150 actions)


# --- reading -------------------------------------------------------------------------------------

# What a turn's timeout plays when it discards (a declared seat's too): the table says the timer did it.


def rules_for(table: Table) -> Rules:
    return table_rules(table)


def load_state(table: Table) -> GameState | None:
    """The engine state of the table's current hand (None before the first deal)."""
    return store.load(table)


def _seats(table: Table) -> dict[int, Seat]:
    return {seat.index: seat for seat in seats_of(table)}


# --- scheduling ----------------------------------------------------------------------------------


def _mark_changed(table: Table, state: GameState, now: datetime, previous_phase: str | None) -> None:
    """The hand moved: restart the bot delay, and the turn timer when a new prompt begins.

    A claim window keeps its timer while other seats answer; a turn (or a new phase) gets a fresh one.
    A held window whose pause is over (a pause of 0, or a last answer after it) is released at once.
    """
    table.changed = now
    if state.phase == Phase.ENDED:
        table.turn_deadline = None
    elif previous_phase != state.phase or state.phase == Phase.TURN or table.turn_deadline is None:
        seconds = house_options.phase_seconds(state, *table_timers(table))
        table.turn_deadline = now + timedelta(seconds=seconds)
    if state.held and claim_pause.release_due(table, now):
        store.release(table, state)
        _mark_changed(table, state, now, "claims")
        return
    _reschedule(table, state)


def _reschedule(table: Table, state: GameState) -> None:
    """Set `deadline` to the next moment the clock has work here: a bot's move or a timeout."""
    if state.phase == Phase.ENDED:
        table.deadline = None
        return
    seats = _seats(table)
    pending = list(state.pending_seats())
    candidates = []
    if any(plays_itself(seats[s]) for s in pending):
        candidates.append((table.changed or timezone.now()) + bot_delay(table))
    if any(not plays_itself(seats[s]) for s in pending) and table.turn_deadline is not None:
        candidates.append(table.turn_deadline)
    declared_at = house_options.declared_discard_at(table)
    if declared_at is not None and any(house_options.discards_for_declared(state, s) for s in pending):
        candidates.append(declared_at)
    if state.held:
        candidates.append(claim_pause.release_at(table))
    candidates += grace_deadlines(table)
    table.deadline = min(candidates) if candidates else timezone.now()


# --- applying ------------------------------------------------------------------------------------


def _apply(table: Table, hand: Hand, state: GameState, *actions: EngineAction, by_clock: bool) -> None:
    """Apply `actions` and append them to the hand's log. Several make one move (the five burials of
    换牌): the caller has checked them all first, so none is refused halfway."""
    for action in actions:
        try:
            state.apply(action)
        except RuleError as exc:
            raise ServiceError(exc.code) from exc
    store.append(table, hand, state, by_clock=by_clock, count=len(actions))


def play_move(table: Table, hand: Hand, state: GameState, seat: Seat, actions: list[EngineAction]) -> None:
    """A person's checked move at the locked table (one action, or the five burials of 换牌): apply
    it, restart the timers, settle the hand if it ended, save and notify."""
    previous_phase = state.phase
    now = timezone.now()
    _apply(table, hand, state, *actions, by_clock=False)
    note_own_move(seat)
    _mark_changed(table, state, now, previous_phase)
    _finish_hand_if_over(table, hand, state, now)
    _save_hand_state(table, state)


def _finish_hand_if_over(table: Table, hand: Hand, state: GameState, now: datetime) -> None:
    if state.phase != Phase.ENDED or hand.result is not None:
        return
    result = state.result
    hand.result = result.to_json()
    hand.seed = state.reveal()["seed"]
    hand.ended = now
    paid = garden.settle_hand(hand, state, now)
    hand.save(update_fields=["result", "seed", "ended"])
    hand_finished(table, hand)  # history's records and ratings (issue 6), registered by its app
    table.scores = [int(a) + int(b) for a, b in zip(table.scores, paid, strict=True)]
    table.dealer = result.dealer_next
    table.huangfan = result.huangfan_next
    table.gengfeng = result.gengfeng_next
    if planned.last_planned_hand(table):
        table.closing = True  # a planned table's last hand: `after_hand` closes it
    after_hand(table, hand, now)
    if table.status == Table.Status.PLAYING:  # the clock deals the next hand if not everyone presses
        table.deadline = next_hand_due(table, hand)


def _save_hand_state(table: Table, state: GameState, *, lobby: bool = False) -> None:
    """Write the table's progress (one UPDATE; the actions were appended one by one) and hand the
    saved state over to the broadcast: nothing may change `state` after this. The lobby hears of it
    when the hand ends, or when `lobby` says the table's listing changed too."""
    store.save(table, state)
    notify(table, lobby=lobby or state.phase == Phase.ENDED)


def _deal(table: Table, match_id: int, number: int, now: datetime, seed: str | None = None) -> GameState:
    """Deal hand `number` of the match with the state the table carries between hands: the dealer,
    the 荒番 count (§7) and the match's 跟风 count (§9)."""
    rules = rules_for(table)
    stake = table.stake or DEFAULT_STAKE
    if (given := planned.planned_deal(table)) is not None:
        seed, table.dealer = given  # the same deal as at the other tables of its round
    state = GameState.new(
        rules=rules,
        dealer=table.dealer,
        huangfan=table.huangfan,
        stake=stake,
        seed=seed,
        gengfeng=table.gengfeng,
    )
    state.hold_discards = claim_pause.holds_discards(table)
    hand = Hand.objects.create(
        match_id=match_id,
        number=number,
        commitment=state.commitment,
        rules=rules.to_json(),
        dealer=table.dealer,
        huangfan=table.huangfan,
        gengfeng=table.gengfeng,
        stake=stake,
    )
    store.deal(table, state, hand)
    clear_ready(table)  # the presses of 下一局 were for this hand
    store.bump_version(table)
    mark_away_seats(table, now)
    _mark_changed(table, state, now, previous_phase=None)
    return state


# --- verbs ---------------------------------------------------------------------------------------


def table_start(*, table_id: int, user) -> Table:
    """Press Start at a waiting table whose four seats are taken (rules §10 ready check).

    The first press opens the ready check; the press that makes every seated person ready starts the
    match and deals the first hand. The person must have accepted the table's stake.
    """
    require_user(user)
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.WAITING:
            raise ServiceError("table_not_waiting")
        seat = own_seat(table, user)
        seats = seats_of(table)
        if any(other.is_empty for other in seats):
            raise ServiceError("seats_not_filled")
        require_agreed(table, seat)
        if not press_start(table, seat, timezone.now()):  # the others now have the ready timeout
            bump(table, "deadline", lobby=True)
            return table
        clear_check(table)
        begin_match(table)
    return table


def begin_match(table: Table) -> None:
    """With the table locked and its four seats taken (and agreed): start the match and deal its
    first hand. Pressing Start gets here once everyone is ready; quick start (`pairing`) at once."""
    seats = seats_of(table)
    match = Match.objects.create(table=table, players=[seat.user_id for seat in seats])
    table.status = Table.Status.PLAYING
    table.dealer = secrets.randbelow(4)  # rules §3: the first dealer is random
    table.huangfan = table.gengfeng = 0  # four players start playing together (§7, §9)
    table.scores = [0, 0, 0, 0]
    state = _deal(table, match.pk, 1, timezone.now())
    _save_hand_state(table, state, lobby=True)


def _deal_next(table: Table, hand: Hand, now: datetime, seed: str | None = None) -> GameState:
    """Deal the hand after `hand` (a press of 下一局, the clock, or a bots' hand): the same match, or
    a new one.

    逛花园's end (four rounds, §11) starts a new match with the same players and stake and fresh
    stacks (`garden.settle_hand` starts them for a match's first hand): the dealer carries on, the
    荒番 count carries over (§7: only a player leaving resets it) and the 跟风 count returns to 0."""
    match_id, number = hand.match_id, hand.number + 1
    if garden.match_over(hand):
        match_id = Match.objects.create(table=table, players=[s.user_id for s in seats_of(table)]).pk
        number = 1
        table.gengfeng = 0
        table.scores = [0, 0, 0, 0]
    return _deal(table, match_id, number, now, seed=seed)


def table_next_hand(*, table_id: int, user, version=None) -> Table:
    """Press 下一局 Next hand once the current hand has ended: the seat is ready for the next one, and
    the press that makes every seat ready deals it (dealer and 荒番 carried on). A bot or a seat in
    托管 is always ready; whoever never presses is dealt in by the clock (`_tick_between_hands`).

    With `version` (the socket's form sends it) a press made on an older view is refused, so a click
    replayed after a reconnect cannot skip the next hand's settlement.
    """
    require_user(user)
    with transaction.atomic():
        table = playing_table(table_id, dealt=False)
        seat = own_seat(table, user)
        if version is not None and client_version(version) != table.version:
            raise ServiceError("stale_version")
        state = store.load(table)
        if state is None or state.phase != Phase.ENDED:
            raise ServiceError("hand_in_progress")
        hand = current_hand(table)
        now = timezone.now()
        if not press_next_hand(table, seat, hand, now):
            bump(table, "deadline")
            return table
        state = _deal_next(table, hand, now)
        _save_hand_state(table, state)
    return table


def table_play_bots_hand(*, table_id: int, seed: str, ended: datetime | None = None) -> Hand:
    """Deal the next hand of a playing table's match from `seed` and let the room's bot play every
    seat to the end at once, stored as the clock would store it (history's simulations, for tests
    and benches: far faster than driving the clock). `ended`: when the hand counts as played."""
    with transaction.atomic():
        table = playing_table(table_id, dealt=False)
        last = current_hand(table)
        if last is not None and last.result is None:
            raise ServiceError("hand_in_progress")
        now = ended or timezone.now()
        if last is not None:
            state = _deal_next(table, last, now, seed=seed)
        else:
            match = table.matches.order_by("-id").first()
            if match is None:
                raise ServiceError("table_not_playing")
            state = _deal(table, match.pk, 1, now, seed=seed)
        state.hold_discards = False  # played out at once: no pause between a discard and the draw
        hand = current_hand(table)
        play_hand(state, [get_bot(seat.bot_level or bot_level(table) or "easy") for seat in seats_of(table)])
        store.append(table, hand, state, by_clock=True, count=len(state.actions))
        _mark_changed(table, state, now, previous_phase=None)
        _finish_hand_if_over(table, hand, state, now)
        _save_hand_state(table, state)
    return hand


def table_deal_planned(*, table_id: int) -> Table:
    """Deal the first hand of a planned table (`planned.table_create_planned`) from its plan; a
    table already dealt is left as it is (the step may run twice)."""
    with transaction.atomic():
        table = playing_table(table_id, dealt=False)
        if current_hand(table) is not None or not planned.is_planned(table):
            return table
        match = table.matches.order_by("-id").first()
        state = _deal(table, match.pk, 1, timezone.now())
        _save_hand_state(table, state)
    return table


def table_act(*, table_id: int, user, action: Move, version) -> Table:
    """One action of the seated user: discard, chow, pong, kong, win or pass.

    `action` was read at the edge (`Move.parse` / `Move.from_fields`); `version` is the table
    version the user saw. Anything wrong raises `ServiceError` and changes nothing.
    """
    require_user(user)
    version = client_version(version)
    with transaction.atomic():
        table = playing_table(table_id)
        seat = own_seat(table, user)
        parsed = action.for_seat(seat.index)
        state = store.load(table)
        hand = current_hand(table)
        logged_since = None if hand is None else (lambda: store.actions_since(hand, version))
        if not view_still_current(version, table, state, logged_since):
            raise ServiceError("stale_version")
        house_options.check_action(state, parsed)
        play_move(table, hand, state, seat, [parsed])
    return table


# --- the clock -----------------------------------------------------------------------------------


def clock_tick(*, now: datetime | None = None, limit: int = 100) -> int:
    """Play every due bot move and timeout; returns how many actions were applied.

    Safe to run in several processes at once: each table is taken with `skip_locked`, and a table is
    only acted on while its stored deadline is due, so each timeout fires once.
    """
    now = now or timezone.now()
    # One query for the tables playing and those waiting on a ready check (it runs several times a
    # second in every process).
    due = list(
        Table.objects.filter(status__in=(Table.Status.PLAYING, Table.Status.WAITING), deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "status")[:limit]
    )
    playing = [pk for pk, status in due if status == Table.Status.PLAYING]
    played = each_table(playing, lambda table_id: _tick_table(table_id, now), what="clock tick")
    waiting = [pk for pk, status in due if status == Table.Status.WAITING]
    return played + expire_ready_checks(now=now, due=waiting)


def _tick_table(table_id: int, now: datetime) -> int:
    with transaction.atomic():
        table = locked_table(
            table_id, required=False, skip_locked=True, status=Table.Status.PLAYING, deadline__lte=now
        )
        if table is None:
            return 0
        state = store.load(table)
        if state is None or state.phase == Phase.ENDED:
            return _tick_between_hands(table, state, now)
        hand = current_hand(table)
        if expire_grace(table, now):
            bump(table, *CARRIED_COUNTS)
        seats = _seats(table)
        applied = released = 0
        for _ in range(MAX_CLOCK_STEPS):
            bot_due = table.changed is None or table.changed + bot_delay(table) <= now
            human_due = table.turn_deadline is not None and table.turn_deadline <= now
            declared_due = (house_options.declared_discard_at(table) or now) <= now
            phase = state.phase
            moved = False
            for seat_index in list(state.pending_seats()):
                if state.phase != phase or seat_index not in state.pending_seats():
                    break
                seat = seats[seat_index]
                timed_out = False
                if plays_itself(seat) and bot_due:
                    move = bot_move(bot_level_of(seat), state, seat_index)
                elif (
                    not plays_itself(seat)
                    and declared_due
                    and house_options.discards_for_declared(state, seat_index)
                ):
                    move = state.timeout_action(seat_index)  # 敲: the drawn tile, not a missed turn
                elif not plays_itself(seat) and human_due:
                    move = state.timeout_action(seat_index)
                    timed_out = True
                    if phase != Phase.SWAP:  # not swapping is a choice (rules §10), not a missed turn
                        note_timeout(seat)
                else:
                    continue
                _apply(table, hand, state, move, by_clock=True)
                if timed_out and move.kind in DISCARDS:
                    # the person's turn ran out: everyone is told the timer discarded (issue 26)
                    table_notes.note_timer_discard(table, seat_index, discards_in(state))
                applied += 1
                moved = True
            if not moved and state.held and claim_pause.release_due(table, now):
                store.release(table, state)  # the pause after a discard is over: the next seat draws
                released += 1
                moved = True
            if not moved:
                break
            _mark_changed(table, state, now, phase)
            if state.phase == Phase.ENDED:
                _finish_hand_if_over(table, hand, state, now)
                break
        if applied or released:
            _save_hand_state(table, state)
        else:
            _reschedule(table, state)
            if table.deadline is not None and table.deadline <= now:
                # Nothing could move although the table was due; look again one interval later.
                table.deadline = now + timedelta(seconds=1)
            table.save(update_fields=["deadline"])
        return applied


def _tick_between_hands(table: Table, state: GameState | None, now: datetime) -> int:
    """The hand is over: deal the next one when every seat is ready (a leaver's seat went to a bot, or
    the last unready person went into 托管) or its timeout has passed, with someone there to play it
    (`policy.someone_present`); otherwise look again at the timeout, or rest until a press.
    Returns 0: a deal is not an action."""
    hand = current_hand(table)
    if state is None or hand is None or hand.ended is None:
        table.deadline = None
        table.save(update_fields=["deadline"])
        return 0
    due = next_hand_due(table, hand)
    present = someone_present(table) or planned.is_planned(table)  # a planned round never stalls
    if present and (due <= now or all_ready(table)):
        _save_hand_state(table, _deal_next(table, hand, now))
        return 0
    table.deadline = due if due > now else None
    table.save(update_fields=["deadline"])
    return 0
