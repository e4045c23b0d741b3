"""换牌 (`swap_tiles`, rules §10): a person buries five tiles of their hand at once.

The engine takes burials one tile at a time (the fifth draws five from the wall); a person picks all
five and confirms, so `table_swap` checks the whole choice first and then applies the five burials in
one transaction: either the seat has swapped, or nothing changed. Skipping is an ordinary action
(`table_act` with `skip`).
"""

from __future__ import annotations

from collections import Counter

from django.db import transaction

from games import store
from games.engine.actions import Action
from games.engine.kinds import ActionKind, Phase
from games.engine.state import SWAP_COUNT
from games.engine.tiles import NotationError, code_to_str, parse_tiles
from games.errors import ServiceError
from games.models import Table

from .changes import client_version, current_hand, own_seat, playing_table, require_user
from .play import play_move


def parse_burial(tiles) -> list[int]:
    """Five tile codes from the form's `tiles`: a list of tiles ("5m"), or one text of them ("5m 1z")."""
    if isinstance(tiles, str):
        tiles = tiles.split()
    if not isinstance(tiles, list | tuple) or not all(isinstance(t, str) for t in tiles):
        raise ServiceError("bad_swap")
    try:
        codes = [code for text in tiles for code in parse_tiles(text)]
    except NotationError as exc:
        raise ServiceError("bad_swap") from exc
    if len(codes) != SWAP_COUNT:
        raise ServiceError("bad_swap")
    return codes


def table_swap(*, table_id: int, user, tiles, version) -> Table:
    """Bury the five `tiles` of the user's hand during the swap window and draw five.

    The window is simultaneous, so the view it was chosen on stays current while the others bury or
    skip: any version since this hand's deal is accepted (the seat's own hand only changes by its own
    swap, which happens once)."""
    require_user(user)
    codes = parse_burial(tiles)
    version = client_version(version)
    with transaction.atomic():
        table = playing_table(table_id)
        seat = own_seat(table, user)
        state = store.load(table)
        if state.phase != Phase.SWAP:
            raise ServiceError("swap_closed")
        dealt_at = table.version - len(state.actions)  # no held window is released during the swap
        if not dealt_at <= version <= table.version:
            raise ServiceError("stale_version")
        if not state.legal_actions(seat.index):
            raise ServiceError("already_answered")
        held = Counter(state.hands[seat.index])
        if Counter(codes) - held:
            missing = next(iter(Counter(codes) - held))
            raise ServiceError("tile_not_in_hand", f"{code_to_str(missing)} is not in your hand.")
        burials = [Action.of(ActionKind.BURY, seat.index, code) for code in codes]
        play_move(table, current_hand(table), state, seat, burials)
    return table
