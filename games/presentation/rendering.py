"""Turning a table into what one viewer may see: template context, regions and socket frames.

Everything game-related comes from the engine's `HandView` (`state.hand_view(seat)`) for the viewer's
own seat (or `hand_view(None)` for a spectator); the full state never reaches a template.

Words are in the active language: a page's request's, or for a socket frame the socket's (its
`language`, which `render_for_viewers` activates around that viewer's frame). What is shared between
viewers and holds words (seat blocks, the settlement panel, the spectators' screen) is shared per
language.

The frame format (issue 25)
---------------------------
The table page is made of regions, each an element with a stable id, each rendered from one
template of templates/jinja2/games/table/:

    #frame-stamp   stamp.html     the version shown (data-version) and the one a frame assumed (data-from)
    #table-error   error.html     a refusal's message (sent alone, not part of the table's frames)
    #board         board.html     the layout around the board's regions:
      #table-info    info.html      room, dealer, phase and whose turn, commitment, sound, leave, with
        #table-info-phase  info_phase.html  the phase and whose turn
      #waiting-room  waiting.html   before a match: seats, stake, bots, start (instead of the felt)
      #seat-N        board.html     seat N's block (N = 0..3, its position class is the viewer's), made of
        #seat-N-head   seat_head.html   wind, name, badges, score; `current` on its turn
        #seat-N-hand   seat_hand.html   the hand: backs and a count, face up at the end (empty: the viewer's)
        #seat-N-open   seat_open.html   flowers and melds
        #seat-N-river  seat_river.html  the river
      #table-centre  centre.html    compass, pointer, countdown, wall, dice
    #controls      controls.html  the viewer's own hand and 听牌, with
      #controls-bar  controls_bar.html  the action bar (托管, the prompt, the claim choices)
    #settlement    settlement.html  the settlement panel (an empty closed section during play)

What one viewer is shown of one version is a `Screen` (region id -> HTML). A socket remembers the
Screen it shows; a frame brings it to the next one: the stamp, then every region whose HTML differs,
each marked `hx-swap-oob="morph"` (`oob`: the templates never carry it), the whole board when its
layout differs (waiting room or felt, the viewer's seat, or the parts of a seat block); nothing at all when nothing it shows
changed (so a seat answering a claim sends nobody else a frame: a frame count tells nothing). A new
socket (a connect, a reconnect, a snapshot request) gets a full frame: stamp, board, controls,
settlement. The version is only in the stamp: the browser adds the stamp's to every message a form
sends (static/js/table.js; the service refuses a stale one), so no region, not even a seat's
#controls, changes with a version that changed nothing it shows.

The seat blocks' parts are public (other seats' concealed tiles are only a count; a concealed kong
is face down to all but its owner) and rendered once per version and language for everyone (and once
per distinct inputs across versions); #controls and
the claim choices exist per seat only, in that seat's frames; the spectators (signed in or not)
share one Screen per version and language.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template import engines
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from markupsafe import Markup

from games import compat, names, selectors
from games.engine.kinds import Phase
from games.engine.scoring.core import kaibao
from games.engine.state import SWAP_COUNT, GameState
from games.engine.view import HandView, PublicView
from games.models import Seat, Table
from games.presentation import notes
from games.presentation.settlement import next_hand_view, settlement_panel
from games.presentation.viewmodels import (
    SeatView,
    bot_level_choices,
    choices,
    meld_view,
    public_seat,
    seat_fields,
    seat_name,
    sorted_tiles,
    table_status,
)
from games.services import ServiceError, current_hand
from games.services.garden import chips, match_over
from games.services.house_options import phase_seconds
from games.services.planned import next_planned_dealer, withholds_reveal
from games.services.room_settings import table_timers
from games.services.stakes import room_stakes
from games.table_options import PRESET_NAMES


def table_context(table: Table, user, seats: list[Seat] | None = None) -> dict:
    """Everything the table templates need for this viewer (`seats`: the table's seats in order, with
    users and profiles, when the caller already has them)."""
    if seats is None:
        seats = list(table.seats.select_related("user__profile").order_by("index"))
    language = translation.get_language() or settings.LANGUAGE_CODE  # read once: a context-local read
    me = next((s for s in seats if user is not None and user.is_authenticated and s.user_id == user.pk), None)
    viewer = me.index if me else None
    shared = _version_data(table)
    view = shared.view(viewer) if shared.state is not None else None
    views = _seat_views(table, seats, viewer, shared, view)
    waiting = table.status == Table.Status.WAITING
    has_empty = any(s.is_empty for s in seats)
    ctx: dict = {
        "table": table,
        "room": table.room,
        "version": table.version,
        "viewer": viewer,
        "me": me,
        "is_waiting": waiting,
        "can_sit": waiting and me is None and has_empty,
        "has_empty": has_empty,
        "state": None,
        "bot_levels": bot_level_choices(language),
        "_": _memoised_gettext(language),
        # Platform rules (issue 4): the stake, the ready check's countdown, 托管.
        "is_owner": me is not None and table.owner_id == me.user_id,
        "stand_url": shared.stand_url(table.pk),
        "stake_options": room_stakes(table.room) if waiting else (),
        "ready_deadline": table.deadline if waiting else None,
        "now": timezone.now(),
        # Who left a seat and why, since this hand was dealt (issue 26): for everyone.
        "departures": notes.departures(table),
    }
    if view is None:
        _put_seats(ctx, views, [_seat_parts(v, False, language) for v in views])
        return ctx
    public = view.public
    ended = public.phase == Phase.ENDED
    discards, buttons = choices(view.legal_actions)
    must_answer = viewer is not None and bool(view.legal_actions)
    # The countdown is the waited-on person's timer: shown on a person's turn and to whoever must answer
    # a claim — never to others during a claim window (it would tell them someone can claim).
    person_turn = public.phase == Phase.TURN and not seats[public.current_seat].is_bot
    deadline = table.turn_deadline if not ended and (must_answer or person_turn) else None
    garden_stack = shared.state.rules.garden
    ctx.update(
        {
            "timer_discard": notes.timer_discard(
                table, views, shared.state
            ),  # the newest discard was the timer's
            "state": public,
            "phase": public.phase,
            "phase_name": names.name_of(names.PHASES, public.phase),
            "hand_number": shared.hand_number,
            "commitment": public.commitment,
            "my_hand": sorted_tiles(view.hand or ()),
            "drawn": view.drawn,
            "discards": discards,
            "buttons": buttons,
            "waits": view.waits,
            "must_answer": must_answer,
            "deadline": deadline,
            "timer_total": phase_seconds(shared.state, *table_timers(table)),
            "prompt": _prompt(public.phase, discards) if must_answer else "",
            "swap": _swap(view) if public.phase == Phase.SWAP else None,
            "garden_over": ended and garden_stack != "off" and shared.garden_over(table),
            "centre": _centre(public, views),
            "tenpai": _tenpai(view, viewer) if not ended else [],
            "now": timezone.now(),
            "current_name": next((v.name for v in views if v.is_current), ""),
            "dealer_name": views[public.dealer].name,
            # What proves the deal was fair, revealed once the hand is over (the panel has the rest).
            # A planned (tournament) table's seed and wall wait for the end of its round: the other
            # tables of the round are dealt the same walls (games/services/planned.py).
            "settlement": {"reveal": {} if withholds_reveal(table) else public.reveal or {}}
            if ended
            else None,
        }
    )
    if ended:
        ctx["panel"] = _panel(shared, views, table, language)
        ctx["next_hand"] = next_hand_view(table, seats, views, viewer, ctx["now"])
    own_melds = view.own_melds
    private_melds = viewer is not None and own_melds is not None and own_melds != public.seats[viewer].melds
    if private_melds:
        # The viewer's own concealed kongs face up, in their block only (the settlement panel, shared
        # by every viewer, was given the public melds above): memoised on all its inputs.
        views = [replace(v, melds=[meld_view(m, viewer) for m in own_melds]) if v.is_me else v for v in views]
    _put_seats(
        ctx,
        views,
        [_seat_parts(v, True, language, shared, private_melds and v.index == viewer) for v in views],
    )
    return ctx


def _seat_views(
    table: Table, seats: list[Seat], viewer: int | None, shared: _VersionData, view: HandView | None
) -> list[SeatView]:
    """The seats' views as the game shows them to everyone (the viewer's own melds as the others see
    them), each built in one go: who sits there, and with a hand dealt the version's public fields
    (`_VersionData.public_seats`) and 逛花园's chip stacks."""
    own = [seat_fields(seat, viewer, table.scores) for seat in seats]
    if view is None:
        return [SeatView(**fields_) for fields_ in own]
    garden_stack = shared.state.rules.garden
    stacks = (
        chips(garden_stack * view.public.stake, table.scores)
        if garden_stack != "off"
        else [None] * len(seats)
    )
    return [
        SeatView(**fields_, **public_fields, chips=stack)
        for fields_, public_fields, stack in zip(own, shared.public_seats(), stacks, strict=True)
    ]


def _put_seats(ctx: dict, views: list[SeatView], parts: list[list[tuple[str, str]]]) -> None:
    """The seats' views (`seats`, `seats_by_position`) and their regions (`_seat_parts`, by seat
    index) into the context: `seat_regions` (each seat's region ids, in order) and `seat_units`
    (id -> HTML) for the board and the frames."""
    ctx["seats"] = views
    ctx["seats_by_position"] = {v.position: v for v in views}
    ctx["seat_regions"] = [[name for name, _ in seat] for seat in parts]
    ctx["seat_units"] = {name: html for seat in parts for name, html in seat}


# --- what the viewers of one table version share, per process ------------------------------------
#
# Every action is seen by four or more sockets, each rendering its own frame (ARCHITECTURE.md). The
# parts that do not depend on who looks are computed once per process and version, and kept with the
# version's snapshot in the store's one cache (issue 25; this module keeps no table's data): the
# engine state of a version (rebuilding it replays the hand's log) with each seat's view of it, and
# the HTML of each seat block. Besides, a seat block's part is memoised on all of its inputs (not by
# table), which are public: other seats' concealed tiles are only ever a count there, and the
# viewer's own hand is rendered in `controls`, per viewer.

_lock = threading.Lock()


class _VersionData:
    """One table version's engine state, its hand number, and its views by viewer seat, all built on
    the one `PublicView` of the state (the part of a view every viewer shares)."""

    def __init__(self, snapshot) -> None:
        self.version = snapshot.version
        self.raw = snapshot.raw
        self.state: GameState | None = snapshot.state
        # None: not known yet (read on first use); no hand before the first deal.
        self.hand_number: int | None = snapshot.hand_number if self.state is not None else 0
        self._stand_url: str | None = None
        self._public: PublicView | None = None
        self._views: dict[int | None, HandView] = {}
        self.seat_parts: dict[tuple, str] = {}  # see `_seat_parts`
        self._public_seats: list[dict] | None = None
        # The settlement panel by language, once the hand has ended (the same for every viewer).
        self.panels: dict[str, object] = {}
        self._garden_over: bool | None = None

    def stand_url(self, table_id: int) -> str:
        """Found once per version: `{% url %}` was a quarter of the board's render time."""
        if self._stand_url is None:
            self._stand_url = _stand_url(table_id)
        return self._stand_url

    def garden_over(self, table: Table) -> bool:
        """逛花园: this ended hand ended its match too (read once per version)."""
        if self._garden_over is None:
            self._garden_over = match_over(current_hand(table))
        return self._garden_over

    def view(self, seat: int | None) -> HandView:
        found = self._views.get(seat)
        if found is None:
            if self._public is None:
                self._public = self.state.public_view()
            found = self._views[seat] = self.state.hand_view(seat, self._public)
        return found

    def public_seats(self) -> list[dict]:
        """Per seat, the `SeatView` fields that show the game (`PUBLIC_FIELDS`): the same for every
        viewer of the version (they come from the version's one `PublicView`), worked out once and
        shared by the viewers' seat views: nothing changes them after."""
        found = self._public_seats
        if found is None:
            public = self.view(None).public
            found = self._public_seats = [public_seat(public, seat) for seat in public.seats]
        return found


@lru_cache(maxsize=4096)
def _stand_url(table_id: int) -> str:
    """A table's leave URL, reversed once per table (a `reverse` is ~0.1 ms; the URLconf does not
    change while a process runs)."""
    return reverse("games:table_stand", args=[table_id])


def _version_data(table: Table) -> _VersionData:
    """The shared data of this table's version: kept with the version's snapshot in the store's
    cache (`selectors.snapshot`, made on the first render of the version in this process unless the
    service that saved it left it there), so it goes when the snapshot goes. A saved state that
    differs from the snapshot's (whatever the version says) is never reused: the store compares."""
    snapshot = selectors.snapshot(table)
    found = snapshot.derived.get("render")
    if found is None:
        found = snapshot.derived.setdefault("render", _VersionData(snapshot))
    if found.hand_number is None:
        hand = current_hand(table)
        found.hand_number = snapshot.hand_number = hand.number if hand else 0
    return found


_SCALARS = frozenset({str, int, bool, float, type(None)})


def _freeze(value):
    """A hashable copy of a seat's inputs, for the memo key. Dicts keep their order: two equal dicts
    built in another order only miss the memo."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list or kind is tuple:
        return tuple([_freeze(v) for v in value])
    if kind is dict:
        return tuple([(k, _freeze(v)) for k, v in value.items()])
    if is_dataclass(value):
        return (kind, *[_freeze(getattr(value, f.name)) for f in fields(value)])
    return value


# A seat block is four regions (seat_head.html, seat_hand.html, seat_open.html, seat_river.html), so
# that a discard re-sends the discarder's river and hand and the turn marks, not four whole blocks.
# Each part is memoised across versions on exactly the inputs its template reads (compare the
# inputs, not the output); the public parts (hand, flowers and melds, river) are looked up once per
# version and language for all its viewers (`_VersionData.seat_parts`).

_SEAT_PARTS = ("head", "hand", "open", "river")
_MAX_PARTS = 8000  # a few hundred bytes each
_parts: dict[tuple, str] = {}


def _seat_parts(
    seat: SeatView,
    has_state: bool,
    language: str,
    shared: _VersionData | None = None,
    own_melds: bool = False,
) -> list[tuple[str, str]]:
    """(region id, HTML) of each part of the seat's block as the viewer sees it: the head, and with a
    hand dealt its hand, flowers and melds, and river. `own_melds`: the melds are the viewer's own
    (concealed kongs face up), not the version's public ones."""
    head = (
        seat.wind,
        seat.name,
        seat.is_dealer,
        seat.connected,
        seat.autoplay,
        seat.score,
        seat.is_current,
        seat.declared,
        seat.swap,
        seat.chips,
    )
    out = [(f"seat-{seat.index}-head", _part("head", seat, language, head))]
    if not has_state:
        return out
    for name in _SEAT_PARTS[1:]:
        region = f"seat-{seat.index}-{name}"
        if shared is None or (name == "open" and own_melds):
            out.append((region, _part(name, seat, language, _public_inputs(name, seat))))
            continue
        key = (language, region, seat.is_me if name == "hand" else None)
        html = shared.seat_parts.get(key)
        if html is None:
            html = shared.seat_parts[key] = _part(name, seat, language, _public_inputs(name, seat))
        out.append((region, html))
    return out


def _public_inputs(name: str, seat: SeatView) -> tuple:
    """What the part `name` of the seat's block shows of the game (all public), frozen."""
    if name == "hand":
        return (seat.is_me, seat.concealed_count, _freeze(seat.revealed))
    if name == "open":
        return (_freeze(seat.flowers), _freeze(seat.melds))
    return (_freeze(seat.river),)


def _part(name: str, seat: SeatView, language: str, inputs: tuple) -> str:
    """The part `name` of the seat's block, rendered once per language, seat and `inputs` (all that
    its template reads of `s` besides the seat's index)."""
    key = (language, name, seat.index, *inputs)
    html = _parts.get(key)
    if html is None:
        # Stripped: the whitespace around a part would be the block's, which a frame does not send.
        html = SafeString(
            render_region(f"seat_{name}", {"s": seat, "_": _memoised_gettext(language)}).strip()
        )
        with _lock:
            if len(_parts) >= _MAX_PARTS:
                _parts.clear()
            _parts[key] = html
    return html


def _centre(public: PublicView, views: list[SeatView]) -> dict:
    """The compass in the middle of the table: each seat's wind where it sits, and the pointer at the
    seat to move (during a claim window, at the discarder: who may claim is nobody's business).
    `last_discard`: the seat whose newest discard is open to claims, if any; the browser marks that
    tile (static/js/story.js), so a river is not sent again when the mark moves on."""
    mover = public.current_seat
    return {
        "marks": [(v.position, v.wind, v.index == mover) for v in views],
        "pointer": views[mover].position,
        "kaibao": kaibao(tuple(public.dice)),
        "last_discard": next((v.index for v in views if v.just_discarded), ""),
    }


def _tenpai(view: HandView, viewer: int | None) -> list[tuple[str, int]]:
    """听牌: each waiting tile with the copies still unseen by the viewer (4 less those in their hand,
    in every river and in every meld they can see)."""
    if viewer is None or not view.waits:
        return []
    seen = Counter(view.hand or ())
    if view.drawn:
        seen[view.drawn] += 1
    for seat in view.public.seats:
        seen.update(r.tile for r in seat.river if not r.claimed)
        melds = (view.own_melds or ()) if seat.seat == viewer else seat.melds
        for meld in melds:
            seen.update(meld.tiles)
    return [(tile, max(0, 4 - seen[tile])) for tile in view.waits]


def _prompt(phase: Phase, discards: set[str]) -> str:
    """What the viewer is asked (`data-prompt`, for static/js/sound.js): to swap, discard or answer."""
    if phase == Phase.SWAP:
        return "swap"
    return "turn" if discards else "claim"


def _swap(view: HandView) -> dict:
    """The 换牌 screen of one viewer (swap.html): their own hand to choose five from, whether they are
    still to choose, and once swapped the tiles they buried (theirs alone to see)."""
    return {
        "open": bool(view.legal_actions),
        "tiles": sorted_tiles(view.hand or ()),
        "buried": sorted_tiles(view.buried or ()),
        "count": SWAP_COUNT,
    }


def _panel(shared: _VersionData, views: list[SeatView], table: Table, language: str):
    panel = shared.panels.get(language)
    if panel is None:
        planned = withholds_reveal(table)  # no query: only planned tables sit in the tournament room
        panel = shared.panels[language] = settlement_panel(
            shared.state,
            views,
            list(table.scores or []),
            huangfan_next=table.huangfan,
            planned=planned,
            planned_dealer=next_planned_dealer(table) if planned else None,
        )
    return panel


# --- entry points used by views and consumers ---------------------------------------------------


def csrf_token_for(csrf_cookie: str | None) -> str:
    """A masked CSRF token for the browser whose cookie is given, so forms pushed over the socket post
    like forms on a page; "NOTPROVIDED" (no hidden field; htmx sends the page's header) without one."""
    if not csrf_cookie or len(csrf_cookie) != 32 or not csrf_cookie.isalnum():
        return "NOTPROVIDED"
    request = HttpRequest()
    request.META["CSRF_COOKIE"] = csrf_cookie
    return get_token(request)


def render_table_fragments(
    table_id: int,
    user,
    csrf_cookie: str | None = None,
    version: int | None = None,
    created=None,
    language: str | None = None,
) -> tuple[int, str]:
    """(version, html): the full frame of the table for this viewer (every live region, each marked for
    an OOB swap).
    `version`, `created`: the version an update announced and the table's `created` as the socket
    learnt it (a process-wide read of that version may then be reused); `language`: the frame's
    (None: the active one)."""
    viewer = (user, csrf_token_for(csrf_cookie), language)
    [(screen, html)] = render_for_viewers(table_id, [viewer], version, created)
    return (screen.version if screen else -1), html


def render_for_viewers(table_id: int, viewers: list[tuple], version: int | None = None, created=None) -> list:
    """`render_table_fragments` for several viewers of one table at once, from one read: `viewers` are
    (user, csrf token, language) triples (language None: the active one), or quadruples whose fourth
    item is the `Screen` the socket shows (None: it shows nothing yet); returns per viewer its new
    `Screen` and the frame that brings it there ("" when nothing it shows has changed), in order."""
    snapshot = selectors.render_snapshot(table_id, version, created)
    if snapshot is None:
        return [(None, "")] * len(viewers)
    table, seats = snapshot.rows
    seated = {s.user_id for s in seats or () if s.user_id}
    spectators: dict[tuple[bool, str], Screen] = {}
    out = []
    for user, csrf_token, language, *shown in viewers:
        language = language or translation.get_language()
        signed_in = user is not None and user.is_authenticated
        with translation.override(language):
            if signed_in and user.pk in seated:
                screen = _screen(table, user, seats, csrf_token)
            else:
                # Everyone not seated sees the same screen (signed in or not) in their language:
                # rendered once per version. Its forms carry no token of their own; htmx sends the
                # page's (base.html's hx-headers).
                screen = spectators.get((signed_in, language))
                if screen is None:
                    screen = spectators[signed_in, language] = _screen(table, user, seats, "NOTPROVIDED")
            out.append((screen, frame(shown[0] if shown else None, screen)))
    return out


# --- frames --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Screen:
    """What one viewer is shown of one table version, region by region: `regions` maps an element id
    to its HTML (without `hx-swap-oob`), in the order a full frame sends them; `board` says which
    regions the board is made of, and `shell` which layout holds them (waiting room or felt, and the
    seat at the bottom)."""

    version: int
    shell: tuple
    board: tuple[str, ...]
    regions: dict[str, str]
    context: dict

    def html(self, name: str) -> str:
        """Region `name` as the page shows it, with the regions inside it in place."""
        html = self.regions[name]
        for inner in _INNER.get(name, ()):
            html = SafeString(html.replace(_INNER_MARK[inner], self.regions.get(inner, "")))
        return html

    def board_html(self) -> str:
        units = {name: self.html(name) for name in self.board}
        return render_region("board", {**self.context, "units": units})


# Regions inside another region (kept apart: a frame may swap one alone), and the mark each leaves in
# the region around it. A seat block's parts are put together by board.html instead.
_INNER = {"table-info": ("table-info-phase",), "controls": ("controls-bar",)}
_INNER_MARK = {inner: Markup(f"<!--region:{inner}-->") for inners in _INNER.values() for inner in inners}


def _screen(table: Table, user, seats: list[Seat] | None, csrf_token: str) -> Screen:
    ctx = table_context(table, user, seats)
    ctx.update(user=user, csrf_token=csrf_token)
    return _screen_of(ctx)


def _screen_of(ctx: dict) -> Screen:
    regions = {"table-info": render_region("info", {**ctx, "phase_region": _INNER_MARK["table-info-phase"]})}
    if ctx["state"] is not None:
        regions["table-info-phase"] = render_region("info_phase", ctx).strip()
    if ctx["is_waiting"]:
        regions["waiting-room"] = render_region("waiting", ctx)
        mode = "waiting"
    else:
        regions.update(ctx["seat_units"])
        mode = "felt"
        if ctx["state"] is not None:
            regions["table-centre"] = render_region("centre", ctx)
            mode = "play"
    board = tuple(regions)
    anchor = ctx["viewer"] if ctx["viewer"] is not None else 0
    # The action bar is a region inside #controls while a hand is played and no tiles are being
    # chosen to bury (controls.html marks its place): a claim window changes it and not the hand.
    bar = ctx["state"] is not None and ctx["viewer"] is not None and ctx["phase"] != Phase.ENDED
    bar = bar and not ctx["swap"]
    regions["controls"] = render_region("controls", {**ctx, "bar_region": _INNER_MARK["controls-bar"]})
    regions["controls-bar"] = render_region("controls_bar", ctx) if bar else ""
    regions["settlement"] = _frame_region("settlement", ctx)
    # The layout: waiting room or felt, the seat at the bottom, whose block is marked `me`, and which
    # parts the seat blocks have (a frame then swaps regions inside it; otherwise the whole board).
    shell = (mode, anchor, ctx["viewer"], tuple(map(tuple, ctx["seat_regions"])))
    return Screen(ctx["version"], shell, board, regions, ctx)


def frame(shown: Screen | None, screen: Screen) -> str:
    """The frame that turns `shown` (what a socket shows; None: nothing, or not known) into `screen`:
    the stamp, then each region that differs, as an out-of-band swap of the element with its id; the
    whole board when its layout differs. "" when nothing differs (no frame is sent)."""
    if shown is None or shown.shell != screen.shell:
        parts = [oob(screen.board_html())]
        rest = [name for name in screen.regions if name not in screen.board]
    else:
        parts = []
        rest = screen.regions
    sent = set()
    for name in rest:
        html = screen.regions[name]
        before = shown.regions.get(name) if shown is not None else None
        if before != html and name not in sent:
            parts.append(oob(screen.html(name)))
            sent.update(_INNER.get(name, ()))
    if not parts:
        return ""
    stamp = render_region(
        "stamp", {"from_version": shown.version if shown else None, "version": screen.version}
    )
    return "".join([oob(stamp), *parts])


# How htmx swaps a region of a frame into the page: morphed in place (idiomorph, static/vendor/), so
# focus and what the browser added (a raised tile, chosen tiles: static/js/morph.js) survive.
OOB_SWAP = "morph"


def oob(html: str) -> str:
    """A region marked for an out-of-band swap: its first tag gets `hx-swap-oob` (the templates leave
    it out, so that the page, the full board and a lone region are the same markup; no region's first
    tag has a ">" in an attribute)."""
    end = html.index(">")
    return f'{html[:end]} hx-swap-oob="{OOB_SWAP}"{html[end:]}'


def _frame_region(name: str, ctx: dict) -> str:
    """A region of a socket frame; the settlement while closed is the same empty section in every
    frame of every table, rendered once per process."""
    if name == "settlement" and ctx.get("settlement") is None:
        global _closed_settlement
        if _closed_settlement is None:
            _closed_settlement = render_region("settlement", {"settlement": None})
        return _closed_settlement
    return render_region(name, ctx)


_closed_settlement: str | None = None


def render_region(name: str, ctx: dict) -> str:
    """One region of the table (templates/jinja2/games/table/NAME.html), the only source of its HTML: the page,
    the socket's frames and the seat-block memo all render it from there."""
    template, globals_ = _template(name)
    if "_" not in ctx:
        ctx = {**ctx, "_": _active_gettext()}
    return SafeString(compat.render_template(template, {**globals_, **ctx}))


def _active_gettext():
    """The active language's `_` for the templates, found once per region and memoised per msgid.

    Django's `gettext` finds the active language anew on every call (a context-local read) and then
    looks the msgid up in each of the language's catalogues in turn; the i18n extension's `_` adds a
    second call through the template context. A frame has about twenty strings, and that cost a
    third of its render (bench/render_bench.py). The catalogues do not change while a process runs."""
    return _memoised_gettext(translation.get_language() or settings.LANGUAGE_CODE)


@lru_cache(maxsize=16)
def _memoised_gettext(language: str):
    lookup = compat.catalogue_gettext(language)
    found: dict[str, str] = {}

    def gettext(message: str) -> str:
        text = found.get(message)
        if text is None:
            text = found[message] = lookup(message)
        return text

    return gettext


def _template(name: str) -> tuple:
    """The compiled region and its globals as a plain dict: `Template.render` merges the globals
    (a ChainMap) into every render's context, which cost more than a small region's whole render.
    Kept unless Jinja2 is to look for a changed file on every use (under DEBUG)."""
    found = _templates.get(name)
    if found is None:
        env = engines["jinja2"].env
        template = env.get_template(f"games/table/{name}.html")
        found = (template, dict(template.globals))
        if not env.auto_reload:
            _templates[name] = found
    return found


_templates: dict[str, tuple] = {}


def table_page_context(table: Table, request) -> dict:
    """The table page's context: `table_context` with the regions rendered for the page (not as
    out-of-band swaps, with the request's CSRF token)."""
    ctx = table_context(table, request.user)
    ctx.update(user=request.user, request=request, csrf_token=get_token(request))
    screen = _screen_of(ctx)
    ctx["regions"] = {
        "stamp": render_region("stamp", {"from_version": None, "version": table.version}),
        "error": render_region("error", {}),
        "board": screen.board_html(),
        "controls": screen.html("controls"),
        "settlement": screen.regions["settlement"],
    }
    return ctx


def render_error(error: ServiceError, language: str | None = None) -> str:
    """The error region for a socket, in its `language` (None: the active one)."""
    with translation.override(language or translation.get_language()):
        return oob(render_region("error", {"error": error}))


def lobby_context(user, snapshot: selectors.LobbySnapshot | None = None) -> dict:
    """The lobby for `user`, from `snapshot` (what every lobby shows: read now when not given)."""
    snapshot = snapshot or selectors.lobby_snapshot()
    rooms = [
        {
            "room": item.room,
            # the preset by the name the tables and the new-table form give it (games.table_options)
            "preset": PRESET_NAMES.get(item.room.preset, item.room.preset),
            "tables": [
                {
                    "table": t.table,
                    "seats": [(s, seat_name(s)) for s in t.seats],
                    "status": table_status(t.table, t.seats),
                    "mine": t.mine,
                    "has_empty": any(s.is_empty for s in t.seats),
                }
                for t in item.tables
            ],
            "pools": item.pools,
        }
        for item in selectors.lobby_rooms(user, snapshot)
    ]
    return {
        "rooms": rooms,
        "user": user,
        "my_table": selectors.live_table_in(snapshot, user),
        "online": snapshot.online,
        "fill_after": settings.POOL_FILL_AFTER,
    }


def render_lobby_go(table_id: int) -> str:
    """The frame that sends a lobby's browser to its table (quick start seated its person there):
    static/js/lobby.js follows `data-go` (no inline script under the Content-Security-Policy)."""
    url = conditional_escape(reverse("games:table", args=[table_id]))
    return f'<div id="lobby-go" data-testid="lobby-go" data-go="{url}" hx-swap-oob="true"></div>'


def render_lobby_fragment(
    user,
    csrf_cookie: str | None = None,
    language: str | None = None,
    snapshot: selectors.LobbySnapshot | None = None,
) -> str:
    """The lobby's rooms for a socket, in its `language` (None: the active one), from `snapshot`
    (shared by the process's lobby sockets; read now when not given)."""
    with translation.override(language or translation.get_language()):
        ctx = lobby_context(user, snapshot)
        ctx.update(oob=True, csrf_token=csrf_token_for(csrf_cookie))
        return render_to_string("games/lobby.html#rooms", ctx)
