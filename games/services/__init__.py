"""Every change of game state goes through these verbs (DESIGN.md §3)."""

from .errors import MESSAGES, ServiceError
from .play import clock_tick, current_hand, load_state, table_act, table_next_hand, table_start
from .tables import table_create, table_fill_bots, table_remove_bot, table_sit, table_stand

__all__ = [
    "MESSAGES",
    "ServiceError",
    "clock_tick",
    "current_hand",
    "load_state",
    "table_act",
    "table_create",
    "table_fill_bots",
    "table_next_hand",
    "table_remove_bot",
    "table_sit",
    "table_stand",
    "table_start",
]
