"""Every change of game state goes through these verbs (ARCHITECTURE.md)."""

from games.errors import MESSAGES, ServiceError

from .autoplay import table_cancel_autoplay, table_request_autoplay
from .changes import current_hand
from .moderation import ban_player, room_close, table_close, unban_player
from .pairing import pair_pools, pool_join, pool_leave, pool_socket_closed, pool_vouch, sweep_pool_entries
from .planned import plan_hands, planned_room, table_create_planned, tables_publish
from .play import (
    clock_tick,
    load_state,
    table_act,
    table_deal_planned,
    table_next_hand,
    table_play_bots_hand,
    table_start,
)
from .presence import seat_connected, seat_disconnected, sweep_stale_presence, vouch_for
from .settlement import on_hand_finished
from .simulation import table_seat_for_simulation
from .stakes import table_accept_stake, table_refuse_stake, table_set_stake
from .swap import table_swap
from .tables import table_create, table_fill_bots, table_remove_bot, table_sit, table_stand

__all__ = [
    "MESSAGES",
    "ServiceError",
    "ban_player",
    "clock_tick",
    "current_hand",
    "load_state",
    "on_hand_finished",
    "pair_pools",
    "pool_join",
    "pool_leave",
    "pool_socket_closed",
    "pool_vouch",
    "sweep_pool_entries",
    "plan_hands",
    "planned_room",
    "table_create_planned",
    "table_deal_planned",
    "tables_publish",
    "table_play_bots_hand",
    "room_close",
    "seat_connected",
    "seat_disconnected",
    "sweep_stale_presence",
    "table_accept_stake",
    "table_cancel_autoplay",
    "table_close",
    "table_act",
    "table_create",
    "table_fill_bots",
    "table_next_hand",
    "table_refuse_stake",
    "table_remove_bot",
    "table_seat_for_simulation",
    "table_request_autoplay",
    "table_set_stake",
    "table_sit",
    "table_stand",
    "table_swap",
    "table_start",
    "unban_player",
    "vouch_for",
]
