"""History pages: matches, a match's hands, replays (stored, exported, imported), statistics, leaderboards.

Thin views over `history.stats` / `history.replay`; every page issues a fixed number of queries
whatever the length of the history (lists are paginated, names come in with `select_related`).
Finished hands are public: their seed is revealed and every hand is shown, so replays and their
exports need no login and can be shared by URL (spectators included). An unfinished hand is never
replayed or exported. A private table's matches, hands, replays and exports are its members' only
(`may_see_table`): to anyone else every URL naming them answers as for an id that does not exist,
and other people's lists of matches leave them out.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Max, Min, Sum
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.avatar import avatar
from calc.links import stored_calc_urls
from games import selectors
from games.engine.verify import ExportError, VerifyFailed, loads_export, parse_export, verify_export
from games.models import Hand, Match, Room, Table
from games.names import PATTERNS, word
from games.services.table_settings import may_see_table

from . import charts, reviews
from .forms import ImportForm
from .import_errors import refusal
from .models import HandRecord, HandReview, Player, Rating
from .replay import NotReplayable, ReplaySource, check, clamp_step, frame_at, source_from_hand
from .review_view import clamp_index, decision_view, timeline
from .sections import stats_sections
from .stats import player_stats

MATCHES_PER_PAGE = 20
RECENT_MATCHES = 5
HANDS_PER_PAGE = 50
LEADERS_PER_PAGE = 50
SESSION_IMPORT = "history_import"


def min_hands() -> int:
    """Hands a player needs to appear on a leaderboard (settings.HISTORY_LEADERBOARD_MIN_HANDS)."""
    return settings.HISTORY_LEADERBOARD_MIN_HANDS


def _players():
    return Player.objects.select_related("user__profile")


def _player(key: str) -> Player:
    return get_object_or_404(_players(), key=key)


def _own_player(request) -> Player | None:
    return _players().filter(user=request.user).first()


# The one answer for a missing id and for a private table's id shown to someone who may not see it.
NOT_FOUND = "not found"


def _require_visible(request, table: Table) -> None:
    if not may_see_table(
        table_id=table.pk, private=table.private, user=request.user, session=request.session
    ):
        raise Http404(NOT_FOUND)


def _sees_private_matches(request, key: str) -> bool:
    """Whether a player's lists show the matches of private tables: to the player and the staff."""
    return request.user.is_authenticated and (request.user.is_staff or _is_me(request, key))


# --- matches -------------------------------------------------------------------------------------


@login_required
def my_matches(request):
    player = _own_player(request)
    if player is None:
        return render(request, "history/matches.html", {"player": None, "page": None, "own": True})
    return _matches(request, player, own=True, private=True)


def player_matches(request, key: str):
    own = request.user.is_authenticated and _is_me(request, key)
    return _matches(request, _player(key), own=own, private=_sees_private_matches(request, key))


def _is_me(request, key: str) -> bool:
    return key == f"u{request.user.pk}"


def _grouped_matches(player: Player, room: Room | None = None, *, private: bool = True):
    """The player's matches (in one room or all; without `private`, none at a private table), newest
    first: hands, total payment, first and last hand time, room."""
    records = HandRecord.objects.filter(player=player)
    if not private:
        records = records.exclude(match__table__private=True)
    if room is not None:
        records = records.filter(room=room)
    return (
        records.values("match")
        .annotate(
            hands=Count("id"), total=Sum("payment"), first=Min("ended"), last=Max("ended"), room=Max("room")
        )
        .order_by("-match")
    )


def _match_rows(player: Player, rows: list[dict]) -> list[dict]:
    """Fill in each row's room and the other players (three queries whatever the number of rows)."""
    match_ids = [r["match"] for r in rows]
    rooms = Room.objects.in_bulk({r["room"] for r in rows})
    others: dict[int, list[int]] = {}
    for match_id, player_id in (
        HandRecord.objects.filter(match_id__in=match_ids)
        .exclude(player=player)
        .values_list("match", "player")
        .distinct()
        .order_by("match", "player")
    ):
        others.setdefault(match_id, []).append(player_id)
    people = _players().in_bulk({pid for ids in others.values() for pid in ids})
    for r in rows:
        r["room"] = rooms.get(r["room"])
        r["others"] = [people[pid] for pid in others.get(r["match"], [])]
    return rows


def _matches(request, player: Player, *, own: bool, private: bool):
    page = Paginator(_grouped_matches(player, private=private), MATCHES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    rows = _match_rows(player, list(page.object_list))
    return render(request, "history/matches.html", {"player": player, "page": page, "rows": rows, "own": own})


def table_history(request, table_id: int):
    """The newest match played at a table (a stable link for the table page and its spectators)."""
    match = Match.objects.filter(table_id=table_id).select_related("table").order_by("-id").first()
    if match is None:
        raise Http404(NOT_FOUND)
    _require_visible(request, match.table)
    return redirect("history:match", match_id=match.pk)


def paid_of(result: dict) -> list[int]:
    """What each seat paid or got for a hand: the payments, or under 逛花园 what the stacks covered."""
    return (result.get("garden") or {}).get("paid") or result["payments"]


def _being_played(match: Match, hand) -> bool:
    """A hand without a result is being played only while it is its table's current hand and the
    match goes on; otherwise it was left unfinished (the table closed, or everyone left)."""
    table = match.table
    return match.ended is None and table.status == table.Status.PLAYING and table.hand_id == hand.pk


def match_detail(request, match_id: int):
    match = Match.objects.select_related("table__room").filter(pk=match_id).first()
    if match is None:
        raise Http404(NOT_FOUND)
    _require_visible(request, match.table)
    hands = Paginator(
        match.hands.order_by("number").only("pk", "match_id", "number", "dealer", "result", "rules"),
        HANDS_PER_PAGE,
    ).get_page(request.GET.get("page"))
    hand_list = list(hands.object_list)
    seat_players = list(
        HandRecord.objects.filter(hand_id__in=[h.pk for h in hand_list]).values_list(
            "hand_id", "seat", "player_id"
        )
    )
    people = _players().in_bulk({pid for _, _, pid in seat_players})
    names = {(hand_id, seat): people[pid] for hand_id, seat, pid in seat_players}
    rows = []
    for hand in hand_list:
        seats = [names.get((hand.pk, s)) for s in range(4)]
        result = hand.result
        winners = []
        if result:
            links = stored_calc_urls(result, hand.rules)
            for w, link in zip(result.get("winners", []), links, strict=True):
                winners.append(
                    {
                        "seat": w["seat"],
                        "player": seats[w["seat"]],
                        "name": seats[w["seat"]].name_at(w["seat"]) if seats[w["seat"]] else "",
                        "pattern": word(PATTERNS, w.get("pattern") or ""),
                        "value": w.get("value"),
                        "calc_url": link,
                    }
                )
        rows.append(
            {
                "hand": hand,
                "seats": seats,
                "dealer": seats[hand.dealer],
                "dealer_name": seats[hand.dealer].name_at(hand.dealer) if seats[hand.dealer] else "",
                "winners": winners,
                "live": result is None and _being_played(match, hand),
                "payments": list(zip(seats, paid_of(result), strict=True)) if result else None,
                # 逛花园: each seat's stack after the hand, and whether it ended the match
                "garden": (result or {}).get("garden"),
            }
        )
    ctx = {
        "match": match,
        "page": hands,
        "rows": rows,
        "has_garden": any(r["garden"] for r in rows),
        "garden_over": any(r["garden"] and r["garden"].get("over") for r in rows),
    }
    return render(request, "history/match.html", ctx)


# --- replays -------------------------------------------------------------------------------------


def _stored_source(request, hand_id: int) -> tuple[Hand, ReplaySource]:
    hand = Hand.objects.select_related("match__table__room").filter(pk=hand_id).first()
    if hand is None:
        raise Http404(NOT_FOUND)
    _require_visible(request, hand.match.table)
    if hand.result is None:
        return hand, None
    actions = selectors.hand_log(hand)
    players = {
        r.seat: r.player for r in HandRecord.objects.filter(hand=hand).select_related("player__user__profile")
    }
    names = [players[s].name_at(s) if s in players else _("座位 {}").format(s) for s in range(4)]
    return hand, source_from_hand(hand, actions, names)


def _unfinished(request, hand, message: str):
    return render(request, "history/unfinished.html", {"hand": hand, "message": message}, status=409)


def _replay_page(request, source: ReplaySource, ctx: dict):
    step = clamp_step(request.GET.get("step", 0), source.total)
    frame = frame_at(source, step)
    ctx.update(frame=frame, source=source, export=source.export)
    if getattr(request, "htmx", False):
        return render(request, "history/replay.html#board", ctx)
    ctx["server_check"] = check(source)
    return render(request, "history/replay.html", ctx)


def replay(request, hand_id: int):
    try:
        hand, source = _stored_source(request, hand_id)
        if source is None:
            if not _being_played(hand.match, hand):
                return _unfinished(request, None, _("这局没有打完（牌桌已关闭），不能回放。"))
            return _unfinished(
                request,
                hand,
                _("这局还没有结束，结束后才能回放。"),
            )
        ctx = {
            "hand": hand,
            "base_url": reverse("history:replay", args=[hand.pk]),
            "review_seats": _review_buttons(request, hand, source),
        }
        return _replay_page(request, source, ctx)
    except NotReplayable as exc:
        return _unfinished(request, None, str(exc))


def export_hand(request, hand_id: int):
    try:
        hand, source = _stored_source(request, hand_id)
    except NotReplayable as exc:
        return JsonResponse({"error": str(exc)}, status=409)
    if source is None:
        return JsonResponse({"error": "the hand is still being played"}, status=409)
    response = JsonResponse(source.export.to_json(), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="hand-{hand.pk}.json"'
    return response


@require_http_methods(["GET", "POST"])
def import_hand(request):
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            export = loads_export(form.cleaned_data["file"].read(form.max_bytes + 1))
            verify_export(export)
        except (ExportError, VerifyFailed) as exc:
            form.add_error("file", refusal(exc))
        else:
            request.session[SESSION_IMPORT] = json.dumps(export.to_json())
            return redirect("history:imported")
    return render(request, "history/import.html", {"form": form}, status=400 if form.errors else 200)


def imported(request):
    raw = request.session.get(SESSION_IMPORT)
    if not raw:
        return redirect("history:import")
    try:
        export = parse_export(json.loads(raw))
    except (ExportError, ValueError):
        request.session.pop(SESSION_IMPORT, None)
        return redirect("history:import")
    source = ReplaySource(export)
    return _replay_page(
        request, source, {"hand": None, "imported": True, "base_url": reverse("history:imported")}
    )


# --- 复盘 (reviews) ---------------------------------------------------------------------------------


def _may_review(request, hand: Hand, seat: int) -> bool:
    """A finished hand's seat: the staff any, anyone every seat of a public table's hand, a player
    their own seats (the only ones they may review of a private table's hand)."""
    user = request.user
    if user.is_authenticated and user.is_staff:
        return True
    if not hand.match.table.private:
        return True
    return (
        user.is_authenticated and HandRecord.objects.filter(hand=hand, seat=seat, player__user=user).exists()
    )


def _review_buttons(request, hand: Hand, source: ReplaySource) -> list[dict]:
    """The seats whose 复盘 this viewer may open, with whether each is already computed."""
    rows = {r.seat: r for r in HandReview.objects.filter(hand=hand).only("seat", "status", "version")}
    return [
        {"seat": s, "name": source.names[s], "ready": reviews.is_ready(rows.get(s))}
        for s in range(4)
        if _may_review(request, hand, s)
    ]


def _review_source(request, hand_id: int, seat: int):
    """(hand, source) of a seat this viewer may review; 404 as for a missing id otherwise, and
    `source` None while the hand is being played."""
    if not 0 <= seat < 4:
        raise Http404(NOT_FOUND)
    hand, source = _stored_source(request, hand_id)
    if not _may_review(request, hand, seat):
        raise Http404(NOT_FOUND)
    return hand, source


def _reviewable(request, hand_id: int, seat: int):
    """(hand, source) of a seat of a finished hand the viewer may review, or the page that says why
    it cannot be reviewed."""
    try:
        hand, source = _review_source(request, hand_id, seat)
    except NotReplayable as exc:
        return _unfinished(request, None, str(exc))
    if source is None:
        return _unfinished(request, hand, _("这局还没有结束，结束后才能复盘。"))
    return hand, source


@require_http_methods(["GET", "POST"])
def review_hand(request, hand_id: int, seat: int):
    """The seat's review: started by POST (the replay page's 复盘 button), shown once computed, and
    meanwhile a progress indicator that polls `review_status`."""
    found = _reviewable(request, hand_id, seat)
    if isinstance(found, HttpResponse):
        return found
    hand, source = found
    url = reverse("history:review", args=[hand.pk, seat])
    if request.method == "POST":
        reviews.ask(hand, seat, source.export)
        return redirect(url)
    row = reviews.latest(hand, seat, source.export)
    ctx = {"hand": hand, "seat": seat, "name": source.names[seat], "row": row, "url": url}
    if not reviews.is_ready(row):
        return render(request, "history/review_wait.html", ctx)
    data = row.data
    index = clamp_index(request.GET.get("d"), len(data["decisions"]))
    ctx.update(
        summary=data["summary"],
        mistake_gap=data["mistake_gap"],
        decision=decision_view(data, index),
        marks=timeline(data),
        replay_url=reverse("history:replay", args=[hand.pk]),
    )
    if getattr(request, "htmx", False) and request.GET.get("d") is not None:
        return render(request, "history/review.html#board", ctx)
    return render(request, "history/review.html", ctx)


def review_status(request, hand_id: int, seat: int):
    """The progress fragment the waiting page polls; once the review is ready, htmx is told to load
    the review page (`HX-Redirect`)."""
    found = _reviewable(request, hand_id, seat)
    if isinstance(found, HttpResponse):
        return found
    hand, source = found
    row = reviews.latest(hand, seat, source.export)
    url = reverse("history:review", args=[hand.pk, seat])
    ctx = {"hand": hand, "seat": seat, "row": row, "url": url}
    response = render(request, "history/review_wait.html#status", ctx)
    if reviews.is_ready(row):
        response["HX-Redirect"] = url
    return response


# --- statistics and leaderboards -------------------------------------------------------------------


def _room_filter(request) -> Room | None:
    raw = request.GET.get("room", "")
    if not raw:
        return None
    try:
        return Room.objects.get(pk=int(raw))
    except (ValueError, Room.DoesNotExist):
        raise Http404("no such room") from None


@login_required
def my_stats(request):
    player = _own_player(request)
    if player is None:
        return render(
            request, "history/stats.html", {"player": None, "own": True, "rooms": Room.objects.all()}
        )
    return redirect("history:stats", key=player.key)


def _sees_money(request, key: str) -> bool:
    """A person's ledger balance and penalties are theirs and the staff's to see; the rest is public."""
    return request.user.is_authenticated and (request.user.is_staff or _is_me(request, key))


def stats(request, key: str):
    """A player's page: avatar, rating, recent matches and statistics (public), and for the player
    and the staff the ledger balance and what penalties moved."""
    player = _player(key)
    room = _room_filter(request)
    data = player_stats(player, room.pk if room else None, ledger=_sees_money(request, key))
    private = _sees_private_matches(request, key)
    recent = _grouped_matches(player, room, private=private)
    biggest = data.biggest_win
    ctx = {
        "player": player,
        "avatar": avatar(player.name, player.key),
        "recent_matches": _match_rows(player, list(recent[:RECENT_MATCHES])),
        # The biggest win's replay is linked unless it was played at a private table this viewer
        # may not see (its figures stay: statistics are public).
        "biggest_win_replay": biggest is not None
        and (private or not Table.objects.filter(matches__hands=biggest.hand_id, private=True).exists()),
        "room": room,
        "rooms": Room.objects.all(),
        "stats": data,
        "own": request.user.is_authenticated and _is_me(request, key),
        "balance_chart": charts.line_chart(data.balance, label=_("累计得分")),
        "rating_chart": charts.line_chart(data.rating_history, label=_("等级分 (μ − 3σ)"), zero_line=False),
        **_review_trend(player),
        "sections": stats_sections(request, player),
    }
    return render(request, "history/stats.html", ctx)


def _review_trend(player: Player) -> dict:
    """The player's last reviewed hands: their agreement with the bot as a chart, and the averages."""
    rows = reviews.trend(player)
    if not rows:
        return {"review_trend": None}
    decisions = sum(r.decisions for r in rows)
    agreed = sum(r.agreement * r.decisions for r in rows)
    return {
        "review_trend": {
            "hands": len(rows),
            "agreement": agreed / decisions if decisions else 1.0,
            "mistakes": sum(r.mistakes for r in rows) / len(rows),
            "useful_lost": sum(r.useful_lost for r in rows) / len(rows),
            "chart": charts.line_chart(
                [round(100 * r.agreement, 1) for r in rows], label=_("与机器人的一致率"), zero_line=False
            ),
        }
    }


def leaderboard(request):
    room = _room_filter(request)
    hide_bots = request.GET.get("bots") == "hide"
    ratings = (
        Rating.objects.filter(room=room, hands__gte=min_hands())
        .select_related("player__user__profile")
        .order_by("-ordinal", "player_id")
    )
    if hide_bots:
        ratings = ratings.filter(player__user__isnull=False)
    page = Paginator(ratings, LEADERS_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    ctx = {
        "extra_query": query.urlencode(),
        "page": page,
        "room": room,
        "rooms": Room.objects.all(),
        "hide_bots": hide_bots,
        "min_hands": min_hands(),
        "first_rank": page.start_index(),
    }
    return render(request, "history/leaderboard.html", ctx)
