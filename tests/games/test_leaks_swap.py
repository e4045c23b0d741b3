"""换牌 and 敲 keep hidden information hidden: over whole hands at a table playing both options, where two
people bury five tiles each (drawing five new ones) and declare when they can, no frame sent to another
seat or to a spectator ever shows a seat's buried tiles or the tiles it drew.

Every frame is checked against the full state of its version: the tiles in the viewer's own zones
(hand, the swap screen's hand, the buried row) are exactly the viewer's own, and every other tile shown
is public (rivers, melds, flowers) and exactly the public tiles of its seat. So nothing of another
seat's concealed tiles, burials or draws can be anywhere in it.
"""

from __future__ import annotations

from collections import Counter

import pytest
from channels.db import database_sync_to_async

from games.engine.bots import get_bot
from games.engine.tiles import code_to_str

from .helpers import start_match
from .test_leaks import (
    concealed,
    current_version,
    open_readers,
    play_watched_hands,
    public_tiles,
    setup,
    states_by_version,
)
from .wsclient import Reader, connect, frame_version, tiles_in

pytestmark = pytest.mark.django_db(transaction=True)

OWN_ZONES = {"hand", "swap-hand", "buried"}
OPTIONS = {"swap_tiles": True, "declare_ready": True}


@database_sync_to_async
def start(table_id: int) -> None:
    start_match(table_id)


def human_move(state, seat: int) -> dict:
    """In the window: bury the five highest tiles; then play like the easy bot, declaring when the
    discard allows it (a declared seat wins when it can, else discards its draw)."""
    if state.phase == "swap":
        tiles = [code_to_str(c) for c in state.hands[seat][-5:]]
        return {"command": "swap", "tiles": " ".join(tiles)}
    legal = state.legal_actions(seat)
    wins = [a for a in legal if a.kind in ("win", "self_win")]
    if state.declared[seat]:
        move = wins[0] if wins else state.timeout_action(seat)
    else:
        move = get_bot("easy").choose(state, seat)
        declare = next((a for a in legal if a.kind == "declare" and a.tile == move.tile), None)
        if move.kind == "discard" and declare is not None:
            move = declare
        elif move not in legal:
            move = state.timeout_action(seat)
    return {"action": str(move)}


def check_frame(frame: str, viewer: int | None, known: dict) -> str | None:
    """Assert what one frame shows; returns which part of a hand it was checked against (None: not
    checked)."""
    version = frame_version(frame)
    if version is None or version not in known:
        assert "data-tile" not in frame
        return None
    state, seed, wall = known[version]
    if state.phase == "ended":
        return None  # 摊牌: every hand and the seed are shown once the hand is over
    assert seed not in frame and wall not in frame
    for other in range(4):
        if other != viewer:
            assert f"{other}:bury:" not in frame
    by_zone: dict[tuple, Counter] = {}
    for zone, seat, tile in tiles_in(frame):
        assert zone in OWN_ZONES | {"river", "melds", "flowers", "choices", "waits", "claim"}, (zone, tile)
        by_zone.setdefault((zone, seat), Counter())[tile] += 1
    own = concealed(state, viewer) if viewer is not None else Counter()
    for (zone, seat), tiles in by_zone.items():
        if zone in OWN_ZONES:
            assert viewer is not None and seat == viewer, "a seat's own tiles shown to someone else"
        if zone in ("hand", "swap-hand"):
            assert tiles == own
        elif zone == "buried":
            assert tiles == Counter(code_to_str(t) for t in state.buried[viewer])
        elif zone == "choices":
            claimable = [t for t in (state.last_discard, state._claim_tile) if t is not None]
            assert set(tiles) <= set(own + Counter(code_to_str(t) for t in claimable))
        elif zone == "claim":
            assert state.phase in ("claims", "rob") and list(tiles) == [code_to_str(state._claim_tile)]
    for seat in range(4):
        shown = sum(
            (c for (z, s), c in by_zone.items() if s == seat and z in {"river", "melds", "flowers"}),
            Counter(),
        )
        assert shown == public_tiles(state, seat, viewer), f"seat {seat} public tiles differ"
    if viewer is None:
        assert not any(z in OWN_ZONES | {"choices", "waits"} for z, _ in by_zone)
    else:
        assert sum((c for (z, _), c in by_zone.items() if z in ("hand", "swap-hand")), Counter()) == own
    if state.phase == "swap":
        return "swap"
    return "after burials" if any(state.buried) else "no burial"


async def test_no_frame_shows_another_seats_buried_or_drawn_tiles():
    table_id, (ann, ben, cat) = await setup(rules_options=OPTIONS)
    await start(table_id)
    readers = await open_readers(table_id, ann, ben, cat)
    try:
        await play_watched_hands(table_id, readers, humans={0: ann, 1: ben}, move=human_move)
        known = await states_by_version(table_id)
        checked = {viewer: Counter() for viewer in readers}
        for viewer, reader in readers.items():
            for _, page in reader.screens:
                phase = check_frame(page.html(), viewer if viewer != "anon" else None, known)
                if phase is not None:
                    checked[viewer][phase] += 1
        assert all(c["swap"] >= 1 and c["after burials"] >= 10 for c in checked.values()), checked
        buried = [state.buried for state, _, _ in known.values()]
        assert any(b[0] and b[1] for b in buried), "both people buried five tiles in some hand"
    finally:
        for reader in readers.values():
            await reader.communicator.disconnect()


@pytest.mark.parametrize(
    "payload, code",
    [
        ({"command": "swap", "tiles": "1m"}, "bad_swap"),
        ({"command": "swap", "tiles": ["1m", "2m", "3m", "4m", "zz"]}, "bad_swap"),
        ({"command": "swap", "tiles": "1m 2m 3m 4m 5m", "version": "x"}, "stale_version"),
        ({"action": "0:bury:1m"}, "bad_swap"),
    ],
)
async def test_a_bad_swap_over_the_socket_is_refused_to_that_person_only(payload, code):
    table_id, (ann, ben, _) = await setup(rules_options=OPTIONS)
    await start(table_id)
    a = Reader(await connect(f"/ws/table/{table_id}/", ann))
    b = Reader(await connect(f"/ws/table/{table_id}/", ben))
    try:
        version = await current_version(table_id)
        await a.until(version)
        await b.until(version)
        await a.communicator.send_json_to({"version": version, **payload})
        frame = await a.next()
        assert f'data-error-code="{code}"' in frame and 'id="table-error"' in frame
        assert await b.communicator.receive_nothing(timeout=0.2)
        assert await current_version(table_id) == version
    finally:
        await a.communicator.disconnect()
        await b.communicator.disconnect()
