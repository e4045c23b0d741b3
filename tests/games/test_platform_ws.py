"""Rules §10 end to end through the websocket: stake, ready check, disconnects, 托管."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services
from games.models import Room, Seat, Table
from ledger.models import Journal, Penalty
from ledger.services import journal_total

from .wsclient import Reader, connect

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def waiting_table(**room_options):
    """ann (owner) and ben seated at a waiting table, bots in seats 2 and 3."""
    room = Room.objects.create(
        name="ws platform", bot_delay=0, claim_pause=0, bot_level="easy", stakes=[1, 2, 5], **room_options
    )
    ann, ben = (
        get_user_model().objects.create_user(username=n, password="pw-123456") for n in ("ann", "ben")
    )
    table = services.table_create(room_id=room.pk, user=ann)
    services.table_sit(table_id=table.pk, user=ben)
    services.table_fill_bots(table_id=table.pk, user=ann)
    return table.pk, ann, ben


@database_sync_to_async
def playing_table(**room_options):
    """ann alone with three bots, the match started (turn timers long, so only what we do fires)."""
    room = Room.objects.create(
        name="ws presence",
        bot_delay=0,
        claim_pause=0,
        bot_level="easy",
        discard_timeout=600,
        claim_timeout=600,
        **room_options,
    )
    ann = get_user_model().objects.create_user(username="ann", password="pw-123456")
    table = services.table_create(room_id=room.pk, user=ann)
    services.table_fill_bots(table_id=table.pk, user=ann)
    services.table_start(table_id=table.pk, user=ann)
    return table.pk, ann


@database_sync_to_async
def table_row(table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


@database_sync_to_async
def seat_row(table_id: int, index: int) -> Seat:
    return Seat.objects.select_related("user").get(table_id=table_id, index=index)


@database_sync_to_async
def tick(seconds_from_now: float = 0) -> int:
    return services.clock_tick(now=timezone.now() + timedelta(seconds=seconds_from_now))


@database_sync_to_async
def penalties() -> list[Penalty]:
    return list(Penalty.objects.select_related("user"))


async def send(reader: Reader, payload: dict) -> None:
    await reader.communicator.send_to(text_data=json.dumps(payload))


async def latest(reader: Reader, table_id: int, *, after: int) -> str:
    """The newest frame once this socket has seen a version past `after` and the stored version."""
    await reader.until(after + 1)
    await reader.until((await table_row(table_id)).version)
    return reader.shown


async def command(reader: Reader, table_id: int, payload: dict) -> int:
    """Send a command; returns the table version before it (for `latest(..., after=)`)."""
    before = (await table_row(table_id)).version
    await send(reader, payload)
    return before


async def closing(*readers: Reader) -> None:
    for reader in readers:
        await reader.communicator.disconnect()


async def test_stake_set_accepted_and_match_started_over_the_socket():
    table_id, ann, ben = await waiting_table()
    a = Reader(await connect(f"/ws/table/{table_id}/", ann))
    b = Reader(await connect(f"/ws/table/{table_id}/", ben))
    try:
        first_a, first_b = await a.next(), await b.next()
        assert 'data-testid="stake-2"' in first_a  # the owner chooses
        assert 'data-testid="stake-2"' not in first_b and 'data-testid="accept-stake"' not in first_b
        v = await command(a, table_id, {"command": "set_stake", "stake": "2"})
        frame_b = await latest(b, table_id, after=v)
        assert 'data-stake="2"' in frame_b and 'data-testid="accept-stake"' in frame_b
        assert (await table_row(table_id)).stake == 2
        await latest(a, table_id, after=v)
        # ben presses Start before accepting: refused on his socket only
        await send(b, {"command": "start"})
        assert 'data-error-code="stake_not_accepted"' in await b.next()
        assert await a.communicator.receive_nothing(timeout=0.1)
        v = await command(b, table_id, {"command": "accept_stake"})
        assert 'data-testid="accept-stake"' not in await latest(b, table_id, after=v)
        v = await command(a, table_id, {"command": "start"})
        frame = await latest(b, table_id, after=v)
        assert "已准备" in frame and "准备倒计时" in frame
        assert (await table_row(table_id)).status == Table.Status.WAITING
        v = await command(b, table_id, {"command": "start"})
        frame = await latest(a, table_id, after=v)
        table = await table_row(table_id)
        assert table.status == Table.Status.PLAYING and table.state
        assert 'data-zone="hand"' in frame
    finally:
        await closing(a, b)


async def test_refusing_the_stake_over_the_socket_leaves_the_table():
    table_id, ann, ben = await waiting_table()
    a = Reader(await connect(f"/ws/table/{table_id}/", ann))
    b = Reader(await connect(f"/ws/table/{table_id}/", ben))
    try:
        await a.next(), await b.next()
        v = await command(a, table_id, {"command": "set_stake", "stake": 5})
        await latest(b, table_id, after=v)
        v = await command(b, table_id, {"command": "refuse_stake"})
        frame = await latest(a, table_id, after=v)
        assert (await seat_row(table_id, 1)).user is None
        assert 'data-seat="1">空座' in frame
    finally:
        await closing(a, b)


@pytest.mark.parametrize(
    ("who", "payload", "code"),
    [
        ("ann", {"command": "set_stake", "stake": 3}, "bad_stake"),
        ("ann", {"command": "set_stake", "stake": "two"}, "bad_stake"),
        ("ben", {"command": "set_stake", "stake": 1}, "not_owner"),
        ("ben", {"command": "accept_stake"}, "stake_not_set"),
        ("ann", {"command": "cancel_autoplay"}, "not_in_autoplay"),
        (None, {"command": "start"}, "login_required"),
    ],
)
async def test_bad_platform_commands_are_refused_and_change_nothing(who, payload, code):
    table_id, ann, ben = await waiting_table()
    user = {"ann": ann, "ben": ben, None: None}[who]
    reader = Reader(await connect(f"/ws/table/{table_id}/", user))
    try:
        await reader.next()
        version = (await table_row(table_id)).version
        await send(reader, payload)
        assert f'data-error-code="{code}"' in await reader.next()
        table = await table_row(table_id)
        assert (table.version, table.stake) == (version, None)
    finally:
        await closing(reader)


async def test_ready_timeout_removes_the_player_and_everyone_sees_it():
    table_id, ann, ben = await waiting_table(ready_timeout=15)
    a = Reader(await connect(f"/ws/table/{table_id}/", ann))
    b = Reader(await connect(f"/ws/table/{table_id}/", ben))
    try:
        await a.next(), await b.next()
        v = await command(a, table_id, {"command": "start"})  # the owner's press fixes the lowest stake
        await latest(b, table_id, after=v)
        assert await tick(14) == 0
        assert (await seat_row(table_id, 1)).user is not None
        v = (await table_row(table_id)).version
        await tick(16)
        frame = await latest(a, table_id, after=v)
        assert (await seat_row(table_id, 1)).user is None
        assert "准备倒计时" not in frame and 'data-seat="1">空座' in frame
    finally:
        await closing(a, b)


async def test_disconnect_within_the_grace_period_costs_nothing():
    table_id, ann = await playing_table(grace_period=60)
    a = Reader(await connect(f"/ws/table/{table_id}/", ann))
    await a.next()
    assert (await seat_row(table_id, 0)).connected
    await a.communicator.disconnect()
    seat = await seat_row(table_id, 0)
    assert not seat.connected and seat.away_since is not None
    back = Reader(await connect(f"/ws/table/{table_id}/", ann))
    try:
        await back.next()
        seat = await seat_row(table_id, 0)
        assert seat.connected and seat.away_since is None
        await tick(61)
        assert await penalties() == []
        assert not (await seat_row(table_id, 0)).autoplay
    finally:
        await closing(back)


@database_sync_to_async
def penalty_journal_total(penalty: Penalty) -> Decimal:
    return journal_total(penalty.journals.get(kind=Journal.Kind.PENALTY))


async def test_disconnect_past_the_grace_period_penalises_and_autoplays_until_return():
    table_id, ann = await playing_table(grace_period=30)
    a = Reader(await connect(f"/ws/table/{table_id}/", ann))
    await a.next()
    await a.communicator.disconnect()
    watcher = Reader(await connect(f"/ws/table/{table_id}/"))
    try:
        await watcher.next()
        v = (await table_row(table_id)).version
        await tick(31)
        (penalty,) = await penalties()
        assert (penalty.user_id, penalty.kind, penalty.amount) == (ann.pk, "disconnect", Decimal("2.00"))
        assert await penalty_journal_total(penalty) == 0
        seat = await seat_row(table_id, 0)
        assert seat.autoplay and seat.user_id == ann.pk
        assert '<span class="badge autoplay">托管</span>' in await latest(watcher, table_id, after=v)
        v = (await table_row(table_id)).version
        back = Reader(await connect(f"/ws/table/{table_id}/", ann))
        try:
            await back.next()
            assert not (await seat_row(table_id, 0)).autoplay
            assert '<span class="badge autoplay">托管</span>' not in await latest(watcher, table_id, after=v)
            assert len(await penalties()) == 1
        finally:
            await closing(back)
    finally:
        await closing(watcher)


@database_sync_to_async
def two_timeouts(table_id: int) -> None:
    """Let ann's turn timer run out twice (bots move in between)."""
    for _ in range(2):
        for _ in range(500):
            table = Table.objects.get(pk=table_id)
            state = services.load_state(table)
            if state.phase == "ended":
                pytest.skip("the hand ended before ann timed out twice")
            if 0 in state.pending_seats() and state.legal_actions(0):
                break
            services.clock_tick(now=timezone.now())
        services.clock_tick(now=table.turn_deadline + timedelta(seconds=1))


async def test_autoplay_after_two_timeouts_and_cancel_over_the_socket():
    table_id, ann = await playing_table()
    a = Reader(await connect(f"/ws/table/{table_id}/", ann))
    try:
        await a.next()
        v = (await table_row(table_id)).version
        await two_timeouts(table_id)
        seat = await seat_row(table_id, 0)
        assert seat.autoplay and seat.autoplay_reason == "timeouts"
        assert 'data-testid="cancel-autoplay"' in await latest(a, table_id, after=v)
        v = await command(a, table_id, {"command": "cancel_autoplay"})
        frame = await latest(a, table_id, after=v)
        assert not (await seat_row(table_id, 0)).autoplay
        assert 'data-testid="cancel-autoplay"' not in frame
    finally:
        await closing(a)


async def test_closing_one_of_two_tabs_is_not_an_absence():
    table_id, ann = await playing_table(grace_period=30)
    first = Reader(await connect(f"/ws/table/{table_id}/", ann))
    second = Reader(await connect(f"/ws/table/{table_id}/", ann))
    try:
        await first.next(), await second.next()
        await first.communicator.disconnect()
        await second.next()  # the remaining tab answers the presence check with a fresh snapshot
        seat = await seat_row(table_id, 0)
        assert seat.connected and seat.away_since is None
        await tick(31)
        assert await penalties() == []
    finally:
        await closing(second)
