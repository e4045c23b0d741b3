"""Two conflicting claims sent at once through different processes: exactly one outcome, by the rules.

A discard that one seat may pong and the next seat may chow (rules §4: pong beats chow). Both
claims are sent at the same moment, with the same table version, one through each daphne process.
The row lock serialises them: one is taken as that seat's answer, the other is refused as stale and
sent again on the new version; then the claim window resolves to the pong, whatever the order.
"""

from __future__ import annotations

import asyncio

from tests.multiprocess import frames
from tests.multiprocess.client import TableClient
from tests.multiprocess.helpers import assert_clean_logs

ROOM = {"bot_delay": 0.02, "discard_timeout": 60, "claim_timeout": 60}


def _offered(client: TableClient, kind: str) -> str | None:
    return next((a for a in frames.legal_actions(client.last_frame) if a.split(":")[1] == kind), None)


async def test_pong_and_chow_sent_at_once_through_two_processes_resolve_to_the_pong(cluster, servers):
    setup = cluster.seed("conflict", room=ROOM)
    table_id, version = setup["table_id"], setup["version"]
    pong_seat, chow_seat = setup["pong_seat"], setup["chow_seat"]
    ponger = TableClient("ponger@daphne-0", servers[0].ws_url, table_id, setup["sessions"][pong_seat])
    chower = TableClient("chower@daphne-1", servers[1].ws_url, table_id, setup["sessions"][chow_seat])
    await asyncio.gather(ponger.connect(), chower.connect())
    try:
        await asyncio.gather(ponger.wait_for_version(version), chower.wait_for_version(version))
        assert ponger.version == chower.version == version
        pong, chow = _offered(ponger, "pong"), _offered(chower, "chow")
        assert pong and chow, "the snapshot does not offer the two claims"

        await asyncio.gather(
            ponger.send({"action": pong, "version": str(version)}),
            chower.send({"action": chow, "version": str(version)}),
        )
        # One answer lands at version+1; the other seat is told its view was stale.
        await asyncio.gather(ponger.wait_for_version(version + 1), chower.wait_for_version(version + 1))
        first = cluster.database.query(
            """SELECT a.action FROM games_action a JOIN games_hand h ON h.id = a.hand_id
               JOIN games_match m ON m.id = h.match_id WHERE m.table_id = %s AND a.version = %s""",
            (table_id, version + 1),
        )
        assert len(first) == 1 and first[0][0] in (pong, chow)
        late = chower if first[0][0] == pong else ponger
        late_action = chow if late is chower else pong
        await late.wait_for(
            lambda c: "stale_version" in sum((frames.error_codes(f.text) for f in c.frames), []),
            timeout=30,
            what="the stale-version refusal",
        )
        # The late seat is still asked (its answer is pending) and insists on its claim.
        assert _offered(late, late_action.split(":")[1]) == late_action
        await late.send({"action": late_action, "version": str(version + 1)})
        await asyncio.gather(ponger.wait_for_version(version + 2), chower.wait_for_version(version + 2))
    finally:
        await asyncio.gather(ponger.close(), chower.close())

    answers = cluster.database.query(
        """SELECT a.version, a.action FROM games_action a JOIN games_hand h ON h.id = a.hand_id
           JOIN games_match m ON m.id = h.match_id WHERE m.table_id = %s AND a.version > %s ORDER BY a.version""",
        (table_id, version),
    )
    assert sorted(action for _, action in answers) == sorted([pong, chow])
    assert [v for v, _ in answers] == [version + 1, version + 2]
    ((state,),) = cluster.database.query("SELECT state FROM games_table WHERE id = %s", (table_id,))
    assert state is not None
    # Exactly one outcome: the pong. The ponger has one more meld and must discard; no chow was made.
    view_melds = [len(seat_melds) for seat_melds in _melds(state)]
    assert view_melds[pong_seat] == setup["melds"][pong_seat] + 1
    assert view_melds[chow_seat] == setup["melds"][chow_seat]
    final = frames.parse(ponger.last_frame)
    assert any(a.startswith(f"{pong_seat}:discard:") for a in final.actions)
    assert not any(a.split(":")[1] in ("pong", "chow") for a in frames.legal_actions(chower.last_frame))
    assert_clean_logs(servers)


def _melds(state_json: dict) -> list[list]:
    """Per seat, the melds in the engine's stored JSON (read through the engine, not by hand)."""
    from games.engine import GameState

    state = GameState.from_json(state_json)
    return [list(state.melds[seat]) for seat in range(4)]
