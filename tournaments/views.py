"""Tournament pages: thin — authenticate, parse, call one service, render or redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.services import ServiceError

from . import selectors, services
from .forms import TournamentForm
from .models import RoundTable, Tournament


def tournament_list(request):
    ctx = {**selectors.tournament_lists(request.user), "form": TournamentForm()}
    return render(request, "tournaments/list.html", ctx)


@login_required
@require_POST
def tournament_new(request):
    form = TournamentForm(request.POST)
    if form.is_valid():
        try:
            tournament = services.tournament_create(user=request.user, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    ctx = {**selectors.tournament_lists(request.user), "form": form}
    return render(request, "tournaments/list.html", ctx, status=400)


def _visible(request, tournament_id: int) -> Tournament:
    """The tournament; an invite-only one that has not started only with its code, to its entrants,
    organiser and staff (the same 404 otherwise)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    code = request.GET.get("code") or request.POST.get("code") or ""
    if selectors.may_see(tournament, request.user, code):
        return tournament
    raise Http404("no such tournament")


def _minutes(seconds: int) -> str:
    return f"{seconds / 60:g}"


def _context(request, tournament: Tournament) -> dict:
    return {
        **selectors.live_context(tournament, request.user),
        "code": request.GET.get("code", ""),
        "delay_minutes": _minutes(tournament.watch_delay),
    }


def tournament_detail(request, tournament_id: int):
    tournament = _visible(request, tournament_id)
    return render(request, "tournaments/detail.html", _context(request, tournament))


def tournament_live(request, tournament_id: int):
    """The standings and rounds alone (the page's socket pushes the same fragment as hands end)."""
    tournament = _visible(request, tournament_id)
    return render(request, "tournaments/_live.html", _context(request, tournament))


def _call(request, tournament_id: int, verb, **kwargs):
    _visible(request, tournament_id)
    try:
        verb(tournament_id=tournament_id, user=request.user, **kwargs)
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("tournaments:detail", tournament_id=tournament_id)


@login_required
@require_POST
def tournament_join(request, tournament_id: int):
    return _call(request, tournament_id, services.tournament_join, code=request.POST.get("code", ""))


@login_required
@require_POST
def tournament_leave(request, tournament_id: int):
    return _call(request, tournament_id, services.tournament_leave)


@login_required
@require_POST
def tournament_start(request, tournament_id: int):
    """Start now; with `fill`, bots fill the field up to the maximum (else to a multiple of four)."""
    field = Tournament.objects.filter(pk=tournament_id).values_list("max_players", flat=True).first() or 0
    field = field if request.POST.get("fill") else 0
    return _call(request, tournament_id, services.tournament_start, field=field)


@login_required
@require_POST
def tournament_cancel(request, tournament_id: int):
    return _call(request, tournament_id, services.tournament_cancel)


@login_required
@require_POST
def tournament_remove(request, tournament_id: int):
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        number = 0
    return _call(request, tournament_id, services.tournament_remove, number=number)


def table_watch(request, tournament_id: int, round_table_id: int):
    """A spectator's view of a tournament table, `watch_delay` behind: the hands that ended that long
    ago (the live table is open only to its players, so nobody can relay tiles to them)."""
    tournament = _visible(request, tournament_id)
    round_table = get_object_or_404(
        RoundTable.objects.select_related("round"), pk=round_table_id, round__tournament=tournament
    )
    entries = {e.number: e for e in tournament.entries.select_related("user")}
    names = [selectors.entry_name(entries[n], tournament.bot_level) for n in round_table.entries]
    hands: dict[int, list] = {}
    for score in selectors.watchable_hands(round_table, tournament.watch_delay):
        hands.setdefault(score.deal, []).append(score)
    ctx = {
        "tournament": tournament,
        "round_table": round_table,
        "names": names,
        "hands": sorted(hands.items()),
        "delay_minutes": _minutes(tournament.watch_delay),
        "played": round_table.scores.values("deal").distinct().count(),
    }
    return render(request, "tournaments/watch.html", ctx)
