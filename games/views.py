"""HTTP views: thin — authenticate, parse, call one service, render or redirect."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import services
from games.forms import TableForm
from games.models import Room, Table
from games.names import name_list
from games.presentation import rendering
from games.presentation.rules_text import rules_html
from games.services import ServiceError
from games.services.stakes import room_stakes
from games.services.table_settings import (
    TableChoices,
    ignored_options,
    may_see_table,
    normalise_invite_code,
    note_invited,
    room_rules,
    table_open,
)
from games.throttle import client_address, counted_within

NOT_FOUND = {"no_such_table", "no_such_room", "no_such_seat"}
FORBIDDEN = {"not_seated", "not_your_seat", "room_closed"}


def rules(request):
    """The rules page: the engine's rules text (games/engine/RULES.md), rendered."""
    return render(request, "games/rules.html", {"rules_html": rules_html(), "sections": range(1, 12)})


def lobby(request):
    return render(request, "games/lobby.html", rendering.lobby_context(request.user))


def _lobby_rooms(request, error: ServiceError | None = None):
    """The lobby's live part for an htmx request (a pool joined or left), with a refusal's words."""
    ctx = rendering.lobby_context(request.user)
    ctx["pool_error"] = error.message if error is not None else None
    return render(request, "games/lobby.html#rooms", ctx)


@login_required
@require_POST
def pool_join(request, pool_id: int):
    """快速开始: wait in the pool (its stake accepted); with "bots" ticked, bots fill the table after
    `fill_after` seconds. The clock seats people and the lobby socket sends them to the table."""
    fill_after = None
    if request.POST.get("bots"):
        fill_after = request.POST.get("fill_after") or settings.POOL_FILL_AFTER
    try:
        services.pool_join(pool_id=pool_id, user=request.user, fill_after=fill_after)
    except ServiceError as error:
        if getattr(request, "htmx", False):
            return _lobby_rooms(request, error)  # htmx swaps a 200 only: the words go in the lobby
        messages.error(request, error.message)
    if getattr(request, "htmx", False):
        return _lobby_rooms(request)
    return HttpResponseRedirect(reverse("games:lobby"))


@login_required
@require_POST
def pool_leave(request):
    """Stop waiting: one click, no cost."""
    services.pool_leave(user=request.user)
    if getattr(request, "htmx", False):
        return _lobby_rooms(request)
    return HttpResponseRedirect(reverse("games:lobby"))


def _enterable(request, table_id: int) -> Table:
    """The table; for a missing table, and a private one this browser may not see (`may_see_table`),
    the same 404, so that private tables' ids cannot be told from unused ones."""
    obj = Table.objects.select_related("room").filter(pk=table_id).first()
    if obj is None or not may_see_table(
        table_id=obj.pk, private=obj.private, user=request.user, session=request.session
    ):
        raise Http404(ServiceError("no_such_table").message)
    return obj


def table(request, table_id: int):
    obj = _enterable(request, table_id)
    return render(request, "games/table.html", rendering.table_page_context(obj, request))


def _go(request, url: str):
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


def _call(request, target: int | None, fn, *, success_url: str | None = None, **kwargs):
    """Run one service for a POST; map refusals to 404 / 403 / a message on the table page."""
    try:
        fn(user=request.user, **kwargs)
    except ServiceError as error:
        if error.code in NOT_FOUND:
            raise Http404(error.message) from error
        if error.code in FORBIDDEN:
            raise PermissionDenied(error.message) from error
        messages.error(request, error.message)
        back = reverse("games:table", args=[target]) if target else reverse("games:lobby")
        return _go(request, back)
    return _go(request, success_url or reverse("games:table", args=[target]))


def _seat_number(request) -> int | None:
    raw = request.POST.get("seat", "")
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise Http404("no such seat") from None


@login_required
@require_POST
def table_create(request, room_id: int):
    try:
        created = services.table_create(room_id=room_id, user=request.user)
    except ServiceError as error:
        if error.code in NOT_FOUND:
            raise Http404(error.message) from error
        raise PermissionDenied(error.message) from error
    return _go(request, reverse("games:table", args=[created.pk]))


@login_required
@require_POST
def table_sit(request, table_id: int):
    _enterable(request, table_id)
    return _call(request, table_id, services.table_sit, table_id=table_id, seat=_seat_number(request))


@login_required
@require_POST
def table_stand(request, table_id: int):
    """Leave; someone leaving during a hand is told the penalty they paid (on the page they land on)."""
    _enterable(request, table_id)
    charged = []

    def stand(**kwargs):
        charged.append(services.table_stand(**kwargs))

    response = _call(request, table_id, stand, table_id=table_id, success_url=reverse("games:lobby"))
    if charged and charged[0] is not None:
        amount = charged[0].amount.normalize()
        messages.warning(request, gettext("中途离开，罚 %(amount)s 分，机器人代打。") % {"amount": amount})
    return response


@login_required
@require_POST
def table_fill(request, table_id: int):
    _enterable(request, table_id)
    level = request.POST.get("level") or None
    seat = _seat_number(request)
    return _call(request, table_id, services.table_fill_bots, table_id=table_id, level=level, seat=seat)


@login_required
@require_POST
def table_remove_bot(request, table_id: int):
    _enterable(request, table_id)
    seat = _seat_number(request)
    if seat is None:
        raise Http404("no such seat")
    return _call(request, table_id, services.table_remove_bot, table_id=table_id, seat=seat)


@login_required
@require_POST
def table_start(request, table_id: int):
    _enterable(request, table_id)
    return _call(request, table_id, services.table_start, table_id=table_id)


@login_required
@require_POST
def table_next_hand(request, table_id: int):
    _enterable(request, table_id)
    return _call(request, table_id, services.table_next_hand, table_id=table_id)


# --- tables with players' choices (issue 14) -------------------------------------------------------

# Which form field a refusal of `table_open` belongs beside, when it does not say (the rest go above).
_CHOICE_ERROR_FIELDS = {"bad_stake": "stake"}


@login_required
def table_new(request, room_id: int):
    """The new-table form: GET shows it with the room's defaults, POST opens the table."""
    room = get_object_or_404(Room, pk=room_id, is_open=True)
    effective = room_rules(room).to_json()
    data = request.POST if request.method == "POST" else None
    form = TableForm(data, room=room, effective=effective, stakes=room_stakes(room))
    if request.method == "POST" and form.is_valid():
        cleaned = form.cleaned_data
        choices = TableChoices(
            preset=cleaned["preset"],
            options=form.chosen_options(),
            discard_timeout=cleaned["discard_timeout"],
            claim_timeout=cleaned["claim_timeout"],
            private=cleaned["private"],
            stake=cleaned["stake"],
        )
        try:
            created = table_open(room_id=room.pk, user=request.user, choices=choices)
        except ServiceError as error:
            field = error.field or _CHOICE_ERROR_FIELDS.get(error.code)
            form.add_error(field if field in form.fields else None, error.message)
        else:
            ignored = ignored_options(created.preset, choices.options, effective)
            if ignored:
                messages.info(
                    request,
                    gettext("{options}只用于上海清混碰，这张桌子不用。").format(
                        options=name_list(o.label for o in ignored)
                    ),
                )
            return HttpResponseRedirect(reverse("games:table", args=[created.pk]))
    status = 400 if request.method == "POST" else 200
    return render(request, "games/table_new.html", {"room": room, "form": form}, status=status)


def _join_allowed(request) -> bool:
    """Whether this address, and this account when signed in, may open one more invite link now
    (settings.JOIN_ATTEMPTS_LIMIT per JOIN_WINDOW each): the code is a private table's only key,
    so it must not be guessed at machine speed."""
    limit, window = settings.JOIN_ATTEMPTS_LIMIT, settings.JOIN_WINDOW
    keys = [f"throttle:join:{client_address(request)}"]
    if request.user.is_authenticated:
        keys.append(f"throttle:join:user:{request.user.pk}")
    return all([counted_within(key, limit, window) for key in keys])


def table_invite(request, code: str):
    """The invite link of a private table: its choices, its seats, and a sit button."""
    if not _join_allowed(request):
        minutes = max(1, int(settings.JOIN_WINDOW.total_seconds()) // 60)
        return render(request, "games/join_throttled.html", {"minutes": minutes}, status=429)
    table = Table.objects.select_related("room").filter(invite_code=normalise_invite_code(code)).first()
    if table is None or table.status == Table.Status.FINISHED:
        raise Http404(ServiceError("no_such_invite").message)
    note_invited(request.session, table.pk)
    seats = list(table.seats.select_related("user").order_by("index"))
    mine = request.user.is_authenticated and any(s.user_id == request.user.pk for s in seats)
    context = {"table": table, "seats": seats, "mine": mine, "has_empty": any(s.is_empty for s in seats)}
    return render(request, "games/table_invite.html", context)
