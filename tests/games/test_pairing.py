"""Quick start (issue 30): joining and leaving pools, and the clock's pairing round
(games/services/pairing.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services
from games.errors import ServiceError
from games.models import Pool, PoolEntry, Seat, Table
from games.services import pairing


@pytest.fixture
def pool(room):
    return Pool.objects.create(room=room, preset="standard", stake=2)


@pytest.fixture
def people(db):
    make = get_user_model().objects.create_user
    return [make(username=f"p{i}", password=None) for i in range(8)]  # no hashing: fast


def seated_tables(users) -> dict[int, int]:
    """user id → the table (not finished) they sit at."""
    rows = Seat.objects.filter(user__in=users).exclude(table__status=Table.Status.FINISHED)
    return dict(rows.values_list("user_id", "table_id"))


def test_four_people_in_a_pool_get_one_table_with_the_pool_stake_and_a_started_match(pool, people):
    now = timezone.now()
    for person in people[:4]:
        services.pool_join(pool_id=pool.pk, user=person, now=now)
    assert services.pair_pools(now=now) == 1
    tables = seated_tables(people[:4])
    assert len(tables) == 4 and len(set(tables.values())) == 1
    table = Table.objects.get(pk=next(iter(tables.values())))
    assert table.status == Table.Status.PLAYING and table.stake == 2 and table.pool_id == pool.pk
    seats = list(table.seats.all())
    assert all(s.user_id is not None and s.stake_accepted and not s.is_bot for s in seats)
    assert not PoolEntry.objects.exists()
    assert services.pair_pools(now=now) == 0  # nobody left to seat, nobody seated twice


def test_three_people_wait_and_nobody_is_seated(pool, people):
    now = timezone.now()
    for person in people[:3]:
        services.pool_join(pool_id=pool.pk, user=person, now=now)
    assert services.pair_pools(now=now + timedelta(seconds=60)) == 0
    assert seated_tables(people) == {} and PoolEntry.objects.count() == 3


def test_eight_people_make_two_tables_of_four_distinct_people(pool, people):
    now = timezone.now()
    for person in people:
        services.pool_join(pool_id=pool.pk, user=person, now=now)
    assert services.pair_pools(now=now) == 2
    tables = seated_tables(people)
    assert len(tables) == 8 and sorted(list(tables.values()).count(t) for t in set(tables.values())) == [4, 4]


def test_fill_with_bots_after_n_seconds_seats_whoever_waits_and_bots_of_the_room_level(room, pool, people):
    now = timezone.now()
    services.pool_join(pool_id=pool.pk, user=people[0], fill_after=5, now=now)
    services.pool_join(pool_id=pool.pk, user=people[1], now=now)
    assert services.pair_pools(now=now + timedelta(seconds=4)) == 0
    assert services.pair_pools(now=now + timedelta(seconds=5)) == 1
    table_id = seated_tables(people)[people[0].pk]
    assert seated_tables(people)[people[1].pk] == table_id
    seats = list(Seat.objects.filter(table_id=table_id))
    assert sorted(s.is_bot for s in seats) == [False, False, True, True]
    assert {s.bot_level for s in seats if s.is_bot} == {room.bot_level}


def test_ratings_far_apart_wait_then_the_window_widens(pool, people, settings):
    settings.POOL_STALE = 3600  # their lobbies stay open all along
    now = timezone.now()
    ratings = {p.pk: r for p, r in zip(people[:4], [10.0, 11.0, 12.0, 30.0], strict=True)}
    pairing.on_rating_lookup(lambda ids, room_id: {i: ratings[i] for i in ids if i in ratings})
    try:
        for person in people[:4]:
            services.pool_join(pool_id=pool.pk, user=person, now=now)
    finally:
        pairing._rating_lookups.pop()
    assert PoolEntry.objects.get(user=people[3]).rating == 30.0
    assert services.pair_pools(now=now) == 0  # 30 is far outside everyone's window
    # The window grows by WIDEN_PER_SECOND a second: once it spans 10..30 the four are a match.
    needed = (30.0 - 10.0 - pairing.RATING_WINDOW) / pairing.WIDEN_PER_SECOND
    assert services.pair_pools(now=now + timedelta(seconds=needed - 1)) == 0
    assert services.pair_pools(now=now + timedelta(seconds=needed + 1)) == 1


def test_groups_put_similar_ratings_together():
    now = timezone.now()
    waiting = [
        pairing.Waiting(i, 100 + i, rating, now, None)
        for i, rating in enumerate([10.0, 30.0, 10.5, 30.5, 11.0, 31.0, 11.5, 31.5])
    ]
    groups = pairing.groups_of(waiting, now)
    assert sorted(sorted(w.rating for w in g) for g in groups) == [
        [10.0, 10.5, 11.0, 11.5],
        [30.0, 30.5, 31.0, 31.5],
    ]


def test_a_person_is_in_one_pool_at_a_time(room, pool, people):
    other = Pool.objects.create(room=room, preset="standard", stake=1)
    services.pool_join(pool_id=pool.pk, user=people[0])
    services.pool_join(pool_id=other.pk, user=people[0])
    assert list(PoolEntry.objects.values_list("pool_id", flat=True)) == [other.pk]


def test_leaving_is_one_call_and_costs_nothing(pool, people):
    services.pool_join(pool_id=pool.pk, user=people[0])
    assert services.pool_leave(user=people[0]) is True
    assert not PoolEntry.objects.exists()
    assert services.pool_leave(user=people[0]) is False


def test_someone_seated_at_a_live_table_may_not_join(room, pool, people):
    services.table_create(room_id=room.pk, user=people[0])
    with pytest.raises(ServiceError) as refused:
        services.pool_join(pool_id=pool.pk, user=people[0])
    assert refused.value.code == "already_seated" and not PoolEntry.objects.exists()


def test_taking_a_seat_by_hand_leaves_the_pool(room, pool, people):
    services.pool_join(pool_id=pool.pk, user=people[0])
    table = services.table_create(room_id=room.pk, user=people[1])
    services.table_sit(table_id=table.pk, user=people[0])
    assert not PoolEntry.objects.exists()


def test_a_person_seated_meanwhile_is_dropped_not_seated_twice(room, pool, people):
    now = timezone.now()
    for person in people[:4]:
        services.pool_join(pool_id=pool.pk, user=person, now=now)
    # Seated elsewhere behind the pool's back (as by a service that does not leave pools).
    table = services.table_create(room_id=room.pk, user=people[5])
    Seat.objects.filter(table=table, index=1).update(user=people[0])
    assert services.pair_pools(now=now) == 0
    assert not PoolEntry.objects.filter(user=people[0]).exists()
    assert seated_tables([people[0]]) == {people[0].pk: table.pk}


def test_a_banned_person_is_never_seated(pool, people):
    now = timezone.now()
    for person in people[:4]:
        services.pool_join(pool_id=pool.pk, user=person, now=now)
    services.ban_player(user=people[2], reason="test")
    assert services.pair_pools(now=now) == 0
    assert seated_tables(people) == {} and not PoolEntry.objects.filter(user=people[2]).exists()
    with pytest.raises(ServiceError) as refused:
        services.pool_join(pool_id=pool.pk, user=people[2])
    assert refused.value.code == "banned"


def test_a_switched_off_pool_or_closed_room_refuses_and_seats_nobody(room, pool, people):
    pairing.pool_switch(pool_ids=[pool.pk], active=False)
    with pytest.raises(ServiceError) as refused:
        services.pool_join(pool_id=pool.pk, user=people[0])
    assert refused.value.code == "pool_closed"
    with pytest.raises(ServiceError) as missing:
        services.pool_join(pool_id=pool.pk + 99, user=people[0])
    assert missing.value.code == "no_such_pool"


@pytest.mark.parametrize("bad", ["0", "-3", "abc", "601", 1.5, True])
def test_a_bad_fill_after_is_refused(pool, people, bad):
    with pytest.raises(ServiceError) as refused:
        services.pool_join(pool_id=pool.pk, user=people[0], fill_after=bad)
    assert refused.value.code == "bad_fill_after" and not PoolEntry.objects.exists()


def test_an_entry_nobody_vouches_for_lapses_and_is_swept(pool, people, settings):
    settings.POOL_STALE, settings.POOL_CLOSE_GRACE = 30, 3
    now = timezone.now()
    services.pool_join(pool_id=pool.pk, user=people[0], now=now)
    services.pool_join(pool_id=pool.pk, user=people[1], now=now)
    # people[0]'s lobby socket closes; people[1]'s process keeps vouching.
    services.pool_socket_closed(people[0].pk, now=now)
    assert services.pool_vouch([people[1].pk], now=now + timedelta(seconds=20)) == 1
    assert services.sweep_pool_entries(now=now + timedelta(seconds=2)) == 0
    assert services.sweep_pool_entries(now=now + timedelta(seconds=4)) == 1
    assert list(PoolEntry.objects.values_list("user_id", flat=True)) == [people[1].pk]
    assert services.sweep_pool_entries(now=now + timedelta(seconds=49)) == 0
    assert services.sweep_pool_entries(now=now + timedelta(seconds=51)) == 1


def test_a_reload_within_the_grace_keeps_the_place(pool, people, settings):
    settings.POOL_STALE, settings.POOL_CLOSE_GRACE = 30, 3
    now = timezone.now()
    services.pool_join(pool_id=pool.pk, user=people[0], now=now)
    services.pool_socket_closed(people[0].pk, now=now)
    services.pool_vouch([people[0].pk], now=now + timedelta(seconds=1))  # the new lobby socket
    assert services.sweep_pool_entries(now=now + timedelta(seconds=10)) == 0
    assert PoolEntry.objects.get(user=people[0]).joined == now  # the place in the queue is kept


def test_the_pool_ratings_come_from_history(room, people):
    from history.models import Player, Rating

    player = Player.objects.create(key=f"u{people[0].pk}", user=people[0])
    Rating.objects.create(player=player, room=None, mu=31.5, sigma=5, ordinal=16.5)
    assert pairing.rating_of(people[0].pk, room.pk) == 31.5
    assert pairing.rating_of(people[1].pk, room.pk) == pairing.DEFAULT_RATING
    Rating.objects.create(player=player, room=room, mu=20.0, sigma=5, ordinal=5, rated_hands=3)
    assert pairing.rating_of(people[0].pk, room.pk) == 20.0
