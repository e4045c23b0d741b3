"""Two conflicting claims sent at once through different processes: exactly one outcome, by the rules.

A discard that one seat may pong and the next seat may chow (rules §4: pong beats chow). Both
claims are sent at the same moment, with the same table version, one through each daphne process.
The row lock serialises them; each is logged once as that seat's answer, and the claim window
resolves to the pong, whatever the order.
"""

from __future__ import annotations

import asyncio

from tests.multiprocess import frames
from tests.multiprocess.client import TableClient
from tests.multiprocess.helpers import assert_clean_logs

ROOM = {"bot_delay": 0.02, "claim_pause": 0, "discard_timeout": 60, "claim_timeout": 60}


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
        # The row lock serialises them. Both are answers inside the open window, so both count (a
        # seat whose answer is refused as stale answers again on the newer view, as a page would).
        await asyncio.gather(
            _answer_until_settled(ponger, pong, version), _answer_until_settled(chower, chow, version)
        )
    finally:
        await asyncio.gather(ponger.close(), chower.close())

    answers = cluster.database.query(
        """SELECT a.version, a.action FROM games_action a JOIN games_hand h ON h.id = a.hand_id
           JOIN games_match m ON m.id = h.match_id WHERE m.table_id = %s AND a.version > %s ORDER BY a.version""",
        (table_id, version),
    )
    assert sorted(action for _, action in answers) == sorted([pong, chow])
    # The first answer leaves the window open (one version more); the second decides it, at the
    # window's end: games.store.WINDOW_VERSIONS (4) after the discard, however many answered.
    assert [v for v, _ in answers] == [version + 1, version + 4]
    ((state,),) = cluster.database.query("SELECT state FROM games_table WHERE id = %s", (table_id,))
    assert state is not None
    log = cluster.database.query(
        """SELECT a.action FROM games_action a JOIN games_table t ON t.hand_id = a.hand_id
           WHERE t.id = %s ORDER BY a.seq""",
        (table_id,),
    )
    # Exactly one outcome: the pong. The ponger has one more meld and must discard; no chow was made.
    view_melds = [len(seat_melds) for seat_melds in _melds(state, [action for (action,) in log])]
    assert view_melds[pong_seat] == setup["melds"][pong_seat] + 1
    assert view_melds[chow_seat] == setup["melds"][chow_seat]
    final = frames.parse(ponger.last_frame)
    assert any(a.startswith(f"{pong_seat}:discard:") for a in final.actions)
    assert not any(a.split(":")[1] in ("pong", "chow") for a in frames.legal_actions(chower.last_frame))
    assert_clean_logs(servers)


def _stale_refusals(client: TableClient) -> int:
    return sum(frames.error_codes(f.text).count("stale_version") for f in client.frames)


async def _answer_until_settled(client: TableClient, action: str, version: int) -> None:
    """Wait until both answers are in (version + 2 or later); if this seat was refused as stale, send its
    answer again once, on the newest view."""
    await client.wait_for(
        lambda c: c.version >= version + 2 or _stale_refusals(c), timeout=30, what="both answers or a refusal"
    )
    if client.version < version + 2:
        await client.send({"action": action, "version": str(client.version)})
        await client.wait_for_version(version + 2)


def _melds(state_json: dict, log: list[str]) -> list[list]:
    """Per seat, the melds of the stored hand: its deal (the table's state) replayed with the first
    `moves` actions of its log, read through the engine, not by hand."""
    from games.engine import GameState

    deal = {name: value for name, value in state_json.items() if name != "moves"}
    state = GameState.from_json({**deal, "actions": log[: state_json["moves"]]})
    return [list(state.melds[seat]) for seat in range(4)]
