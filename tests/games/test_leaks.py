"""Hidden information stays hidden: read every frame each seat and a spectator receive.

The expected tiles are computed from the engine's FULL state at the frame's version (replayed from
the stored log), not from `view()`, so the test checks the web layer and the view together: before
a hand ends, a frame shows exactly the viewer's own concealed tiles and the public tiles (rivers,
melds, flowers) — never another seat's concealed tiles, the wall or the seed.
"""

from __future__ import annotations

from collections import Counter

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services, store
from games.engine.actions import Action as EngineAction
from games.engine.bots import get_bot
from games.engine.rules import Rules
from games.engine.state import GameState
from games.engine.tiles import code_to_str
from games.models import Hand, Room, Table

from .helpers import start_match
from .wsclient import Reader, connect, frame_from, frame_version, tiles_in

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = 2


@database_sync_to_async
def setup(**room_fields):
    """ann (the owner, seat 0) and ben (seat 1) at a table of a room with `room_fields`, two bots in
    the other seats, and cat, who watches; the match not started."""
    room = Room.objects.create(name="leak room", bot_delay=0, claim_pause=0, bot_level="easy", **room_fields)
    users = [
        get_user_model().objects.create_user(username=n, password="pw-123456") for n in ("ann", "ben", "cat")
    ]
    table = services.table_create(room_id=room.pk, user=users[0])
    services.table_sit(table_id=table.pk, user=users[1])
    services.table_fill_bots(table_id=table.pk, user=users[0])
    return table.pk, users


def easy_move(state: GameState, seat: int) -> dict:
    """A person choosing like the easy bot: the message their socket sends."""
    return {"action": str(get_bot("easy").choose(state, seat))}


@database_sync_to_async
def step(table_id: int, humans: dict[int, object], move=easy_move) -> tuple[str, int, dict | None, int]:
    """One move: a person's (the message `move` sends from their seat, with how many versions it
    makes: five for a burial of 换牌) or the clock's. Returns (phase, version, message, versions)."""
    table = Table.objects.get(pk=table_id)
    state = store.load(table)
    if state.phase == "ended":
        return "ended", table.version, None, 0
    for seat in state.pending_seats():
        if seat in humans and state.legal_actions(seat):
            message = {**move(state, seat), "seat": seat, "version": table.version}
            return state.phase, table.version, message, 5 if message.get("command") == "swap" else 1
    services.clock_tick(now=timezone.now())
    return state.phase, Table.objects.get(pk=table_id).version, None, 0


async def open_readers(table_id: int, ann, ben, cat) -> dict:
    """A reading socket for ann (seat 0), ben (seat 1), cat watching (None) and an anonymous visitor."""
    return {
        0: Reader(await connect(f"/ws/table/{table_id}/", ann)),
        1: Reader(await connect(f"/ws/table/{table_id}/", ben)),
        None: Reader(await connect(f"/ws/table/{table_id}/", cat)),
        "anon": Reader(await connect(f"/ws/table/{table_id}/")),
    }


async def play_watched_hands(
    table_id: int, readers: dict, humans: dict, move=easy_move, between=None
) -> None:
    """Play HANDS hands of the started match, ann and ben moving through their sockets (ann presses
    下一局 between hands, then ben's press deals) and the clock for the bots; every reader has read
    every version when it returns. `between(steps)`, if given, is awaited after every step (it may
    replace a reader in `readers`)."""
    steps = 0
    for hand in range(HANDS):
        if hand:
            before = await current_version(table_id)
            await readers[0].communicator.send_json_to({"command": "next_hand", "version": before})
            await readers[1].until(before + 1)
            await readers[1].communicator.send_json_to({"command": "next_hand", "version": before + 1})
            for reader in readers.values():
                await reader.until(before + 2)
        for _ in range(3000):
            phase, version, message, versions = await step(table_id, humans, move)
            if message is not None:
                await readers[message.pop("seat")].communicator.send_json_to(message)
                version += versions
            for reader in readers.values():
                await reader.until(version)
            steps += 1
            if between is not None:
                await between(steps)
            if phase == "ended":
                break
        else:
            raise AssertionError("the hand did not end")
    final = await current_version(table_id)
    for reader in readers.values():
        await reader.until(final)


@database_sync_to_async
def start(table_id, user):
    assert Table.objects.get(pk=table_id).owner_id == user.pk
    start_match(table_id)


@database_sync_to_async
def current_version(table_id):
    return Table.objects.get(pk=table_id).version


@database_sync_to_async
def states_by_version(table_id: int) -> dict[int, tuple[GameState, str, str]]:
    """Every version of every hand -> (full state at that version, seed, wall notation); the versions
    between a hand's end and the next deal (the 下一局 presses) show the ended hand."""
    out = {}
    ended = None  # (last version, its entry) of the hand before
    for hand in Hand.objects.filter(match__table_id=table_id, result__isnull=False).order_by("number"):
        rows = list(hand.actions.order_by("seq"))
        if ended is not None:
            for version in range(ended[0] + 1, rows[0].version - 1):
                out[version] = ended[1]
        rules = Rules.from_json(hand.rules)
        actions = [EngineAction.parse(r.action) for r in rows]
        base = dict(seed=hand.seed, rules=rules, dealer=hand.dealer, huangfan=hand.huangfan, stake=hand.stake)
        final = GameState.replay(**base, actions=actions)
        reveal = final.reveal()
        out[rows[0].version - 1] = (GameState.replay(**base, actions=[]), reveal["seed"], reveal["wall"])
        for i, row in enumerate(rows):
            out[row.version] = (
                GameState.replay(**base, actions=actions[: i + 1]),
                reveal["seed"],
                reveal["wall"],
            )
        ended = (rows[-1].version, out[rows[-1].version])
    return out


def public_tiles(state: GameState, seat: int, viewer: int | None) -> Counter:
    """A seat's river, flowers and melds; a concealed kong (暗杠) only to its owner (rules §4)."""
    tiles = Counter(code_to_str(r.tile) for r in state.rivers[seat])
    tiles.update(
        code_to_str(c)
        for m in state.melds[seat]
        if m.kind != "kong_concealed" or seat == viewer
        for c in m.tiles
    )
    tiles.update(code_to_str(c) for c in state.flowers[seat])
    return tiles


def concealed(state: GameState, seat: int) -> Counter:
    return Counter(code_to_str(code) for code, n in enumerate(state.counts[seat]) for _ in range(n))


def check_frame(frame: str, viewer: int | None, known: dict) -> bool:
    """Assert what one frame shows; returns True if it was checked against a hand in play."""
    version = frame_version(frame)
    if version is None or version not in known:
        assert "data-tile" not in frame or 'id="lobby-rooms"' in frame
        return False
    state, seed, wall = known[version]
    if state.phase == "ended":
        return False  # 摊牌: every hand and the seed are shown once the hand is over
    assert seed not in frame and wall not in frame
    by_zone: dict[tuple, Counter] = {}
    for zone, seat, tile in tiles_in(frame):
        assert zone in {"hand", "river", "melds", "flowers", "choices", "waits", "claim"}, (zone, tile)
        by_zone.setdefault((zone, seat), Counter())[tile] += 1
    for (zone, seat), tiles in by_zone.items():
        if zone == "hand":
            assert viewer is not None and seat == viewer, "a concealed hand shown to someone else"
            assert tiles == concealed(state, viewer)
        elif zone == "claim":  # the tile being claimed: the discard, or the tile of an added kong
            assert state.phase in ("claims", "rob") and list(tiles) == [code_to_str(state._claim_tile)]
        elif zone == "choices":
            claimable = [t for t in (state.last_discard, state._claim_tile) if t is not None]
            allowed = concealed(state, viewer) + Counter(code_to_str(t) for t in claimable)
            assert set(tiles) <= set(allowed), "a choice shows a tile the viewer does not hold"
    for seat in range(4):
        shown = sum(
            (c for (z, s), c in by_zone.items() if s == seat and z in {"river", "melds", "flowers"}),
            Counter(),
        )
        assert shown == public_tiles(state, seat, viewer), f"seat {seat} public tiles differ"
    if viewer is not None:
        assert by_zone.get(("hand", viewer)) == concealed(state, viewer)
    else:
        assert not any(z in {"hand", "choices", "waits"} for z, _ in by_zone)
    return True


async def test_no_frame_leaks_hidden_tiles_over_whole_hands():
    table_id, (ann, ben, cat) = await setup()
    readers = await open_readers(table_id, ann, ben, cat)
    try:
        await start(table_id, ann)
        await play_watched_hands(table_id, readers, humans={0: ann, 1: ben})
        known = await states_by_version(table_id)
        checked = Counter()
        for viewer, reader in readers.items():
            for _, page in reader.screens:  # what the socket's page shows after each frame
                checked[viewer] += check_frame(page.html(), viewer if viewer != "anon" else None, known)
        assert all(checked[v] >= 10 for v in readers), checked
    finally:
        for reader in readers.values():
            await reader.communicator.disconnect()


async def test_no_leak_through_a_reconnect_or_a_snapshot_mid_hand():
    """Difference frames over a socket's life: ben's socket closes mid-hand and a new one opens (it
    gets a full frame, then differences), the spectator asks for a snapshot; every page each of them
    shows after every frame, on the old and the new socket, shows only what the viewer may see."""
    table_id, (ann, ben, cat) = await setup()
    readers = await open_readers(table_id, ann, ben, cat)
    old_readers = []

    async def between(steps: int) -> None:
        if steps == 15:  # ben's browser reloads mid-hand
            old_readers.append(readers[1])
            await readers[1].communicator.disconnect()
            readers[1] = Reader(await connect(f"/ws/table/{table_id}/", ben))
            await readers[1].next()
        if steps == 25:  # the spectator asks for the whole table again
            await readers[None].communicator.send_json_to({"command": "snapshot"})
            frame = await readers[None].next()
            assert frame_from(frame) is None and 'id="board"' in frame

    try:
        await start(table_id, ann)
        await play_watched_hands(table_id, readers, humans={0: ann, 1: ben}, between=between)
        known = await states_by_version(table_id)
        checked = Counter()
        assert old_readers and readers[1].frames and frame_from(readers[1].frames[0]) is None
        for viewer, reader in [*readers.items(), *((1, r) for r in old_readers)]:
            for _, page in reader.screens:
                checked[viewer] += check_frame(page.html(), viewer if viewer != "anon" else None, known)
        assert all(checked[v] >= 10 for v in readers), checked
        # The new socket's pages after its first frame came from differences, and were checked.
        assert len(readers[1].frames) > 5 and all(frame_from(f) is not None for f in readers[1].frames[1:])
    finally:
        for reader in readers.values():
            await reader.communicator.disconnect()
