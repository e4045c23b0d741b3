"""Quick start (快速开始, issue 30): people wait in a room's pools; the clock seats them four at a time.

A pool (`Pool`) is a preset and options of its room × a stake of its room. Joining one (`pool_join`)
accepts its stake; a person waits in one pool at a time (`PoolEntry` is one row per person) and never
while seated at a table that is not finished. Every clock tick `pair_pools` looks at each pool:

- people of similar rating are put together: each waiting person accepts others within a rating
  window that widens the longer they wait (`rating_window`, lichess-style); two people are a match
  when each is within the other's window;
- someone who asked for bots after N seconds (`fill_after`) gets, once N seconds have passed, a
  table with whoever is waiting in the pool (closest ratings first) and bots of the room's level;
- a table of four opens, everyone is seated with the stake agreed, the match starts at once, and
  the lobby sockets of the people seated are told where to go (`on_commit_seated`).

The round locks the pool's waiting entries (`skip_locked`: another process pairing the same pool
skips them) and then the people's user rows (`skip_locked` too: someone taking a seat or joining
meanwhile holds theirs, and is left for the next round), so nobody is seated twice or at two
tables, whatever the number of processes running the clock. Banned people and people seated at a
live table are dropped from the pool instead of seated.

Ratings: history keeps an OpenSkill rating per player, but `games` may not import `history`, so history
registers a reader here (`on_rating_lookup`, from history/apps.py); without one everyone has
`DEFAULT_RATING`. The rating (μ) is read once, when the person joins.

Presence: an entry counts until its `expires`. The person's lobby socket moves it on every
`PRESENCE_HEARTBEAT` (`pool_vouch`, from the clock) and, when it closes, brings it to within
`POOL_CLOSE_GRACE` seconds (`pool_socket_closed`: a reload of the lobby keeps the place); an entry
nobody vouches for (the browser or its process is gone) lapses after `POOL_STALE` seconds, and
`sweep_pool_entries` deletes lapsed entries.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.errors import ServiceError
from games.models import Pool, PoolEntry, Room, Seat, Table
from ledger.models import Ban
from ledger.services import is_banned

from .broadcast import on_commit_lobby_changed, on_commit_seated
from .changes import lock_seat_taker, locked_table, require_user
from .play import begin_match
from .stakes import parse_stake, room_stakes
from .table_settings import TableChoices, clean_choices

log = logging.getLogger(__name__)

DEFAULT_RATING = 25.0  # OpenSkill's starting μ
# The rating window: ± this much μ at once, wider by WIDEN_PER_SECOND for every second waited.
RATING_WINDOW = 3.0
WIDEN_PER_SECOND = 0.5
FILL_AFTER_MAX = 600

RatingLookup = Callable[[list[int], int], dict[int, float]]
_rating_lookups: list[RatingLookup] = []


def on_rating_lookup(lookup: RatingLookup) -> None:
    """Register the reader of people's ratings: (user ids, room id) → {user id: μ}."""
    if lookup not in _rating_lookups:
        _rating_lookups.append(lookup)


def rating_of(user_id: int, room_id: int) -> float:
    for lookup in _rating_lookups:
        found = lookup([user_id], room_id).get(user_id)
        if found is not None:
            return float(found)
    return DEFAULT_RATING


def _stale() -> timedelta:
    return timedelta(seconds=float(settings.POOL_STALE))


def live_seat_exists(user_id: int) -> bool:
    """Whether the person holds a seat at a table that is not finished."""
    return Seat.objects.filter(user_id=user_id).exclude(table__status=Table.Status.FINISHED).exists()


def parse_fill_after(value) -> int | None:
    """Seconds before bots fill the table (None: never), as a form sends it; `bad_fill_after` else."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= FILL_AFTER_MAX:
        return value
    raise ServiceError("bad_fill_after")


# --- the person's verbs --------------------------------------------------------------------------


def pool_join(*, pool_id: int, user, fill_after=None, now: datetime | None = None) -> PoolEntry:
    """Wait in the pool (leaving any other one); joining accepts the pool's stake. Joining the pool
    one already waits in keeps one's place and changes only `fill_after`."""
    require_user(user)
    fill_after = parse_fill_after(fill_after)
    if not isinstance(pool_id, int) or isinstance(pool_id, bool):
        raise ServiceError("no_such_pool")
    now = now or timezone.now()
    with transaction.atomic():
        pool = Pool.objects.select_related("room").filter(pk=pool_id).first()
        if pool is None:
            raise ServiceError("no_such_pool")
        if not pool.is_active or not pool.room.is_open:
            raise ServiceError("pool_closed")
        if is_banned(user):
            raise ServiceError("banned")
        lock_seat_taker(user)  # the same lock as taking a seat: the two never cross
        if live_seat_exists(user.pk):
            raise ServiceError("already_seated")
        entry = PoolEntry.objects.select_for_update().filter(user_id=user.pk).first()
        if entry is not None and entry.pool_id == pool.pk and entry.expires > now:
            entry.fill_after = fill_after
            entry.expires = now + _stale()
            entry.save(update_fields=["fill_after", "expires"])
        else:
            if entry is not None:
                entry.delete()
            entry = PoolEntry.objects.create(
                pool=pool,
                user=user,
                rating=rating_of(user.pk, pool.room_id),
                fill_after=fill_after,
                joined=now,
                expires=now + _stale(),
            )
        on_commit_lobby_changed()
    return entry


def pool_leave(*, user) -> bool:
    """Stop waiting (costs nothing); False when the person was in no pool."""
    require_user(user)
    with transaction.atomic():
        left, _ = PoolEntry.objects.filter(user_id=user.pk).delete()
        if left:
            on_commit_lobby_changed()
    return bool(left)


# --- presence ------------------------------------------------------------------------------------


def pool_vouch(user_ids: Iterable[int], now: datetime | None = None) -> int:
    """These people have a lobby socket open (a process's heartbeat, or a socket connecting): their
    entries count for another `POOL_STALE` seconds. Returns how many entries."""
    user_ids = set(user_ids)
    if not user_ids:
        return 0
    now = now or timezone.now()
    with transaction.atomic():
        ids = _lock_free(PoolEntry.objects.filter(user_id__in=user_ids, expires__gt=now))
        return PoolEntry.objects.filter(pk__in=ids).update(expires=now + _stale())


def _lock_free(entries) -> list[int]:
    """The ids of `entries`, each row locked here unless another transaction holds it (then it is
    left out). The writes over many people's entries (a heartbeat's vouch, a sweep) run beside
    pairing, joins and other processes' sweeps: waiting on one row while holding others could close
    a circle of waits (a deadlock), and an entry left out now is vouched for or swept next time.
    Only the entries' rows are locked, not the pool's or room's rows a filter joins."""
    locked = entries.select_for_update(skip_locked=True, of=("self",))
    return list(locked.order_by("pk").values_list("pk", flat=True))


def pool_socket_closed(user_id: int, now: datetime | None = None) -> None:
    """The person's last lobby socket here closed: their entry lapses in `POOL_CLOSE_GRACE` seconds
    unless a socket vouches for them again (a reload of the lobby, another tab)."""
    now = now or timezone.now()
    until = now + timedelta(seconds=float(settings.POOL_CLOSE_GRACE))
    PoolEntry.objects.filter(user_id=user_id, expires__gt=until).update(expires=until)


def sweep_pool_entries(now: datetime | None = None) -> int:
    """Delete the entries that lapsed and those of pools switched off; returns how many."""
    now = now or timezone.now()
    gone = Q(expires__lte=now) | Q(pool__is_active=False) | Q(pool__room__is_open=False)
    ids = list(PoolEntry.objects.filter(gone).values_list("pk", flat=True)[:1000])
    if not ids:
        return 0
    with transaction.atomic():
        lapsed = _lock_free(PoolEntry.objects.filter(gone, pk__in=ids))
        deleted, _ = PoolEntry.objects.filter(pk__in=lapsed).delete()
        if deleted:
            on_commit_lobby_changed()
    return deleted


# --- pairing -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Waiting:
    """What pairing needs of an entry."""

    entry_id: int
    user_id: int
    rating: float
    joined: datetime
    fill_after: int | None


def rating_window(person: Waiting, now: datetime) -> float:
    waited = max(0.0, (now - person.joined).total_seconds())
    return RATING_WINDOW + WIDEN_PER_SECOND * waited


def wants_bots_now(person: Waiting, now: datetime) -> bool:
    return person.fill_after is not None and now - person.joined >= timedelta(seconds=person.fill_after)


def groups_of(waiting: list[Waiting], now: datetime) -> list[list[Waiting]]:
    """Who sits together now: groups of four people each within every other's rating window, the
    longest waiting served first (each takes the closest ratings it can); and, for someone whose
    `fill_after` has passed, a group of them and up to three others still waiting (closest ratings
    first), the rest of the seats to be bots."""
    by_join = sorted(waiting, key=lambda w: (w.joined, w.entry_id))
    windows = {w.entry_id: rating_window(w, now) for w in by_join}

    def compatible(a: Waiting, b: Waiting) -> bool:
        return abs(a.rating - b.rating) <= min(windows[a.entry_id], windows[b.entry_id])

    taken: set[int] = set()
    groups = []
    for anchor in by_join:
        if anchor.entry_id in taken:
            continue
        free = sorted(
            (w for w in by_join if w.entry_id not in taken and w.entry_id != anchor.entry_id),
            key=lambda w, anchor=anchor: (abs(w.rating - anchor.rating), w.joined, w.entry_id),
        )
        group = [anchor]
        for other in free:
            if len(group) < 4 and all(compatible(other, member) for member in group):
                group.append(other)
        if len(group) < 4:
            if not wants_bots_now(anchor, now):
                continue
            group = [anchor, *free[:3]]
        taken.update(w.entry_id for w in group)
        groups.append(group)
    return groups


def _waiting(rows) -> list[Waiting]:
    return [Waiting(e.pk, e.user_id, e.rating, e.joined, e.fill_after) for e in rows]


def pair_pools(now: datetime | None = None) -> int:
    """One pairing round over every open pool (the clock's step); returns how many tables opened.
    A pool that fails is logged and the others go on."""
    now = now or timezone.now()
    rows = PoolEntry.objects.filter(expires__gt=now, pool__is_active=True, pool__room__is_open=True).only(
        "pk", "pool_id", "user_id", "rating", "joined", "fill_after"
    )
    by_pool: dict[int, list[PoolEntry]] = {}
    for row in rows:
        by_pool.setdefault(row.pool_id, []).append(row)
    opened = 0
    for pool_id, entries in by_pool.items():
        if not groups_of(_waiting(entries), now):  # nothing to do: no lock taken
            continue
        try:
            opened += _pair_pool(pool_id, now)
        except Exception:
            log.exception("pool %s: pairing failed", pool_id)
    return opened


def _pair_pool(pool_id: int, now: datetime) -> int:
    with transaction.atomic():
        pool = Pool.objects.select_related("room").filter(pk=pool_id, is_active=True).first()
        if pool is None:
            return 0
        entries = list(
            PoolEntry.objects.select_for_update(skip_locked=True)
            .filter(pool_id=pool_id, expires__gt=now)
            .order_by("joined", "pk")
        )
        ids = [e.user_id for e in entries]
        lockable = set(
            get_user_model()
            .objects.select_for_update(skip_locked=True)
            .filter(pk__in=ids, is_active=True)
            .values_list("pk", flat=True)
        )
        banned = set(
            Ban.objects.filter(user_id__in=ids, lifted__isnull=True).values_list("user_id", flat=True)
        )
        seated = set(
            Seat.objects.filter(user_id__in=ids)
            .exclude(table__status=Table.Status.FINISHED)
            .values_list("user_id", flat=True)
        )
        dropped = [
            e.pk for e in entries if e.user_id in lockable and (e.user_id in banned or e.user_id in seated)
        ]
        if dropped:
            PoolEntry.objects.filter(pk__in=dropped).delete()
            on_commit_lobby_changed()
        eligible = [e for e in entries if e.user_id in lockable and e.pk not in dropped]
        seated_now: list[tuple[int, int]] = []
        for group in groups_of(_waiting(eligible), now):
            table = _open_table(pool, group)
            seated_now += [(w.user_id, table.pk) for w in group]
        if seated_now:
            on_commit_seated(seated_now)
    return len({table_id for _, table_id in seated_now})


def _open_table(pool: Pool, group: list[Waiting]) -> Table:
    """A table of the pool's choices with the group seated (in random seats, bots of the room's level
    in the others), the stake agreed, and its match started."""
    room = pool.room
    places: list[int | None] = [w.user_id for w in group] + [None] * (4 - len(group))
    random.shuffle(places)
    table = Table.objects.create(
        room=room,
        owner_id=group[0].user_id,
        version=1,
        preset=pool.preset or room.preset,
        options=dict(pool.options or {}),
        stake=pool.stake,
        pool=pool,
    )
    Seat.objects.bulk_create(
        [
            Seat(
                table=table,
                index=i,
                user_id=user_id,
                is_bot=user_id is None,
                bot_level="" if user_id else room.bot_level,
                stake_accepted=user_id is not None,
            )
            for i, user_id in enumerate(places)
        ]
    )
    PoolEntry.objects.filter(pk__in=[w.entry_id for w in group]).delete()
    locked = locked_table(table.pk)
    begin_match(locked)
    return locked


# --- staff ---------------------------------------------------------------------------------------


def pool_save(
    *, pool_id: int | None, room_id: int, preset: str, options: dict, stake, is_active: bool, order: int = 0
) -> Pool:
    """Create or change a pool (the staff pages): its preset and options must be the room's to offer
    and its stake one of the room's. Switched off, its waiting people leave it at once."""
    with transaction.atomic():
        room = Room.objects.filter(pk=room_id).first()
        if room is None:
            raise ServiceError("no_such_room")
        fields = clean_choices(
            room, TableChoices(preset=preset or None, options=options, stake=parse_stake(stake))
        )
        pool = Pool() if pool_id is None else Pool.objects.select_for_update().get(pk=pool_id)
        pool.room = room
        pool.preset = preset or ""
        pool.options = fields["options"]
        pool.stake = fields["stake"]
        pool.is_active = bool(is_active)
        pool.order = order
        pool.save()
        if not pool.is_active:
            PoolEntry.objects.filter(pool=pool).delete()
        on_commit_lobby_changed()
    return pool


def pool_switch(*, pool_ids: Iterable[int], active: bool) -> int:
    """Switch pools on or off (a staff action); the people waiting in one switched off leave it."""
    with transaction.atomic():
        changed = Pool.objects.filter(pk__in=list(pool_ids)).update(is_active=active)
        if not active:
            PoolEntry.objects.filter(pool_id__in=list(pool_ids)).delete()
        on_commit_lobby_changed()
    return changed


def ensure_pools(*, room_id: int, offers: Iterable[tuple[str, int]]) -> int:
    """Give a room without pools one for each (preset, stake) it allows (the demo set-up); returns
    how many were made."""
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room_id)
        if room.pools.exists():
            return 0
        made = 0
        for order, (preset, stake) in enumerate(offers):
            if preset in (room.allowed_presets or []) and stake in room_stakes(room):
                Pool.objects.create(room=room, preset=preset, stake=stake, order=order)
                made += 1
        if made:
            on_commit_lobby_changed()
    return made
