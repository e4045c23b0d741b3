"""Set-up steps about quick-start pools, run inside the cluster's Django like `seed.py`'s (and listed
there)."""

from __future__ import annotations

import secrets
from decimal import Decimal

from tests.multiprocess.seed import _session_for


def pool_people(*, people: int, pools: int, room: dict | None = None) -> dict:
    """A room with `pools` quick-start pools (one per stake) and `people` signed-in users."""
    from django.contrib.auth import get_user_model

    from games.models import Pool, Room

    tag = secrets.token_hex(3)
    options = dict(room or {})
    if "bot_delay" in options:
        options["bot_delay"] = Decimal(str(options["bot_delay"]))
    stakes = list(range(1, pools + 1))
    the_room = Room.objects.create(name=f"mp-pools-{tag}", stakes=stakes, **options)
    made = [
        Pool.objects.create(room=the_room, preset="standard", stake=stake, order=stake) for stake in stakes
    ]
    make = get_user_model().objects.create_user
    users = [make(username=f"pool{i}-{tag}", password=None) for i in range(people)]  # no hashing: fast
    return {
        "room_id": the_room.pk,
        "pools": [pool.pk for pool in made],
        "people": [{"user_id": u.pk, "session": _session_for(u)} for u in users],
    }


COMMANDS = {"pool_people": pool_people}
