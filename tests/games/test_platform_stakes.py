"""Rules §10 through the services: the stake (底分) and the ready check."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Table
from games.services import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def three(room, alice, bob, carol):
    """alice (owner), bob and carol seated in seats 0-2 of a waiting table, a bot in seat 3."""
    room.stakes = [1, 2, 5]
    room.save()
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_sit(table_id=table.pk, user=bob)
    services.table_sit(table_id=table.pk, user=carol)
    services.table_fill_bots(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table


def refused(code: str, fn, **kwargs) -> None:
    """`fn` is refused with `code` and the table does not change."""
    table = Table.objects.get(pk=kwargs["table_id"])
    before = (table.version, table.stake, table.owner_id, table.status, table.deadline)
    seats = list(table.seats.values_list("user_id", "stake_accepted", "ready"))
    with pytest.raises(ServiceError) as err:
        fn(**kwargs)
    assert err.value.code == code
    table.refresh_from_db()
    assert (table.version, table.stake, table.owner_id, table.status, table.deadline) == before
    assert list(table.seats.values_list("user_id", "stake_accepted", "ready")) == seats


def seat_of(table, user):
    return table.seats.get(user=user)


def test_owner_sets_stake_from_the_rooms_list(three, alice):
    assert three.owner == alice and three.stake is None
    services.table_set_stake(table_id=three.pk, user=alice, stake=5)
    three.refresh_from_db()
    assert three.stake == 5
    assert seat_of(three, alice).stake_accepted


@pytest.mark.parametrize("stake", [3, 0, -1, "abc", "2.0", None, True, 2.5, [1]])
def test_stake_outside_the_list_is_refused(three, alice, stake):
    refused("bad_stake", services.table_set_stake, table_id=three.pk, user=alice, stake=stake)


def test_only_the_owner_sets_it_and_only_once(three, alice, bob):
    refused("not_owner", services.table_set_stake, table_id=three.pk, user=bob, stake=2)
    services.table_set_stake(table_id=three.pk, user=alice, stake=2)
    refused("stake_already_set", services.table_set_stake, table_id=three.pk, user=alice, stake=5)


def test_others_must_accept_before_pressing_start(three, alice, bob):
    services.table_set_stake(table_id=three.pk, user=alice, stake=2)
    refused("stake_not_accepted", services.table_start, table_id=three.pk, user=bob)
    services.table_accept_stake(table_id=three.pk, user=bob)
    three.refresh_from_db()
    assert seat_of(three, bob).stake_accepted
    services.table_start(table_id=three.pk, user=bob)
    assert seat_of(three, bob).ready


def test_accepting_before_a_stake_is_set_is_refused(three, bob):
    refused("stake_not_set", services.table_accept_stake, table_id=three.pk, user=bob)
    refused("stake_not_set", services.table_start, table_id=three.pk, user=bob)


def test_refusing_the_stake_leaves_the_table(three, alice, bob):
    services.table_set_stake(table_id=three.pk, user=alice, stake=2)
    services.table_refuse_stake(table_id=three.pk, user=bob)
    three.refresh_from_db()
    assert not three.seats.filter(user=bob).exists()
    assert three.stake == 2 and three.owner == alice
    assert three.seats.get(index=1).is_empty


def test_the_owner_cannot_refuse_their_own_stake(three, alice):
    services.table_set_stake(table_id=three.pk, user=alice, stake=2)
    refused("not_owner", services.table_refuse_stake, table_id=three.pk, user=alice)


def test_owner_leaving_before_setting_hands_the_setting_on(three, alice, bob, carol):
    services.table_stand(table_id=three.pk, user=alice)
    three.refresh_from_db()
    assert three.owner == bob and three.stake is None
    refused("not_seated", services.table_set_stake, table_id=three.pk, user=alice, stake=2)
    refused("not_owner", services.table_set_stake, table_id=three.pk, user=carol, stake=2)
    services.table_set_stake(table_id=three.pk, user=bob, stake=1)
    three.refresh_from_db()
    assert three.stake == 1


def test_stake_stays_until_the_owner_leaves(three, alice, bob, carol):
    services.table_set_stake(table_id=three.pk, user=alice, stake=5)
    services.table_accept_stake(table_id=three.pk, user=bob)
    services.table_stand(table_id=three.pk, user=carol)  # someone else leaving changes nothing
    three.refresh_from_db()
    assert three.stake == 5 and seat_of(three, bob).stake_accepted
    services.table_stand(table_id=three.pk, user=alice)
    three.refresh_from_db()
    assert three.owner == bob and three.stake is None
    assert not seat_of(three, bob).stake_accepted
    services.table_set_stake(table_id=three.pk, user=bob, stake=2)
    three.refresh_from_db()
    assert three.stake == 2


def test_stake_is_the_hands_stake(three, alice, bob, carol):
    services.table_set_stake(table_id=three.pk, user=alice, stake=5)
    for user in (bob, carol):
        services.table_accept_stake(table_id=three.pk, user=user)
    for user in (alice, bob, carol):
        services.table_start(table_id=three.pk, user=user)
    three.refresh_from_db()
    assert three.status == Table.Status.PLAYING
    assert three.matches.get().hands.get().stake == 5


def test_owner_starting_without_choosing_plays_the_lowest_stake(bot_table):
    assert bot_table.stake == 1
    assert bot_table.matches.get().hands.get().stake == 1


# --- the ready check -----------------------------------------------------------------------------


def agreed(three, alice, bob, carol):
    services.table_set_stake(table_id=three.pk, user=alice, stake=2)
    for user in (bob, carol):
        services.table_accept_stake(table_id=three.pk, user=user)


def test_first_press_opens_the_ready_check_on_the_table_deadline(room, three, alice, bob, carol):
    agreed(three, alice, bob, carol)
    before = timezone.now()
    services.table_start(table_id=three.pk, user=alice)
    three.refresh_from_db()
    assert three.status == Table.Status.WAITING
    assert before + timedelta(seconds=room.ready_timeout) <= three.deadline
    assert three.deadline <= timezone.now() + timedelta(seconds=room.ready_timeout)
    assert [s.ready for s in three.seats.order_by("index")] == [True, False, False, False]


def test_everyone_pressing_in_time_starts_the_match(three, alice, bob, carol):
    agreed(three, alice, bob, carol)
    for user in (bob, alice, carol):
        services.table_start(table_id=three.pk, user=user)
    three.refresh_from_db()
    assert three.status == Table.Status.PLAYING and three.state
    assert not three.seats.filter(ready=True).exists()
    # the table deadline now belongs to the hand's clock
    assert services.clock_tick(now=timezone.now() + timedelta(seconds=30)) >= 0


def test_ready_timeout_removes_those_who_did_not_press(room, three, alice, bob, carol):
    room.ready_timeout = 5
    room.save()
    agreed(three, alice, bob, carol)
    services.table_start(table_id=three.pk, user=alice)
    services.table_start(table_id=three.pk, user=carol)
    three.refresh_from_db()
    version = three.version
    assert services.clock_tick(now=timezone.now() + timedelta(seconds=4)) == 0
    three.refresh_from_db()
    assert three.seats.filter(user=bob).exists() and three.version == version
    services.clock_tick(now=timezone.now() + timedelta(seconds=6))
    three.refresh_from_db()
    assert not three.seats.filter(user=bob).exists()
    assert three.seats.filter(user=alice).exists() and three.seats.filter(user=carol).exists()
    assert three.status == Table.Status.WAITING and three.deadline is None and three.version > version
    assert not three.seats.filter(ready=True).exists()
    assert three.stake == 2 and three.owner == alice
    # the check fires once
    assert services.clock_tick(now=timezone.now() + timedelta(seconds=60)) == 0


def test_an_owner_who_does_not_press_loses_the_table_and_the_stake(three, alice, bob, carol):
    agreed(three, alice, bob, carol)
    services.table_start(table_id=three.pk, user=bob)
    services.table_start(table_id=three.pk, user=carol)
    services.clock_tick(now=timezone.now() + timedelta(seconds=16))
    three.refresh_from_db()
    assert not three.seats.filter(user=alice).exists()
    assert three.owner == bob and three.stake is None


def test_banned_player_cannot_sit_or_open_a_table(room, three, make_user):
    dave = make_user("dave")
    services.ban_player(user=dave, reason="abuse")
    three.seats.filter(index=3).update(is_bot=False, bot_level="")
    refused("banned", services.table_sit, table_id=three.pk, user=dave)
    with pytest.raises(ServiceError) as err:
        services.table_create(room_id=room.pk, user=dave)
    assert err.value.code == "banned"
    services.unban_player(user=dave)
    services.table_sit(table_id=three.pk, user=dave)
    assert three.seats.filter(user=dave).exists()


def test_lobby_and_table_page_show_the_stake(client, three, alice, bob):
    services.table_set_stake(table_id=three.pk, user=alice, stake=5)
    lobby = client.get("/").content.decode()
    assert f'data-table="{three.pk}"' in lobby and 'data-stake="5"' in lobby
    client.force_login(bob)
    page = client.get(f"/table/{three.pk}/").content.decode()
    assert 'data-stake="5"' in page and 'data-testid="accept-stake"' in page
