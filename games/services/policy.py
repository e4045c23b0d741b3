"""Policy: the questions the verbs ask about a locked table, answered without changing anything.

The verbs (play.py, readiness.py, presence.py, autoplay.py, …) change state; what they decide
with lives here, so a rule of play is read in one place and can be tested without a transaction.
Room-level settings are room_settings.py; the claim pause, claim_pause.py; house options'
checks, house_options.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime

from games.engine.actions import Action as EngineAction
from games.engine.bots import get_bot, levels
from games.engine.kinds import CLAIM_ANSWERS, ActionKind, Phase
from games.engine.state import GameState
from games.models import Hand, Seat, Table

from .changes import seats_of
from .room_settings import grace_period, ready_timeout

log = logging.getLogger(__name__)

# --- who plays a seat ----------------------------------------------------------------------------


def autoplay_level() -> str:
    """The bots issue's `normal` bot when it is there, else the simple bot."""
    return "normal" if "normal" in levels() else "easy"


def plays_itself(seat: Seat) -> bool:
    """The clock moves this seat after the bot delay (a bot, or a person in 托管)."""
    return seat.is_bot or seat.autoplay


def bot_level_of(seat: Seat) -> str:
    return seat.bot_level if seat.is_bot else autoplay_level()


# --- between hands -------------------------------------------------------------------------------


def counts_ready(seat: Seat) -> bool:
    """Ready for the next hand: pressed 下一局, or a seat the clock plays (a bot, 托管), which never
    holds the table up."""
    return seat.ready or plays_itself(seat)


def waits_for(table: Table) -> list[Seat]:
    """The seats the next hand still waits for, in index order."""
    return [seat for seat in seats_of(table) if not counts_ready(seat)]


def all_ready(table: Table) -> bool:
    return not waits_for(table)


def someone_present(table: Table) -> bool:
    """A person at the table is connected, or has pressed 下一局: the clock may deal without the rest."""
    return any(seat.user_id is not None and (seat.connected or seat.ready) for seat in seats_of(table))


def next_hand_due(table: Table, hand: Hand) -> datetime:
    """When the clock deals the next hand whoever has not pressed: the room's `ready_timeout` after
    the hand ended."""
    return hand.ended + ready_timeout(table)


# --- away seats ----------------------------------------------------------------------------------


def is_away(seat: Seat) -> bool:
    """A person's seat whose connection dropped during a match and has not come back."""
    return seat.user_id is not None and not seat.connected and seat.away_since is not None


def grace_deadlines(table: Table) -> list[datetime]:
    """When each away seat's grace period ends (for the clock's next look at the table)."""
    grace = grace_period(table)
    return [seat.away_since + grace for seat in seats_of(table) if is_away(seat)]


# --- moves ---------------------------------------------------------------------------------------


def view_still_current(
    version: int, table: Table, state: GameState, logged_since: Callable[[], Iterable[str]] | None
) -> bool:
    """Whether a click made on the view of `version` still answers the same question.

    Claims are simultaneous: while a claim window is open, other seats' answers bump the version
    without changing what this seat is being asked. So an older version is still current when every
    action logged since it is an answer inside the window that is open now (the discard or added kong
    that opened it came at or before that version). Anything else older is stale, and is refused.
    `logged_since()` gives the hand's logged actions after `version` (None: no hand).
    """
    if version == table.version:
        return True
    if version > table.version or logged_since is None or state.phase not in (Phase.CLAIMS, Phase.ROB):
        return False
    return all(EngineAction.parse(text).kind in CLAIM_ANSWERS for text in logged_since())


def bot_move(level: str, state: GameState, seat: int) -> EngineAction:
    """The move the clock makes for a seat that plays itself: its bot's choice when legal (敲 declared
    where the discard allows), else the seat's timeout action; a failing bot never stops the table."""
    if state.phase == Phase.SWAP:  # 换牌: the bots do not choose burials (engine README); they skip
        return state.timeout_action(seat)
    legal = state.legal_actions(seat)
    if state.declared[seat]:  # 敲: `easy` does not know it; a declared seat wins if it can, else discards
        return next(
            (a for a in legal if a.kind in (ActionKind.WIN, ActionKind.SELF_WIN)), state.timeout_action(seat)
        )
    try:
        move = get_bot(level or "easy").choose(state, seat)
        declare = EngineAction(ActionKind.DECLARE, seat, move.tile)
        # 敲: declare whenever the discard allows it (`normal` and `hard` do so themselves)
        if move.kind == ActionKind.DISCARD and declare in legal:
            return declare
        if move in legal:
            return move
        log.warning("bot %s chose an illegal move %s; timing out instead", level, move)
    except Exception:  # a broken bot must not stop the table
        log.exception("bot %s failed at seat %s; timing out instead", level, seat)
    return state.timeout_action(seat)
