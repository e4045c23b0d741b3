"""The table socket: snapshots, actions, and refusals that reach only the sender and change nothing."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import services, store
from games.engine.state import GameState
from games.models import Room, Table
from games.services.changes import bump, locked_table
from games.services.commands import Move

from .helpers import start_match
from .wsclient import Reader, connect, frame_version

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def setup_table(humans: int = 1):
    room = Room.objects.create(name="ws room", bot_delay=0, claim_pause=0, bot_level="easy")
    users = [
        get_user_model().objects.create_user(username=f"p{i}", password="pw-123456") for i in range(humans)
    ]
    table = services.table_create(room_id=room.pk, user=users[0])
    for user in users[1:]:
        services.table_sit(table_id=table.pk, user=user)
    services.table_fill_bots(table_id=table.pk, user=users[0])
    start_match(table.pk)
    return table.pk, users


@database_sync_to_async
def snapshot(table_id: int) -> tuple[int, GameState]:
    table = Table.objects.get(pk=table_id)
    return table.version, store.load(table)


@database_sync_to_async
def tick() -> int:
    return services.clock_tick(now=timezone.now())


@database_sync_to_async
def act_for_others(table_id: int, seat: int) -> bool:
    """Other seated people answer with their timeout move (as if their timer ran out)."""
    table = Table.objects.get(pk=table_id)
    state = store.load(table)
    for other in table.seats.filter(user__isnull=False).exclude(index=seat):
        if other.index in state.pending_seats() and state.legal_actions(other.index):
            move = str(state.timeout_action(other.index))
            services.table_act(
                table_id=table_id, user=other.user, action=Move.parse(move), version=table.version
            )
            return True
    return False


async def until_human(table_id: int, seat: int, readers: list[Reader]) -> tuple[int, GameState]:
    """Run bots and other people until `seat` must answer; every reader has caught up with that version."""
    for _ in range(500):
        version, state = await snapshot(table_id)
        if seat in state.pending_seats() and state.legal_actions(seat):
            for reader in readers:
                await reader.until(version)
            return version, state
        if state.phase == "ended":
            pytest.skip("the hand ended before the human had to act")
        if not await act_for_others(table_id, seat):
            await tick()
    raise AssertionError("never the human's turn")


async def send(reader: Reader, payload) -> None:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    await reader.communicator.send_to(text_data=text)


async def test_connect_sends_snapshot_and_an_action_updates_everyone():
    table_id, (alice, bob) = await setup_table(humans=2)
    a = Reader(await connect(f"/ws/table/{table_id}/", alice))
    b = Reader(await connect(f"/ws/table/{table_id}/", bob))
    watcher = Reader(await connect(f"/ws/table/{table_id}/"))
    try:
        for reader in (a, b, watcher):
            first = await reader.next()
            assert 'id="board"' in first and 'id="controls"' in first and 'hx-swap-oob="morph"' in first
        version, state = await until_human(table_id, 0, [a, b, watcher])
        move = state.legal_actions(0)[0]
        await send(a, {"action": str(move), "version": str(version), "HEADERS": {"HX-Request": "true"}})
        for reader in (a, b, watcher):
            await reader.until(version + 1)
        new_version, new_state = await snapshot(table_id)
        assert new_version > version
        assert [str(x) for x in new_state.actions][len(state.actions)] == str(move)
    finally:
        for reader in (a, b, watcher):
            await reader.communicator.disconnect()


BAD_MESSAGES = [
    ("not json at all", "bad_message"),
    ("[1, 2]", "bad_message"),
    ({"action": "0:teleport:5p"}, "bad_action"),
    ({"action": "0:discard:5x"}, "bad_action"),
    ({"kind": "discard"}, "bad_action"),
    ({"kind": "discard", "tile": ["5p"]}, "bad_message"),
    ('{"action": "0:pass", "version": 1e400}', "stale_version"),
    ('{"action": "0:pass", "version": NaN}', "stale_version"),
]


@pytest.mark.parametrize("payload, code", BAD_MESSAGES)
async def test_malformed_messages_get_an_error_only_on_that_socket(payload, code):
    table_id, (alice, bob) = await setup_table(humans=2)
    a = Reader(await connect(f"/ws/table/{table_id}/", alice))
    b = Reader(await connect(f"/ws/table/{table_id}/", bob))
    try:
        version, _ = await until_human(table_id, 0, [a, b])
        if isinstance(payload, dict):
            payload = {**payload, "version": version}
        await send(a, payload)
        frame = await a.next()
        assert f'data-error-code="{code}"' in frame and 'id="table-error"' in frame
        assert await b.communicator.receive_nothing(timeout=0.2)
        assert (await snapshot(table_id))[0] == version
    finally:
        await a.communicator.disconnect()
        await b.communicator.disconnect()


async def test_refusals_from_the_rules_and_the_table():
    """Not held, out of turn, another seat, stale version, closed claim window: refused, unchanged."""
    table_id, (alice, bob) = await setup_table(humans=2)
    a = Reader(await connect(f"/ws/table/{table_id}/", alice))
    b = Reader(await connect(f"/ws/table/{table_id}/", bob))
    try:
        version, state = await until_human(table_id, 0, [a, b])
        while state.phase != "turn":  # answer claim offers until it is alice's own turn
            await act_as(table_id, alice, str(state.timeout_action(0)))
            version, state = await until_human(table_id, 0, [a, b])
        attempts = [
            (a, {"action": "1:pass", "version": version}, "not_your_seat"),
            (a, {"action": str(state.legal_actions(0)[0]), "version": version - 1}, "stale_version"),
            (a, {"action": str(state.legal_actions(0)[0]), "version": "seven"}, "stale_version"),
        ]
        # Bob out of turn: a discard is not his turn; a claim has no window open.
        attempts.append((b, {"action": "1:discard:1m", "version": version}, "not_your_turn"))
        attempts.append((b, {"action": "1:pass", "version": version}, "claim_window_closed"))
        own = set(state.view(0)["hand"]) | {state.view(0)["drawn"]}
        missing = next(
            f"{r}{s}" for s in "mpsz" for r in range(1, 10 if s != "z" else 8) if f"{r}{s}" not in own
        )
        attempts.append((a, {"action": f"0:discard:{missing}", "version": version}, "tile_not_in_hand"))
        for reader, payload, code in attempts:
            await send(reader, payload)
            frame = await reader.next()
            assert "data-error-code=" in frame, payload
            if code:
                assert f'data-error-code="{code}"' in frame, (payload, frame)
            other = b if reader is a else a
            assert await other.communicator.receive_nothing(timeout=0.1)
            assert (await snapshot(table_id))[0] == version
    finally:
        await a.communicator.disconnect()
        await b.communicator.disconnect()


@database_sync_to_async
def change_nothing_anyone_sees(table_id: int) -> None:
    with transaction.atomic():
        bump(locked_table(table_id))


async def test_a_click_on_the_last_frame_stands_when_a_later_version_changed_nothing_it_shows():
    """The browser sends the version of the last frame it got (its stamp); a version that changed
    nothing the socket shows brought it no frame, so a click on that frame is not stale."""
    table_id, (alice, _) = await setup_table(humans=2)
    a = Reader(await connect(f"/ws/table/{table_id}/", alice))
    try:
        version, state = await until_human(table_id, 0, [a])
        while state.phase != "turn":  # answer claim offers until it is alice's own turn
            await act_as(table_id, alice, str(state.timeout_action(0)))
            version, state = await until_human(table_id, 0, [a])
        stamp = max(v for v in map(frame_version, a.frames) if v is not None)
        frames = len(a.frames)
        await change_nothing_anyone_sees(table_id)
        await a.until(version + 1)
        assert len(a.frames) == frames, "a version that changed nothing alice sees sent her a frame"
        await send(a, {"action": str(state.timeout_action(0)), "version": stamp})
        await a.until(version + 2)
        assert "data-error-code" not in "".join(a.frames[frames:])
        new_version, new_state = await snapshot(table_id)
        assert new_version >= version + 2 and len(new_state.actions) == len(state.actions) + 1
    finally:
        await a.communicator.disconnect()


async def test_anonymous_can_watch_but_not_act():
    table_id, _ = await setup_table(humans=1)
    watcher = Reader(await connect(f"/ws/table/{table_id}/"))
    try:
        first = await watcher.next()
        assert frame_version(first) is not None
        assert 'data-zone="hand"' not in first and "ws-send" not in first
        version, state = await snapshot(table_id)
        await send(watcher, {"action": "0:pass", "version": version})
        assert 'data-error-code="login_required"' in await watcher.next()
        assert (await snapshot(table_id))[0] == version
    finally:
        await watcher.communicator.disconnect()


async def test_unknown_table_is_refused():
    communicator = await connect_raw("/ws/table/999999/")
    assert communicator is None


async def connect_raw(path):
    from channels.testing import WebsocketCommunicator

    from shmj_site.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    if connected:
        await communicator.disconnect()
        return communicator
    return None


async def test_foreign_origin_is_rejected():
    from channels.testing import WebsocketCommunicator

    from shmj_site.asgi import application

    communicator = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_lobby_socket_pushes_table_changes():
    table_id, (alice,) = await database_sync_to_async(lambda: _waiting_table())()
    lobby = await connect("/ws/lobby/", alice)
    try:
        first = await lobby.receive_from(timeout=5)
        assert 'id="lobby-rooms"' in first and f'data-table="{table_id}"' in first
        await database_sync_to_async(services.table_fill_bots)(table_id=table_id, user=alice)
        frame = await lobby.receive_from(timeout=5)
        assert "机器人·乙" in frame  # the lobby socket speaks its page's language: Chinese by default
    finally:
        await lobby.disconnect()


def _waiting_table():
    room = Room.objects.create(name="lobby room", bot_delay=0, claim_pause=0)
    alice = get_user_model().objects.create_user(username="lobby-alice", password="pw-123456")
    table = services.table_create(room_id=room.pk, user=alice)
    return table.pk, (alice,)


async def test_an_unexpected_error_becomes_an_error_fragment(monkeypatch):
    from games.live import consumers

    def broken(**kwargs):
        raise RuntimeError("bug")

    table_id, (alice,) = await setup_table(humans=1)
    monkeypatch.setattr(consumers, "table_act", broken)
    reader = Reader(await connect(f"/ws/table/{table_id}/", alice))
    try:
        await reader.next()
        await send(reader, {"action": "0:pass", "version": 1})
        assert 'data-error-code="server_error"' in await reader.next()
        await send(reader, {"command": "snapshot"})  # the socket still works
        assert 'id="board"' in await reader.next()
    finally:
        await reader.communicator.disconnect()


@database_sync_to_async
def act_as(table_id: int, user, action: str) -> None:
    services.table_act(
        table_id=table_id,
        user=user,
        action=Move.parse(action),
        version=Table.objects.get(pk=table_id).version,
    )


@database_sync_to_async
def next_hand(table_id: int, user) -> None:
    services.table_next_hand(table_id=table_id, user=user)


async def test_a_claim_after_its_window_closed_is_refused():
    """Alice is offered a claim, passes; the same claim sent later (current version) is refused."""
    table_id, (alice,) = await setup_table(humans=1)
    reader = Reader(await connect(f"/ws/table/{table_id}/", alice))
    try:
        claim = None
        for _ in range(20):  # hands; a claim offer comes within the first one or two
            for _ in range(2000):
                version, state = await snapshot(table_id)
                if state.phase == "ended":
                    break
                legal = state.legal_actions(0) if 0 in state.pending_seats() else []
                offered = [a for a in legal if a.kind in ("pong", "chow", "exposed_kong")]
                if state.phase == "claims" and offered:
                    claim = str(offered[0])
                    await act_as(table_id, alice, "0:pass")
                    break
                if legal:
                    await act_as(table_id, alice, str(state.timeout_action(0)))
                else:
                    await tick()
            if claim:
                break
            await next_hand(table_id, alice)
        assert claim, "alice was never offered a claim"
        version, state = await snapshot(table_id)
        if 0 in state.pending_seats() and state.phase == "turn":  # her own draw came next: discard first
            await act_as(table_id, alice, str(state.timeout_action(0)))
            version, state = await snapshot(table_id)
        await reader.until(version)
        await send(reader, {"action": claim, "version": version})
        frame = await reader.next()
        expected = "hand_over" if state.phase == "ended" else "claim_window_closed"
        assert f'data-error-code="{expected}"' in frame
        assert (await snapshot(table_id))[0] == version
    finally:
        await reader.communicator.disconnect()


async def test_an_update_is_rendered_once_for_all_the_tables_sockets(monkeypatch):
    """An update reaches the process once and is rendered for all of the table's sockets here in
    one call; the process stops listening to the table when its last socket closes."""
    import channels.consumer
    from channels.layers import get_channel_layer

    from games.live import hub as consumers
    from games.presentation import rendering
    from games.services.broadcast import table_updates_group

    table_id, (alice, bob) = await setup_table(humans=2)
    a = Reader(await connect(f"/ws/table/{table_id}/", alice))
    b = Reader(await connect(f"/ws/table/{table_id}/", bob))
    watcher = Reader(await connect(f"/ws/table/{table_id}/"))
    calls = []
    original = rendering.render_for_viewers

    def counted(table_id, viewers, version=None, created=None):
        calls.append((version, len(viewers)))
        return original(table_id, viewers, version, created)

    hops = []
    original_close = channels.consumer.aclose_old_connections

    async def counted_close():
        hops.append(1)
        await original_close()

    try:
        version, state = await until_human(table_id, 0, [a, b, watcher])
        monkeypatch.setattr(rendering, "render_for_viewers", counted)
        monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted_close)
        await send(a, {"action": str(state.legal_actions(0)[0]), "version": str(version)})
        for reader in (a, b, watcher):
            await reader.until(version + 1)
        # The action may have moved the table on by several versions in its one transaction (seats
        # with nothing to claim pass, the next seat draws); their messages may reach the hub in any
        # order, and one for a version a newer push already covers renders nothing.
        latest, _ = await snapshot(table_id)
        for reader in (a, b, watcher):
            await reader.until(latest)
        assert hops == []  # the action's message skips Channels' hop; the update reaches the hub
        rendered = [v for v, _ in calls]
        assert calls and all(n == 3 for _, n in calls), calls
        assert len(rendered) == len(set(rendered)) and min(rendered) > version, calls
        frames = [r.shown for r in (a, b, watcher)]
        assert len({frame_version(f) for f in frames}) == 1
        assert 'data-zone="hand" data-seat="0"' in frames[0] and 'data-zone="hand" data-seat="1"' in frames[1]
        assert 'data-zone="hand"' not in frames[2]
    finally:
        for reader in (a, b, watcher):
            await reader.communicator.disconnect()
    hub = consumers.update_hub(get_channel_layer())
    assert table_id not in hub.sockets
    assert hub.channel not in get_channel_layer().groups.get(table_updates_group(table_id), {})


async def test_a_worker_threads_broadcast_is_queued_on_the_event_loop_not_waited_for(monkeypatch):
    from channels.layers import get_channel_layer

    from games.services import broadcast

    def no_waiting(*args, **kwargs):
        raise AssertionError("the worker thread waited for the channel layer")

    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("broadcast-test", channel)
    monkeypatch.setattr(broadcast, "async_to_sync", no_waiting)
    try:
        await database_sync_to_async(broadcast._send)("broadcast-test", {"type": "t.x", "n": 1})
        assert await layer.receive(channel) == {"type": "t.x", "n": 1}
    finally:
        await layer.group_discard("broadcast-test", channel)


async def test_the_clock_vouches_for_the_seats_of_this_process_s_sockets():
    from games import clock
    from games.live import hub as consumers
    from games.models import Seat

    table_id, (alice,) = await setup_table(humans=1)
    player = Reader(await connect(f"/ws/table/{table_id}/", alice))
    watcher = Reader(await connect(f"/ws/table/{table_id}/"))
    try:
        await player.next()
        await watcher.next()
        here = {pair for pair in consumers.live_seat_pairs() if pair[0] == table_id}
        assert here == {(table_id, alice.pk)}  # the spectator has no seat
        seen = await database_sync_to_async(lambda: Seat.objects.get(table_id=table_id, user=alice).seen)()
        vouched, swept = await clock.presence_round()
        assert vouched >= 1 and swept == 0
        later = await database_sync_to_async(lambda: Seat.objects.get(table_id=table_id, user=alice).seen)()
        assert later > seen
    finally:
        await player.communicator.disconnect()
        await watcher.communicator.disconnect()
    assert (table_id, alice.pk) not in consumers.live_seat_pairs()


async def test_a_flood_of_messages_is_refused_beyond_the_rate_and_changes_nothing(monkeypatch, settings):
    from games.live import limits

    settings.TABLE_SOCKET_BURST, settings.TABLE_SOCKET_RATE = 30, 10.0  # the defaults
    clock = [1000.0]
    monkeypatch.setattr(limits, "now", lambda: clock[0])
    table_id, (alice,) = await setup_table(humans=1)
    a = Reader(await connect(f"/ws/table/{table_id}/", alice))
    try:
        await a.next()
        version, _ = await snapshot(table_id)
        for _ in range(settings.TABLE_SOCKET_BURST):
            await send(a, {"command": "snapshot"})
            assert 'data-error-code="' not in await a.next()
        # Past the burst even a well-formed action is refused before it is read: nothing changes.
        await send(a, {"action": "0:pass", "version": version})
        assert 'data-error-code="too_fast"' in await a.next()
        assert (await snapshot(table_id))[0] == version
        clock[0] += 1.0  # a second later there is room for TABLE_SOCKET_RATE more
        for _ in range(int(settings.TABLE_SOCKET_RATE)):
            await send(a, {"command": "snapshot"})
            assert 'data-error-code="' not in await a.next()
        await send(a, {"command": "snapshot"})
        assert 'data-error-code="too_fast"' in await a.next()
    finally:
        await a.communicator.disconnect()
