"""The uniform claim screen (issue 13): at a table with people, a seat that cannot claim a discard sees
the same frames after it whether or not another seat could claim it, and the next draw comes no
sooner than the room's claim pause either way; and they get as many frames, at the same moments
(issue 24 item 8: a spectator got one more frame when a seat that could claim passed).

The same table deals the same hand twice, with one difference hidden from everyone but seat 1: its
pair of 9s (it may pong the dealer's 9s) or two other tiles (nobody can claim). The dealer, seat 2
and a spectator read every frame; after the discard and after the next draw what they are shown must
be the same in both deals, but for the version counter and the clock's timestamps, and they must get
one frame for the discard and one for the draw in both (seat 1 passing in between shows nobody else
anything). The frames themselves are compared too, stamps and form versions included (counted from
the deal's version), and their sizes: the versions a claimable discard's window takes are the same
as an unclaimable one's (a pass used to move the stamp one version further).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import services, store
from games.engine.state import GameState
from games.models import Hand, Room, Table
from games.services.broadcast import on_commit_table_changed
from games.services.commands import Move

from .helpers import start_match
from .wsclient import Reader, connect

pytestmark = pytest.mark.django_db(transaction=True)

DEALER = "147m147p149s12345z"  # discards 9s
CLAIMER = "258m258p2599s123z"  # seat 1 may pong the 9s (and chow nothing)
NO_CLAIM = "258m258p25s12356z"  # seat 1 holds no 9s, no 7s8s
OTHERS = ["369m369p36s44z77z6z", "123456789m1234p"]
WALL = "8s7s6s5s4s3s"
PAUSE = timedelta(seconds=1)
TIMES = re.compile(r'(data-from|data-version|data-deadline|data-now|name="version" value)="[\d.]*"')
CLOCK = re.compile(r'(data-deadline|data-now)="[\d.]*"')
VERSIONS = re.compile(r'(data-from|data-version|name="version" value)="(\d+)"')


def screen(frame: str) -> str:
    """A frame without the version counter and the timestamps of the clock."""
    return TIMES.sub(r'\1=""', frame)


def relative(frame: str, dealt: int) -> str:
    """A frame without the clock's timestamps, its versions counted from the deal's `dealt`."""
    return VERSIONS.sub(lambda m: f'{m.group(1)}="+{int(m.group(2)) - dealt}"', CLOCK.sub(r'\1=""', frame))


@database_sync_to_async
def table_with_three_people():
    room = Room.objects.create(name="pause room", bot_delay=0, bot_level="easy")
    assert room.claim_pause == 1  # the default pause
    users = [
        get_user_model().objects.create_user(username=n, password="pw-123456") for n in ("ann", "ben", "cat")
    ]
    table = services.table_create(room_id=room.pk, user=users[0])
    for user in users[1:]:
        services.table_sit(table_id=table.pk, user=user)
    services.table_fill_bots(table_id=table.pk, user=users[0])
    start_match(table.pk)
    assert store.load(Table.objects.get(pk=table.pk)).hold_discards
    return table.pk, users


@database_sync_to_async
def deal(table_id: int, seat_one: str) -> int:
    """Replace the hand in play with the rigged one (dealer 0), holding discards as the table does."""
    table = Table.objects.get(pk=table_id)
    state = GameState.from_setup(hands=[DEALER, seat_one, *OTHERS], wall=WALL, dealer=0)
    state.hold_discards = True
    Hand.objects.get(match__table=table).actions.all().delete()
    now = timezone.now()
    table.version += 1
    table.state = store.state_json(state)  # the deal: its log (the Action rows) is empty
    table.changed = now
    table.deadline = table.turn_deadline = now + timedelta(seconds=60)
    with transaction.atomic():
        table.save(update_fields=["state", "version", "deadline", "changed", "turn_deadline"])
        on_commit_table_changed(table.pk, table.version)
    return table.version


@database_sync_to_async
def discard(table_id: int, user, version: int):
    services.table_act(table_id=table_id, user=user, action=Move.parse("0:discard:9s"), version=version)
    table = Table.objects.get(pk=table_id)
    return table.version, table.changed


@database_sync_to_async
def pass_claim(table_id: int, user, version: int) -> int:
    services.table_act(table_id=table_id, user=user, action=Move.parse("1:pass"), version=version)
    return Table.objects.get(pk=table_id).version


@database_sync_to_async
def tick(table_id: int, now) -> tuple[int, GameState]:
    services.clock_tick(now=now)
    table = Table.objects.get(pk=table_id)
    return table.version, store.load(table)


async def test_non_claimants_see_the_same_after_a_claimable_and_an_unclaimable_discard():
    table_id, (ann, ben, cat) = await table_with_three_people()
    readers = {
        "dealer": Reader(await connect(f"/ws/table/{table_id}/", ann)),
        "claimer": Reader(await connect(f"/ws/table/{table_id}/", ben)),
        "seat 2": Reader(await connect(f"/ws/table/{table_id}/", cat)),
        "spectator": Reader(await connect(f"/ws/table/{table_id}/")),
    }
    watchers = ("dealer", "seat 2", "spectator")
    seen: dict[str, dict[str, list[str]]] = {}
    counts: dict[str, dict[str, list[int]]] = {}
    received: dict[str, dict[str, list[str]]] = {}
    try:
        for case, seat_one in (("claimable", CLAIMER), ("unclaimable", NO_CLAIM)):
            version = dealt_version = await deal(table_id, seat_one)
            for reader in readers.values():
                await reader.until(version)
            dealt = {name: len(readers[name].frames) for name in watchers}
            version, discarded = await discard(table_id, ann, version)
            for reader in readers.values():
                await reader.until(version)
            after_discard = {name: readers[name].shown for name in watchers}
            discard_frames = {name: len(readers[name].frames) - dealt[name] for name in watchers}
            claimer_frame = readers["claimer"].shown
            assert ('data-testid="choice-pong"' in claimer_frame) == (case == "claimable")
            if case == "claimable":  # seat 1 passes at once: nobody else is shown anything
                version = await pass_claim(table_id, ben, version)
                for reader in readers.values():
                    await reader.until(version)
                assert 'data-testid="choice-pong"' not in readers["claimer"].shown

            # Nothing moves before the pause is over, claimable or not.
            still, state = await tick(table_id, discarded + PAUSE - timedelta(milliseconds=100))
            assert still == version and state.phase == "claims" and state.wall_remaining == len(WALL) // 2
            # After it, the window closes and seat 1 draws.
            version, state = await tick(table_id, discarded + PAUSE + timedelta(milliseconds=100))
            assert state.phase == "turn" and state.current_seat == 1 and state.drawn_tile is not None
            for reader in readers.values():
                await reader.until(version)
            after_draw = {name: readers[name].shown for name in watchers}
            seen[case] = {name: [after_discard[name], after_draw[name]] for name in watchers}
            counts[case] = {
                name: [discard_frames[name], len(readers[name].frames) - dealt[name]] for name in watchers
            }
            received[case] = {
                name: [relative(f, dealt_version) for f in readers[name].frames[dealt[name] :]]
                for name in watchers
            }
    finally:
        for reader in readers.values():
            await reader.communicator.disconnect()
    for name in watchers:
        claimable, unclaimable = seen["claimable"][name], seen["unclaimable"][name]
        assert "等待" in claimable[0] or "Waiting" in claimable[0]
        assert [screen(f) for f in claimable] == [screen(f) for f in unclaimable], name
        # One frame for the discard, one for the draw: the same count whether or not a seat could claim.
        assert counts["claimable"][name] == counts["unclaimable"][name] == [1, 2], (name, counts)
        # The frames themselves: the same stamps (data-from, data-version), forms and sizes.
        claimable, unclaimable = received["claimable"][name], received["unclaimable"][name]
        assert [len(f) for f in claimable] == [len(f) for f in unclaimable], name
        assert claimable == unclaimable, name
        assert 'data-version="+1"' in claimable[0] and 'data-from="+1"' in claimable[1], name
