"""Reads for the lobby (games/selectors.py): what is listed, in a fixed number of queries."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts.models import Profile
from games import services
from games.models import Room, Seat, Table
from games.presentation import rendering


def open_tables(room, make_user, count: int, prefix: str) -> list[Table]:
    tables = []
    for i in range(count):
        owner = make_user(f"{prefix}{i}")
        Profile.objects.create(user=owner, display_name=f"Player {prefix}{i}")
        tables.append(services.table_create(room_id=room.pk, user=owner))
    return tables


@pytest.mark.parametrize("count", [1, 10])
def test_the_lobby_takes_the_same_few_queries_for_one_table_or_ten(
    room, make_user, count, django_assert_max_num_queries
):
    other = Room.objects.create(name="Second room")
    open_tables(room, make_user, count, "a")
    open_tables(other, make_user, count, "b")
    viewer = make_user("viewer")
    # Rooms, tables, seats; pools with their counts; the viewer's live table; people online.
    with django_assert_max_num_queries(6):
        context = rendering.lobby_context(viewer)
    listed = [t["table"] for item in context["rooms"] for t in item["tables"]]
    assert len(listed) == 2 * count
    with django_assert_max_num_queries(6):
        html = rendering.render_lobby_fragment(viewer)
    assert html.count('class="table-row"') == 2 * count
    assert f"Player a{count - 1}" in html and f"Player b{count - 1}" in html


def test_the_lobby_lists_what_someone_can_join_or_watch(room, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    shown = services.table_create(room_id=room.pk, user=alice)
    empty = services.table_create(room_id=room.pk, user=bob)
    Seat.objects.filter(table=empty).update(user=None)
    private = services.table_create(room_id=room.pk, user=bob)
    Table.objects.filter(pk=private.pk).update(private=True)
    finished = services.table_create(room_id=room.pk, user=bob)
    Table.objects.filter(pk=finished.pk).update(status=Table.Status.FINISHED)

    def listed(user):
        return [t["table"].pk for item in rendering.lobby_context(user)["rooms"] for t in item["tables"]]

    assert listed(AnonymousUser()) == [shown.pk]
    assert listed(alice) == [shown.pk]
    assert listed(bob) == [shown.pk, private.pk]
    mine = next(t for item in rendering.lobby_context(alice)["rooms"] for t in item["tables"])
    assert mine["mine"] and mine["has_empty"] and [i for i, _ in enumerate(mine["seats"])] == [0, 1, 2, 3]
