"""Reads for the tournament pages, the simulation's report and a player's statistics page."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from games.names import bot_name

from .models import Entry, HandScore, Round, RoundTable, Tournament
from .seating import repeated_pairs
from .standings import SeatScore, Standing, duplicate_scores, standings

PLAYER_TOURNAMENTS = 20  # listed on a statistics page


def seat_scores(tournament_id: int) -> list[SeatScore]:
    rows = HandScore.objects.filter(round_table__round__tournament_id=tournament_id).values_list(
        "round_table__round__number",
        "deal",
        "round_table__number",
        "seat",
        "entry__number",
        "score",
        "dealt_in",
    )
    return [SeatScore(*row) for row in rows]


@dataclass
class StandingRow:
    standing: Standing
    entry: Entry
    name: str
    autoplay: int = 0  # hands the bot played for this person (absent, left, or 托管)

    @property
    def duplicate(self) -> float:
        return round(float(self.standing.duplicate), 2)


def entry_name(entry: Entry, default_level: str = "normal") -> str:
    """A person's user name; a bot's name with its level and entry number: 机器人（普通） 7."""
    if entry.user_id is not None:
        return entry.user.username
    return f"{bot_name(None, entry.bot_level or default_level)} {entry.number}"


def standing_rows(tournament: Tournament) -> list[StandingRow]:
    entries = {e.number: e for e in tournament.entries.select_related("user")}
    autoplay = Counter(
        HandScore.objects.filter(round_table__round__tournament=tournament, autoplay=True).values_list(
            "entry__number", flat=True
        )
    )
    return [
        StandingRow(
            s, entries[s.entry], entry_name(entries[s.entry], tournament.bot_level), autoplay[s.entry]
        )
        for s in standings(entries, seat_scores(tournament.pk))
        if s.entry in entries
    ]


def rounds_with_tables(tournament: Tournament) -> list[Round]:
    """The rounds, newest last, each with `.table_rows` (RoundTables with their entries' names and
    the hands already recorded)."""
    entries = {e.number: e for e in tournament.entries.select_related("user")}
    rounds = list(tournament.round_set.prefetch_related("tables__scores"))
    for round_ in rounds:
        for rt in round_.tables.all():
            rt.names = [entry_name(entries[n], tournament.bot_level) for n in rt.entries]
            rt.hands_done = len({s.deal for s in rt.scores.all()})
        round_.table_rows = list(round_.tables.all())
    return rounds


def tournament_report(tournament_id: int) -> dict:
    """What `tournament_simulate --json` prints: standings, and rounds with their tables (players in
    seat order, the wall commitment of each hand as dealt there) and their revealed seeds."""
    tournament = Tournament.objects.get(pk=tournament_id)
    scores = seat_scores(tournament_id)
    rows = standings([e.number for e in tournament.entries.all()], scores)
    dealt = {}
    for rt_id, deal, commitment in HandScore.objects.filter(
        round_table__round__tournament_id=tournament_id, seat=0
    ).values_list("round_table_id", "deal", "hand__commitment"):
        dealt.setdefault(rt_id, {})[deal] = commitment
    rounds = []
    for round_ in tournament.round_set.prefetch_related("tables"):
        rounds.append(
            {
                "number": round_.number,
                "commitments": round_.commitments,
                "seeds": round_.seeds if round_.revealed else None,
                "tables": [
                    {
                        "table": rt.table_id,
                        "players": rt.entries,
                        "commitments": [dealt.get(rt.pk, {}).get(k) for k in range(len(round_.seeds))],
                    }
                    for rt in round_.tables.all()
                ],
            }
        )
    sums = {}
    for s, dup in duplicate_scores(scores).items():
        key = (s.round, s.deal, s.seat)
        sums[key] = sums.get(key, 0) + dup
    return {
        "tournament": tournament.pk,
        "players": len(rows),
        "status": tournament.status,
        "standings": [
            {
                "rank": s.rank,
                "id": s.entry,
                "duplicate": float(s.duplicate),
                "raw": s.raw,
                "deal_ins": s.deal_ins,
                "hands": s.hands,
            }
            for s in rows
        ],
        "rounds": rounds,
        "repeated_pairs": repeated_pairs([[t["players"] for t in r["tables"]] for r in rounds]),
        "max_deal_sum": float(max((abs(v) for v in sums.values()), default=0)),
    }


def tournament_lists(user) -> dict[str, list[Tournament]]:
    """The tournaments page's lists: open (public, or the viewer's own), running, finished."""
    visible = Q(public=True)
    if user is not None and user.is_authenticated:
        visible |= Q(organiser=user) | Q(entries__user=user)
    found = Tournament.objects.filter(visible).distinct().order_by("-starts_at", "-id")
    return {
        "open": [t for t in found if t.status == Tournament.Status.OPEN],
        "running": [t for t in found if t.status == Tournament.Status.RUNNING],
        "finished": [t for t in found if t.status == Tournament.Status.FINISHED][:30],
    }


def player_tournaments(user_id: int, *, everyone: bool) -> list[Tournament]:
    """The tournaments a player entered (for their statistics page), newest first, each with the
    player's `rank` once it has started; invite-only ones only with `everyone` (the player, staff)."""
    found = Tournament.objects.filter(entries__user_id=user_id).exclude(status=Tournament.Status.CANCELLED)
    if not everyone:
        found = found.filter(public=True)
    tournaments = list(found.distinct().order_by("-starts_at")[:PLAYER_TOURNAMENTS])
    for tournament in tournaments:
        tournament.rank = None
        if tournament.status != Tournament.Status.OPEN:
            rows = standing_rows(tournament)
            tournament.rank = next((r.standing.rank for r in rows if r.entry.user_id == user_id), None)
    return tournaments


def watchable_hands(round_table: RoundTable, delay: int) -> list[HandScore]:
    """A spectator's delayed view of a table: the hands that ended at least `delay` seconds ago."""
    cutoff = timezone.now() - timedelta(seconds=delay)
    return list(
        round_table.scores.filter(ended__lte=cutoff)
        .select_related("entry__user", "hand")
        .order_by("deal", "seat")
    )


def may_see(tournament: Tournament, user, code: str) -> bool:
    """Whether `user` sees the tournament: an invite-only one that has not started only with its code,
    to its entrants, organiser and staff."""
    if tournament.public or tournament.status != Tournament.Status.OPEN:
        return True
    if code and code == tournament.invite_code:
        return True
    return bool(
        user is not None
        and user.is_authenticated
        and (
            user.is_staff
            or tournament.organiser_id == user.pk
            or tournament.entries.filter(user=user).exists()
        )
    )


def live_context(tournament: Tournament, user) -> dict:
    """The page's live part (standings and rounds) as `user` sees it: public, but for their own row
    and table marked and, for the organiser, the remove buttons."""
    signed_in = user is not None and user.is_authenticated
    mine = tournament.entries.filter(user=user).first() if signed_in else None
    rounds = rounds_with_tables(tournament)
    my_tables = set()
    if mine is not None:
        my_tables = {rt.table_id for r in rounds for rt in r.table_rows if mine.number in rt.entries}
    return {
        "tournament": tournament,
        "standings": standing_rows(tournament),
        "rounds": rounds,
        "mine": mine,
        "my_tables": my_tables,
        "may_run": signed_in and (user.is_staff or tournament.organiser_id == user.pk),
        "live": tournament.status in (Tournament.Status.OPEN, Tournament.Status.RUNNING),
    }
