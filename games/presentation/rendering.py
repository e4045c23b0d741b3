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
      #table-info    info.html      room, dealer, phase and whose turn, commitment, sound, leave
      #waiting-room  waiting.html   before a match: seats, stake, bots, start (instead of the felt)
      #seat-N        seat.html      seat N's block (N = 0..3, its position class is the viewer's)
      #table-centre  centre.html    compass, pointer, countdown, wall, dice
    #controls      controls.html  the viewer's own hand, 听牌 and action bar (claim choices)
    #settlement    settlement.html  the settlement panel (an empty closed section during play)

What one viewer is shown of one version is a `Screen` (region id -> HTML). A socket remembers the
Screen it shows; a frame brings it to the next one: the stamp, then every region whose HTML differs,
each marked `hx-swap-oob="morph"` (`oob`: the templates never carry it), the whole board when its
layout differs (waiting room or felt, or the viewer's seat); nothing at all when nothing it shows
changed (so a seat answering a claim sends nobody else a frame: a frame count tells nothing). A new
socket (a connect, a reconnect, a snapshot request) gets a full frame: stamp, board, controls,
settlement. The version is only in the stamp and in the forms of the controls (the service refuses a
stale one), so the regions every viewer shares do not change with a version that changed nothing.

The seat blocks are public (other seats' concealed tiles are only a count; a concealed kong is face
down to all but its owner) and rendered once per version and language for everyone; #controls and
the claim choices exist per seat only, in that seat's frames; the spectators (signed in or not)
share one Screen per version and language.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, fields, is_dataclass
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template import engines
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import trans_real

from games import names, selectors
from games.engine.kinds import Phase
from games.engine.scoring.core import kaibao
from games.engine.state import SWAP_COUNT, GameState
from games.engine.view import HandView, PublicView
from games.models import Seat, Table
from games.presentation.settlement import next_hand_view, settlement_panel
from games.presentation.viewmodels import (
    POSITIONS,
    PUBLIC_FIELDS,
    SeatView,
    bot_level_choices,
    choices,
    meld_view,
    public_seat,
    seat_name,
    sorted_tiles,
)
from games.services import ServiceError, broadcast, current_hand, load_state
from games.services.garden import chips, match_over
from games.services.house_options import phase_seconds
from games.services.room_settings import table_timers
from games.services.stakes import room_stakes


@lru_cache(maxsize=4096)
def _stand_url(table_id: int) -> str:
    """Reversed once per table: `{% url %}` was a quarter of the board's render time."""
    return reverse("games:table_stand", args=[table_id])


def table_context(table: Table, user, seats: list[Seat] | None = None) -> dict:
    """Everything the table templates need for this viewer (`seats`: the table's seats in order, with
    users and profiles, when the caller already has them)."""
    if seats is None:
        seats = list(table.seats.select_related("user__profile").order_by("index"))
    language = translation.get_language() or settings.LANGUAGE_CODE  # read once: a context-local read
    me = next((s for s in seats if user is not None and user.is_authenticated and s.user_id == user.pk), None)
    viewer = me.index if me else None
    anchor = viewer if viewer is not None else 0
    views = []
    for seat in seats:
        views.append(
            SeatView(
                index=seat.index,
                position=POSITIONS[(seat.index - anchor) % 4],
                name=seat_name(seat),
                is_bot=seat.is_bot,
                is_me=seat.index == viewer,
                connected=seat.connected or seat.is_bot,
                score=int(table.scores[seat.index]) if table.scores else 0,
                ready=seat.ready,
                autoplay=seat.autoplay,
            )
        )
    waiting = table.status == Table.Status.WAITING
    has_empty = any(s.is_empty for s in seats)
    ctx: dict = {
        "table": table,
        "room": table.room,
        "version": table.version,
        "viewer": viewer,
        "me": me,
        "seats": views,
        "seats_by_position": {v.position: v for v in views},
        "is_waiting": waiting,
        "can_sit": waiting and me is None and has_empty,
        "has_empty": has_empty,
        "state": None,
        "bot_levels": bot_level_choices(language),
        "_": _memoised_gettext(language),
        # Platform rules (issue 4): the stake, the ready check's countdown, 托管.
        "is_owner": me is not None and table.owner_id == me.user_id,
        "stand_url": _stand_url(table.pk),
        "stake_options": room_stakes(table.room) if waiting else (),
        "ready_deadline": table.deadline if waiting else None,
        "now": timezone.now(),
    }
    shared = _version_data(table)
    if shared.state is None:
        ctx["seat_html"] = {v.position: _seat_html(v, False, language) for v in views}
        return ctx
    view = shared.view(viewer)
    public = view.public
    ended = public.phase == Phase.ENDED
    public_seats = shared.public_seats()
    for seat_view, (fields_, _) in zip(views, public_seats, strict=True):
        vars(seat_view).update(fields_)
    discards, buttons = choices(view.legal_actions)
    must_answer = viewer is not None and bool(view.legal_actions)
    # The countdown is the waited-on person's timer: shown on a person's turn and to whoever must answer
    # a claim — never to others during a claim window (it would tell them someone can claim).
    person_turn = public.phase == Phase.TURN and not seats[public.current_seat].is_bot
    deadline = table.turn_deadline if not ended and (must_answer or person_turn) else None
    garden_stack = shared.state.rules.garden
    if garden_stack != "off":
        for seat_view, stack in zip(views, chips(garden_stack * public.stake, table.scores), strict=True):
            seat_view.chips = stack
    ctx.update(
        {
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
            "settlement": {"reveal": public.reveal or {}} if ended else None,
        }
    )
    if ended:
        ctx["panel"] = _panel(shared, views, table, language)
        ctx["next_hand"] = next_hand_view(table, seats, views, viewer, ctx["now"])
    keys = [key for _, key in public_seats]
    own_melds = view.own_melds
    if viewer is not None and own_melds is not None and own_melds != public.seats[viewer].melds:
        # The viewer's own concealed kongs face up, in their block only: memoised on all its inputs.
        views[viewer].melds = [meld_view(m, viewer) for m in own_melds]
        keys[viewer] = None
    ctx["seat_html"] = {v.position: _seat_html(v, True, language, shared, keys[v.index]) for v in views}
    return ctx


# --- what the viewers of one table version share, per process ------------------------------------
#
# Every action is seen by four or more sockets, each rendering its own frame (ARCHITECTURE.md). The
# parts that do not depend on who looks are computed once per process: the engine state of a version
# (rebuilding it replays the hand's log) with each seat's view of it, and the HTML of each seat block
# (a block is memoised on all of its inputs, which are public: other seats' concealed tiles are only
# ever a count there, and the viewer's own hand is rendered in `controls`, per viewer).

_MAX_TABLES = 2048
_MAX_SEAT_BLOCKS = 5000  # about 2 KB each
_POSITION_MARK = "seat-position-mark"
_lock = threading.Lock()


class _VersionData:
    """One table version's engine state, its hand number, and its views by viewer seat, all built on
    the one `PublicView` of the state (the part of a view every viewer shares)."""

    def __init__(self, version: int, raw, state: GameState | None, hand_number: int | None) -> None:
        self.version = version
        self.raw = raw
        self.state = state
        self.hand_number = hand_number  # None: not known yet (read on first use)
        self._public: PublicView | None = None
        self._views: dict[int | None, HandView] = {}
        self.seat_blocks: dict[tuple, str] = {}  # see `_seat_html`
        self._public_seats: list[tuple[dict, tuple]] | None = None
        # The settlement panel by language, once the hand has ended (the same for every viewer).
        self.panels: dict[str, object] = {}
        self._garden_over: bool | None = None

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

    def public_seats(self) -> list[tuple[dict, tuple]]:
        """Per seat, the `SeatView` fields that show the game, and their memo key: the same for every
        viewer of the version (they come from the version's one `PublicView`), worked out once and
        shared by the viewers' seat views: nothing changes them after."""
        found = self._public_seats
        if found is None:
            public = self.view(None).public
            fields_ = [public_seat(public, seat) for seat in public.seats]
            found = self._public_seats = [(f, _freeze([f[name] for name in PUBLIC_FIELDS])) for f in fields_]
        return found


_versions: dict[int, _VersionData] = {}
_seat_blocks: dict[tuple, str] = {}


def _store_version(table_id: int, data: _VersionData) -> None:
    """Keep `data` as the table's newest known version (a render that read an older version while a
    newer one was committed does not push the newer one out)."""
    with _lock:
        if len(_versions) >= _MAX_TABLES:
            _versions.clear()
        previous = _versions.get(table_id)
        if previous is None or previous.version <= data.version:
            _versions[table_id] = data


def _version_data(table: Table) -> _VersionData:
    """The shared data of this table's version, built on the first render of it in this process (or
    handed over by the service that saved it, `seed_version`); a saved state that differs from the
    cached one (whatever the version says) is never reused."""
    found = _versions.get(table.pk)
    if found is None or found.version != table.version or found.raw != table.state:
        state = load_state(table)
        found = _VersionData(table.version, table.state, state, None if state is not None else 0)
        _store_version(table.pk, found)
    if found.hand_number is None:
        hand = current_hand(table)
        found.hand_number = hand.number if hand else 0
    return found


def seed_version(table: Table, state: GameState, hand_number: int | None) -> None:
    """Remember the table a service just committed, with its seats and engine state, so that this
    process renders that version without reading the table back or replaying the hand. All are
    handed over (nobody changes them afterwards). The state is used only for a table at this version
    whose saved state is this one (`_version_data` compares), so a seed can never stand in for
    something else; the table and seats only for renders announcing this version (`_fresh`)."""
    found = _versions.get(table.pk)
    if found is None or found.version < table.version:
        _store_version(table.pk, _VersionData(table.version, selectors.state_json(state), state, hand_number))
    seats = selectors.seats(table)
    if _with_known_users(table, seats):
        _offer_read(table, seats)


def _with_known_users(table: Table, seats: list[Seat]) -> bool:
    """Give the service's seats the users (with profiles) this process last read at the table, when
    the same people sit in the same seats (the service reads seats without them: a render reads
    them, the rules never do). False when someone is new: the render then reads them."""
    previous = _loaded.get(table.pk)
    if previous is None or previous[1] is None or previous[0].created != table.created:
        return False
    known = {seat.index: seat for seat in previous[1]}
    users = []
    for seat in seats:
        before = known.get(seat.index)
        if before is None or before.user_id != seat.user_id:
            return False
        if seat.user_id is not None:
            if not _SEAT_USER.is_cached(before):
                return False
            users.append((seat, _SEAT_USER.get_cached_value(before)))
    for seat, user in users:
        _SEAT_USER.set_cached_value(seat, user)
    return True


_SEAT_USER = Seat.user.field


broadcast.on_saved_state(seed_version)

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


def _seat_html(
    seat: SeatView,
    has_state: bool,
    language: str,
    shared: _VersionData | None = None,
    public_key: tuple | None = None,
) -> str:
    """The seat block for this seat as the viewer sees it, rendered once per distinct content; the
    seat's position on screen is put in afterwards (it is the block's first class).

    Within one version (`shared`), what a block shows of the game (wind, flowers, melds, river,
    counts, and once ended the hands and payments) is the same for every viewer: the engine's
    `view()` gives every viewer the same public `seats` (tests/games/test_render_cache.py checks it).
    So the viewers of a version look a block up by the few things that are not the game's."""
    if shared is None:
        return mark_safe(_seat_block(seat, has_state, language).replace(_POSITION_MARK, seat.position, 1))
    key = (
        language,
        seat.index,
        seat.is_me,
        seat.name,
        seat.is_bot,
        seat.connected,
        seat.score,
        seat.ready,
        seat.autoplay,
        seat.chips,
    )
    html = shared.seat_blocks.get(key)
    if html is None:
        html = shared.seat_blocks[key] = _seat_block(seat, has_state, language, public_key)
    return mark_safe(html.replace(_POSITION_MARK, seat.position, 1))


_BLOCK_INPUTS = tuple(f.name for f in fields(SeatView) if f.name != "position")
_PRIVATE_INPUTS = tuple(name for name in _BLOCK_INPUTS if name not in PUBLIC_FIELDS)


def _seat_block(seat: SeatView, has_state: bool, language: str, public_key: tuple | None = None) -> str:
    """The block with a mark for its position, memoised on all of its inputs across versions
    (`public_key`: the frozen public fields, `_VersionData.public_seats`, when known)."""
    if public_key is None:
        key = (language, has_state, *[_freeze(getattr(seat, name)) for name in _BLOCK_INPUTS])
    else:
        private = [_freeze(getattr(seat, name)) for name in _PRIVATE_INPUTS]
        key = (language, has_state, "public", public_key, *private)
    html = _seat_blocks.get(key)
    if html is None:
        ctx = {
            "s": _with_position(seat, _POSITION_MARK),
            "state": has_state,
            "_": _memoised_gettext(language),
        }
        html = render_region("seat", ctx)
        with _lock:
            if len(_seat_blocks) >= _MAX_SEAT_BLOCKS:
                _seat_blocks.clear()
            _seat_blocks[key] = html
    return html


def _with_position(seat: SeatView, position: str) -> SeatView:
    copy = SeatView(**{f.name: getattr(seat, f.name) for f in fields(seat)})
    copy.position = position
    return copy


def _centre(public: PublicView, views: list[SeatView]) -> dict:
    """The compass in the middle of the table: each seat's wind where it sits, and the pointer at the
    seat to move (during a claim window, at the discarder: who may claim is nobody's business)."""
    mover = public.current_seat
    return {
        "marks": [(v.position, v.wind, v.index == mover) for v in views],
        "pointer": views[mover].position,
        "kaibao": kaibao(tuple(public.dice)),
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
        panel = shared.panels[language] = settlement_panel(
            shared.state, views, list(table.scores or []), huangfan_next=table.huangfan
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


_loaded: dict[int, tuple[Table, list[Seat] | None]] = {}
_table_locks: dict[int, threading.Lock] = {}


def _fresh(table_id: int, version: int, created) -> tuple[Table, list[Seat] | None] | None:
    found = _loaded.get(table_id)
    if found is not None and found[0].version >= version and found[0].created == created:
        return found
    return None


def _table_for_update(table_id: int, version: int | None, created) -> tuple[Table | None, list[Seat] | None]:
    """The table and seats for a render. For an update announcing `version` to a socket of the table
    made at `created`, a load of that version (or a newer one) made for another viewer in this process
    is reused: the sockets of one table all render each version, and only the first of them needs to
    read it. They render at the same moment on several worker threads, so the read is single-flight:
    the first takes the table's lock, reads and prepares the version's shared data, and the others
    wait for it and reuse it. A snapshot always reads."""
    if version is None or created is None:
        return _read_table(table_id)
    found = _fresh(table_id, version, created)
    if found is not None:
        return found
    lock = _table_locks.get(table_id)
    if lock is None:
        with _lock:
            if len(_table_locks) >= _MAX_TABLES:
                _table_locks.clear()
            lock = _table_locks.setdefault(table_id, threading.Lock())
    with lock:
        found = _fresh(table_id, version, created)
        if found is not None:
            return found
        return _read_table(table_id)


def _read_table(table_id: int) -> tuple[Table | None, list[Seat] | None]:
    """Read the table, prepare its version's shared data, and offer the read to other viewers."""
    table, seats = selectors.table_with_seats(table_id)
    if table is None:
        return None, None
    _version_data(table)
    _offer_read(table, seats)
    return table, seats


def _offer_read(table: Table, seats: list[Seat] | None) -> None:
    """Let the other renders of this table's version (or an older one) take this read."""
    with _lock:
        if len(_loaded) >= _MAX_TABLES:
            _loaded.clear()
        previous = _loaded.get(table.pk)
        if previous is None or previous[0].version <= table.version:
            _loaded[table.pk] = (table, seats)


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
    table, seats = _table_for_update(table_id, version, created)
    if table is None:
        return [(None, "")] * len(viewers)
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

    def board_html(self) -> str:
        return render_region("board", {**self.context, "units": self.regions})


def _screen(table: Table, user, seats: list[Seat] | None, csrf_token: str) -> Screen:
    ctx = table_context(table, user, seats)
    ctx.update(user=user, csrf_token=csrf_token)
    return _screen_of(ctx)


def _screen_of(ctx: dict) -> Screen:
    regions = {"table-info": render_region("info", ctx)}
    if ctx["is_waiting"]:
        regions["waiting-room"] = render_region("waiting", ctx)
        mode = "waiting"
    else:
        for seat in ctx["seats"]:
            regions[f"seat-{seat.index}"] = ctx["seat_html"][seat.position]
        mode = "felt"
        if ctx["state"] is not None:
            regions["table-centre"] = render_region("centre", ctx)
            mode = "play"
    board = tuple(regions)
    anchor = ctx["viewer"] if ctx["viewer"] is not None else 0
    for name in ("controls", "settlement"):
        regions[name] = _frame_region(name, ctx)
    return Screen(ctx["version"], (mode, anchor), board, regions, ctx)


def frame(shown: Screen | None, screen: Screen) -> str:
    """The frame that turns `shown` (what a socket shows; None: nothing, or not known) into `screen`:
    the stamp, then each region that differs, as an out-of-band swap of the element with its id; the
    whole board when its layout differs. "" when nothing differs (no frame is sent)."""
    if shown is None or shown.shell != screen.shell:
        parts = [screen.board_html()]
        rest = [name for name in screen.regions if name not in screen.board]
    else:
        parts = []
        rest = screen.regions
    for name in rest:
        html = screen.regions[name]
        if shown is None or shown.regions.get(name) != html:
            parts.append(html)
    if not parts:
        return ""
    stamp = render_region(
        "stamp", {"from_version": shown.version if shown else None, "version": screen.version}
    )
    return "".join([oob(stamp), *[oob(html) for html in parts]])


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
    context = template.new_context({**globals_, **ctx}, shared=True)
    return SafeString(template.environment.concat(template.root_render_func(context)))


def _active_gettext():
    """The active language's `_` for the templates, found once per region and memoised per msgid.

    Django's `gettext` finds the active language anew on every call (a context-local read) and then
    looks the msgid up in each of the language's catalogues in turn; the i18n extension's `_` adds a
    second call through the template context. A frame has about twenty strings, and that cost a
    third of its render (bench/render_bench.py). The catalogues do not change while a process runs."""
    return _memoised_gettext(translation.get_language() or settings.LANGUAGE_CODE)


@lru_cache(maxsize=16)
def _memoised_gettext(language: str):
    lookup = trans_real.translation(language).gettext
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
        "controls": screen.regions["controls"],
        "settlement": screen.regions["settlement"],
    }
    return ctx


def render_error(error: ServiceError, language: str | None = None) -> str:
    """The error region for a socket, in its `language` (None: the active one)."""
    with translation.override(language or translation.get_language()):
        return oob(render_region("error", {"error": error}))


def lobby_context(user) -> dict:
    rooms = [
        {
            "room": item.room,
            "tables": [
                {
                    "table": t.table,
                    "seats": [(s, seat_name(s)) for s in t.seats],
                    "mine": t.mine,
                    "has_empty": any(s.is_empty for s in t.seats),
                }
                for t in item.tables
            ],
        }
        for item in selectors.lobby_rooms(user)
    ]
    return {"rooms": rooms, "user": user}


def render_lobby_fragment(user, csrf_cookie: str | None = None, language: str | None = None) -> str:
    """The lobby's rooms for a socket, in its `language` (None: the active one)."""
    with translation.override(language or translation.get_language()):
        ctx = lobby_context(user)
        ctx.update(oob=True, csrf_token=csrf_token_for(csrf_cookie))
        return render_to_string("games/lobby.html#rooms", ctx)
