"""A concealed kong (暗杠) lies face down for everyone but its owner until the hand ends (rules §4):
read the frames its owner, another player and a spectator receive when it is declared."""

from __future__ import annotations

from collections import Counter

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from games import services
from games.engine.actions import Action as EngineAction
from games.engine.state import GameState
from games.models import Action, Room, Table
from games.services.commands import Move

from .helpers import put_state, start_match
from .wsclient import Reader, connect, tiles_in

pytestmark = pytest.mark.django_db(transaction=True)

BACK = 'class="tile tile-back'


@database_sync_to_async
def rigged_table():
    """Seats 0 and 1 people, 2 and 3 bots; seat 1 deals and holds four 1m."""
    room = Room.objects.create(name="kong room", bot_delay=0, claim_pause=0, bot_level="easy")
    users = [get_user_model().objects.create_user(username=f"k{i}", password="pw-123456") for i in range(2)]
    table = services.table_create(room_id=room.pk, user=users[0])
    services.table_sit(table_id=table.pk, user=users[1])
    services.table_fill_bots(table_id=table.pk, user=users[0])
    start_match(table.pk)
    table = Table.objects.get(pk=table.pk)
    state = GameState.from_setup(
        hands=["2468m2468p3579p6z", "1111m234m567m11z22z", "4567m4567p34567s", "123456789s33z44z"],
        wall="5z5z7z7z9p9p2z",
        dealer=1,
    )
    put_state(table, state)
    return table.pk, table.version, users


@database_sync_to_async
def declare_kong(table_id: int, user, version: int) -> int:
    services.table_act(
        table_id=table_id, user=user, action=Move.parse("1:concealed_kong:1m"), version=version
    )
    table = Table.objects.get(pk=table_id)
    assert Action.objects.filter(hand__match__table=table, action="1:concealed_kong:1m").exists()
    return table.version


def kong_zone(frame: str, seat: int) -> Counter:
    return Counter(tile for zone, s, tile in tiles_in(frame) if zone == "melds" and s == seat)


def melds_block(frame: str, seat: int) -> str:
    """The markup of seat `seat`'s melds zone in a frame."""
    start = frame.index(f'data-seat="{seat}"')
    zone = frame.index('data-zone="melds"', start)
    return frame[zone : frame.index("</div>", zone)]


async def test_a_concealed_kong_is_face_down_to_everyone_but_its_owner():
    table_id, version, (ann, ben) = await rigged_table()
    readers = [Reader(await connect(f"/ws/table/{table_id}/", user)) for user in (ann, ben, None)]
    for reader in readers:
        await reader.until(version)
    after = await declare_kong(table_id, ben, version)
    for reader in readers:
        await reader.until(after)
    ann_frame, ben_frame, spectator_frame = (r.shown for r in readers)
    assert kong_zone(ben_frame, 1) == Counter({"1m": 4}), "the owner sees the kong's tiles"
    for frame in (ann_frame, spectator_frame):
        assert kong_zone(frame, 1) == Counter(), "someone else saw the concealed kong's tiles"
        assert melds_block(frame, 1).count(BACK) == 4, "the kong lies face down, four tiles"
    # Nor anywhere else in their frames: 1m is nowhere public (ann holds none).
    for frame in (ann_frame, spectator_frame):
        assert all(tile != "1m" for _, _, tile in tiles_in(frame))
    for reader in readers:
        await reader.communicator.disconnect()


def test_the_view_hides_a_concealed_kong_until_the_hand_ends():
    state = GameState.from_setup(
        hands=["1111m234m567m11z22z", "2468m2468p3579p6z", "4567m4567p34567s", "123456789s33z44z"],
        wall="9p9p2z",
    )
    state.apply(EngineAction.parse("0:concealed_kong:1m"))
    hidden = {"kind": "kong_concealed", "face_down": 4}
    for viewer in (None, 0, 1, 2, 3):
        assert state.view(viewer)["seats"][0]["melds"] == [hidden]
    assert state.view(0)["own_melds"] == [{"kind": "kong_concealed", "tiles": "1111m"}]
    assert "own_melds" not in state.view(None)
    state.apply(EngineAction.parse("0:self_win"))
    assert state.view(2)["seats"][0]["melds"] == [{"kind": "kong_concealed", "tiles": "1111m"}]
