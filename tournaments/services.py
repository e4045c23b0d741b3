"""Tournament verbs (issue 29): create, join, leave, cancel, remove, start; and the clock's step that
starts due tournaments and ends rounds.

Each verb runs in one transaction with the Tournament row locked (`select_for_update`). A round's
tables are created by the games services (`table_create_planned`) and dealt from the round's seeds
through the plan this app registers (`table_plan`), so every rule, timer and bot is the tables'
own. Everything is in the database: a process killed mid-step rolls back and the next tick of any
process's clock does the step again (`advance_tournaments`).
"""

from __future__ import annotations

import logging
import random
import secrets
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import selectors as game_selectors
from games.engine.bots import levels as bot_levels_known
from games.engine.wall import commitment, new_seed, shuffled_wall
from games.errors import ServiceError
from games.services import (
    planned_room,
    table_create_planned,
    table_deal_planned,
    table_stand,
    tables_publish,
)
from games.services.table_settings import TableChoices, clean_choices
from ledger.services import is_banned

from .broadcast import on_commit_standings_changed
from .models import Entry, HandScore, Round, RoundTable, Tournament
from .seating import seat_round

log = logging.getLogger(__name__)

MIN_HANDS, MAX_HANDS = 1, 16
MAX_ROUNDS = 10
MAX_FIELD = 256
MAX_DELAY = 3600

ERRORS = {
    "no_such_tournament": _("没有这个比赛"),
    "tournament_not_open": _("比赛已经开始或已取消"),
    "tournament_full": _("报名人数已满"),
    "already_entered": _("你已经报名了"),
    "not_entered": _("你没有报名这个比赛"),
    "not_organiser": _("只有组织者可以这样做"),
    "bad_tournament": _("比赛设定不对"),
    "invite_only": _("这个比赛凭邀请链接报名"),
    "no_such_entry": _("没有这个参赛者"),
}


def refuse(code: str, message=None) -> ServiceError:
    return ServiceError(code, message or ERRORS[code])


def _require_user(user) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required")


def _locked(tournament_id) -> Tournament:
    if not isinstance(tournament_id, int) or isinstance(tournament_id, bool):
        raise refuse("no_such_tournament")
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise refuse("no_such_tournament")
    return tournament


def _may_run(tournament: Tournament, user) -> None:
    if not (user.is_staff or tournament.organiser_id == user.pk):
        raise refuse("not_organiser")


def _whole(value, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise refuse("bad_tournament")
    return value


def table_settings(tournament: Tournament) -> dict:
    """The Table fields of the tournament's tables, checked against the tournament room."""
    choices = TableChoices(
        preset=tournament.preset,
        options=tournament.options,
        discard_timeout=tournament.action_seconds,
        claim_timeout=tournament.action_seconds,
        private=True,
    )
    return clean_choices(planned_room(), choices)


def tournament_create(
    *,
    user,
    name: str,
    starts_at: datetime,
    preset: str = "standard",
    options: dict | None = None,
    rounds: int = 3,
    hands_per_round: int = 4,
    action_seconds: int = 20,
    max_players: int = 16,
    public: bool = True,
    bot_level: str = "normal",
    watch_delay: int = 180,
    join: bool = True,
) -> Tournament:
    """A new tournament open for entries until `starts_at`; with `join` its organiser enters it."""
    _require_user(user)
    if is_banned(user):
        raise ServiceError("banned")
    name = (name or "").strip()
    if not name or len(name) > 60:
        raise refuse("bad_tournament", _("请填写比赛名称（最多 60 字）"))
    _whole(rounds, 1, MAX_ROUNDS)
    _whole(hands_per_round, MIN_HANDS, MAX_HANDS)
    _whole(max_players, 4, MAX_FIELD)
    _whole(watch_delay, 0, MAX_DELAY)
    if bot_level not in bot_levels_known():
        raise ServiceError("bad_bot_level")
    with transaction.atomic():
        tournament = Tournament(
            name=name,
            organiser=user,
            preset=preset,
            options=dict(options or {}),
            rounds=rounds,
            hands_per_round=hands_per_round,
            action_seconds=action_seconds,
            starts_at=starts_at,
            max_players=max_players,
            public=bool(public),
            invite_code="" if public else secrets.token_urlsafe(9),
            bot_level=bot_level,
            watch_delay=watch_delay,
        )
        table_settings(tournament)  # refuses a preset, option or timer the tournament room does not allow
        tournament.save()
        if join:
            _enter(tournament, user)
    return tournament


def _enter(tournament: Tournament, user) -> Entry:
    entries = list(tournament.entries.all())
    if any(e.user_id == user.pk for e in entries):
        raise refuse("already_entered")
    if len(entries) >= tournament.max_players:
        raise refuse("tournament_full")
    return Entry.objects.create(
        tournament=tournament, user=user, number=max((e.number for e in entries), default=0) + 1
    )


def tournament_join(*, tournament_id: int, user, code: str = "") -> Entry:
    """Enter an open tournament (an invite-only one with its code)."""
    _require_user(user)
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.OPEN:
            raise refuse("tournament_not_open")
        if not tournament.public and not secrets.compare_digest(code or "", tournament.invite_code):
            raise refuse("invite_only")
        if is_banned(user):
            raise ServiceError("banned")
        return _enter(tournament, user)


def tournament_leave(*, tournament_id: int, user) -> None:
    """Withdraw: before the start the entry goes; once running, the bot plays the player's seat
    (托管) from now on, and the room's rules charge leaving a hand in progress."""
    _require_user(user)
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = tournament.entries.filter(user=user, removed=False).first()
        if entry is None:
            raise refuse("not_entered")
        _drop(tournament, entry)


def tournament_remove(*, tournament_id: int, user, number: int) -> None:
    """The organiser (or staff) removes an entrant: as if they had left."""
    _require_user(user)
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _may_run(tournament, user)
        entry = tournament.entries.filter(number=number, removed=False, is_bot=False).first()
        if entry is None:
            raise refuse("no_such_entry")
        _drop(tournament, entry)


def _drop(tournament: Tournament, entry: Entry) -> None:
    if tournament.status == Tournament.Status.OPEN:
        entry.delete()
        return
    if tournament.status != Tournament.Status.RUNNING:
        raise refuse("tournament_not_open")
    entry.removed = True
    entry.save(update_fields=["removed"])
    seated = RoundTable.objects.filter(round__tournament=tournament, round__number=tournament.current_round)
    for round_table in seated:
        if entry.number in round_table.entries and game_selectors.table_is_playing(round_table.table_id):
            try:
                table_stand(table_id=round_table.table_id, user=entry.user)
            except ServiceError:
                log.info("entry %s was no longer seated at table %s", entry.pk, round_table.table_id)


def _locked_open_to_run(tournament_id: int, user) -> Tournament:
    """The tournament, locked, that `user` runs (its organiser, or staff) and that has not started."""
    tournament = _locked(tournament_id)
    _may_run(tournament, user)
    if tournament.status != Tournament.Status.OPEN:
        raise refuse("tournament_not_open")
    return tournament


def tournament_cancel(*, tournament_id: int, user) -> Tournament:
    """The organiser (or staff) cancels a tournament that has not started."""
    _require_user(user)
    with transaction.atomic():
        tournament = _locked_open_to_run(tournament_id, user)
        tournament.status = Tournament.Status.CANCELLED
        tournament.ended = timezone.now()
        tournament.save(update_fields=["status", "ended"])
    return tournament


def tournament_start(
    *, tournament_id: int, user, deal: bool = True, field: int = 0, bot_levels: list[str] | None = None
) -> Tournament:
    """The organiser (or staff) starts now rather than at the start time; the field is filled with
    bots to a multiple of four, and to at least `field` (up to the maximum). `bot_levels`: the
    filling bots' levels in turn (a simulation's mixed field), else the tournament's."""
    _require_user(user)
    with transaction.atomic():
        tournament = _locked_open_to_run(tournament_id, user)
        if any(level not in bot_levels_known() for level in bot_levels or ()):
            raise ServiceError("bad_bot_level")
        field = min(field, tournament.max_players)
        _start(tournament, timezone.now(), deal=deal, field=field, bot_levels=bot_levels)
    return tournament


# --- starting and running ------------------------------------------------------------------------


def _start(
    tournament: Tournament,
    now: datetime,
    *,
    deal: bool = True,
    field: int = 0,
    bot_levels: list[str] | None = None,
) -> None:
    """Fill the field with bots up to a multiple of four (at least four, at least `field`), then
    seat round 1."""
    entries = list(tournament.entries.all())
    field = -(-max(4, len(entries), field) // 4) * 4
    number = max((e.number for e in entries), default=0)
    Entry.objects.bulk_create(
        [
            Entry(
                tournament=tournament,
                number=number + i,
                is_bot=True,
                bot_level=bot_levels[(i - 1) % len(bot_levels)] if bot_levels else "",
            )
            for i in range(1, field - len(entries) + 1)
        ]
    )
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    _start_round(tournament, 1, deal=deal)


def _start_round(tournament: Tournament, number: int, *, deal: bool = True) -> Round:
    """Seat round `number`, commit to its walls and open its tables; `deal=False` leaves the first
    hands to the caller (`tournament_simulate` plays each hand at once)."""
    seeds = [new_seed() for _ in range(tournament.hands_per_round)]
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        seeds=seeds,
        commitments=[commitment(seed, shuffled_wall(seed)) for seed in seeds],
    )
    entries = {e.number: e for e in tournament.entries.all()}
    previous = [
        [rt.entries for rt in r.tables.all()]
        for r in tournament.round_set.filter(number__lt=number).prefetch_related("tables")
    ]
    rng = random.Random(f"{tournament.pk}:{number}")
    seating = seat_round(sorted(entries), previous, rng)
    settings = table_settings(tournament)
    for i, numbers in enumerate(seating, start=1):
        users = [_player(entries[n]) for n in numbers]
        levels = [entries[n].bot_level or tournament.bot_level for n in numbers]
        table = table_create_planned(users=users, bot_levels=levels, settings=settings)
        RoundTable.objects.create(round=round_, number=i, table=table, entries=numbers)
        if deal:
            table_deal_planned(table_id=table.pk)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    return round_


def _player(entry: Entry):
    """Who sits for the entry: its person, or the bot (a bot entry, or a player who left)."""
    return None if entry.is_bot or entry.removed or entry.user is None else entry.user


def table_plan(table_id: int):
    """The games services' plan of a tournament table: each hand's (seed, dealer); the deal
    rotates East through the four seats (registered in apps.py)."""
    seeds = Round.objects.filter(tables__table_id=table_id).values_list("seeds", flat=True).first()
    if not seeds:
        return None
    return [(seed, k % 4) for k, seed in enumerate(seeds)]


def record_hand(*, table, hand) -> None:
    """A hand ended at some table (inside its transaction): a tournament table's seats' scores."""
    round_table = RoundTable.objects.filter(table_id=table.pk).select_related("round").first()
    if round_table is None or not hand.result:
        return
    deal = game_selectors.hands_before(table.pk, hand.pk)
    result = hand.result
    paid = (result.get("garden") or {}).get("paid") or result["payments"]
    dealt_in = {
        w["from_seat"]
        for w in result.get("winners", [])
        if w.get("from_seat") is not None and w.get("legal", True)
    }
    entries = {e.number: e for e in Entry.objects.filter(tournament_id=round_table.round.tournament_id)}
    seats = {seat.index: seat for seat in table.seats.all()}
    rows = []
    for index, number in enumerate(round_table.entries):
        entry, seat = entries[number], seats[index]
        absent = entry.user_id is not None and (seat.user_id != entry.user_id or seat.autoplay)
        rows.append(
            HandScore(
                round_table=round_table,
                deal=deal,
                seat=index,
                entry=entry,
                hand=hand,
                score=int(paid[index]),
                dealt_in=index in dealt_in,
                autoplay=absent,
                ended=hand.ended or timezone.now(),
            )
        )
    HandScore.objects.bulk_create(rows, ignore_conflicts=True)
    on_commit_standings_changed(round_table.round.tournament_id)


def advance_tournaments(now: datetime | None = None) -> int:
    """The clock's step: start the tournaments whose time has come, end the rounds whose tables have
    all finished (revealing their seeds) and seat the next round. Safe in several processes at once
    (each tournament is taken with `skip_locked`) and after a crash (each step is one transaction).
    Returns how many tournaments moved."""
    now = now or timezone.now()
    moved = 0
    due = Tournament.objects.filter(status=Tournament.Status.OPEN, starts_at__lte=now).values_list(
        "pk", flat=True
    )
    for pk in list(due):
        moved += _step(pk, now, Tournament.Status.OPEN)
    for pk in list(Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list("pk", flat=True)):
        moved += _step(pk, now, Tournament.Status.RUNNING)
    return moved


def _step(pk: int, now: datetime, status: str) -> int:
    try:
        with transaction.atomic():
            tournament = (
                Tournament.objects.select_for_update(skip_locked=True).filter(pk=pk, status=status).first()
            )
            if tournament is None:
                return 0
            if status == Tournament.Status.OPEN:
                _start(tournament, now)
                on_commit_standings_changed(pk)
                return 1
            moved = end_round_if_over(tournament, now)
            if moved:
                on_commit_standings_changed(pk)
            return int(moved)
    except Exception:  # one broken tournament must not stop the others
        log.exception("tournament %s: step failed", pk)
        return 0


def end_round_if_over(tournament: Tournament, now: datetime, *, deal: bool = True) -> bool:
    """With the tournament locked: when every table of its current round has finished, reveal the
    round's seeds and seat the next round, or finish the tournament."""
    round_ = tournament.round_set.filter(number=tournament.current_round).first()
    if round_ is None or round_.ended is not None:
        return False
    table_ids = list(round_.tables.values_list("table_id", flat=True))
    if game_selectors.tables_still_playing(table_ids):
        return False
    round_.ended = now
    round_.save(update_fields=["ended"])
    tables_publish(table_ids=table_ids)  # the round is over: its hands and replays are public
    if round_.number < tournament.rounds:
        _start_round(tournament, round_.number + 1, deal=deal)
    else:
        tournament.status = Tournament.Status.FINISHED
        tournament.ended = now
        tournament.save(update_fields=["status", "ended"])
    return True
