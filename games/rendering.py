"""Turning a table into what one viewer may see: template context and rendered fragments.

Everything game-related comes from the engine's `state.view(seat)` for the viewer's own seat (or
`view(None)` for a spectator); the full state never reaches a template.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import display_name
from games import names
from games.engine.bots import levels as bot_levels
from games.engine.tiles import format_tiles, parse_tiles
from games.models import Room, Seat, Table
from games.services import ServiceError, current_hand, load_state
from games.services.stakes import room_stakes

POSITIONS = ("bottom", "right", "top", "left")
BOT_LEVEL_NAMES = {"easy": "简单 Easy", "normal": "普通 Normal", "hard": "困难 Hard"}
MELD_KIND_NAMES = {
    "chow": "吃",
    "pong": "碰",
    "kong_exposed": "明杠",
    "kong_added": "上杠",
    "kong_concealed": "暗杠",
}


@dataclass
class MeldView:
    kind: str
    label: str
    tiles: list[str]
    claimed: str | None
    from_seat: int | None

    @property
    def tile_items(self) -> list[tuple[str, bool]]:
        """(tile, turned) pairs: the claimed tile is drawn turned, once."""
        items, turned = [], False
        for tile in self.tiles:
            mark = not turned and tile == self.claimed
            turned = turned or mark
            items.append((tile, mark))
        return items


@dataclass
class SeatView:
    index: int
    position: str
    name: str
    is_bot: bool
    is_me: bool
    connected: bool
    wind: str = ""
    wind_zh: str = ""
    is_dealer: bool = False
    is_current: bool = False
    score: int = 0
    flowers: list[str] = field(default_factory=list)
    melds: list[MeldView] = field(default_factory=list)
    river: list[dict] = field(default_factory=list)
    concealed_count: int = 0
    revealed: list[str] | None = None
    payment: int | None = None
    just_discarded: bool = False
    ready: bool = False
    autoplay: bool = False


@dataclass
class Choice:
    """One button of the claim / turn bar."""

    action: str
    kind: str
    label_zh: str
    label_en: str
    tiles: list[str]


def _seat_name(seat: Seat) -> str:
    if seat.user_id:
        return display_name(seat.user)
    if seat.is_bot:
        return f"机器人 Bot · {seat.bot_level}"
    return ""


def _meld(data: dict) -> MeldView:
    tiles = [format_tiles([c]) for c in parse_tiles(data.get("tiles", ""))]
    kind = data.get("kind", "")
    return MeldView(kind, MELD_KIND_NAMES.get(kind, kind), tiles, data.get("claimed"), data.get("from"))


def _choices(legal: list[str]) -> tuple[set[str], list[Choice]]:
    """Split legal actions into the tiles that may be discarded and the other buttons."""
    discards: set[str] = set()
    buttons: list[Choice] = []
    order = ["win", "self_win", "exposed_kong", "concealed_kong", "added_kong", "pong", "chow", "pass"]
    for text in legal:
        parts = text.split(":")
        kind, tile = parts[1], (parts[2] if len(parts) > 2 else None)
        if kind == "discard":
            discards.add(tile)
            continue
        zh, en = names.pair(names.ACTIONS, kind)
        if kind == "chow" and tile:
            code = parse_tiles(tile)[0]
            tiles = [format_tiles([code + i]) for i in range(3)]
        elif tile:
            tiles = [tile]
        else:
            tiles = []
        buttons.append(Choice(text, kind, zh, en, tiles))
    buttons.sort(key=lambda c: order.index(c.kind) if c.kind in order else len(order))
    return discards, buttons


def _sorted(tiles: list[str]) -> list[str]:
    return sorted(tiles, key=lambda t: parse_tiles(t)[0])


def table_context(table: Table, user) -> dict:
    """Everything the table templates need for this viewer."""
    seats = list(table.seats.select_related("user").order_by("index"))
    me = next((s for s in seats if user is not None and user.is_authenticated and s.user_id == user.pk), None)
    viewer = me.index if me else None
    anchor = viewer if viewer is not None else 0
    views = []
    for seat in seats:
        views.append(
            SeatView(
                index=seat.index,
                position=POSITIONS[(seat.index - anchor) % 4],
                name=_seat_name(seat),
                is_bot=seat.is_bot,
                is_me=seat.index == viewer,
                connected=seat.connected or seat.is_bot,
                score=int(table.scores[seat.index]) if table.scores else 0,
                ready=seat.ready,
                autoplay=seat.autoplay,
            )
        )
    ctx: dict = {
        "table": table,
        "room": table.room,
        "version": table.version,
        "viewer": viewer,
        "me": me,
        "seats": views,
        "seats_by_position": {v.position: v for v in views},
        "is_waiting": table.status == Table.Status.WAITING,
        "can_sit": table.status == Table.Status.WAITING and me is None and any(s.is_empty for s in seats),
        "has_empty": any(s.is_empty for s in seats),
        "state": None,
        "bot_levels": [(level, BOT_LEVEL_NAMES.get(level, level)) for level in bot_levels()],
        # Platform rules (issue 4): the stake, the ready check's countdown, 托管.
        "is_owner": me is not None and table.owner_id == me.user_id,
        "stake_options": room_stakes(table.room),
        "ready_deadline": table.deadline if table.status == Table.Status.WAITING else None,
        "now": timezone.now(),
    }
    state = load_state(table)
    if state is None:
        return ctx
    view = state.view(viewer)
    hand = current_hand(table)
    ended = view["phase"] == "ended"
    for seat_view, data in zip(views, view["seats"], strict=True):
        seat_view.wind = data["wind"]
        seat_view.wind_zh = names.pair(names.WINDS, data["wind"])[0]
        seat_view.is_dealer = data["seat"] == view["dealer"]
        seat_view.is_current = view["phase"] == "turn" and data["seat"] == view["current_seat"]
        seat_view.just_discarded = view["phase"] == "claims" and data["seat"] == view["current_seat"]
        seat_view.flowers = list(data["flowers"])
        seat_view.melds = [_meld(m) for m in data["melds"]]
        seat_view.river = list(data["river"])
        seat_view.concealed_count = data["concealed_count"]
        if ended and "hand" in data:
            seat_view.revealed = _sorted(data["hand"])
    discards, buttons = _choices(view.get("legal_actions", []))
    must_answer = viewer is not None and bool(view.get("legal_actions"))
    # The countdown is the waited-on person's timer: shown on a person's turn and to whoever must answer
    # a claim — never to others during a claim window (it would tell them someone can claim).
    person_turn = view["phase"] == "turn" and not seats[view["current_seat"]].is_bot
    ctx.update(
        {
            "state": view,
            "phase": view["phase"],
            "phase_name": names.pair(names.PHASES, view["phase"]),
            "hand_number": hand.number if hand else 0,
            "commitment": view.get("commitment", ""),
            "my_hand": _sorted(view.get("hand", [])),
            "drawn": view.get("drawn"),
            "discards": discards,
            "buttons": buttons,
            "waits": view.get("waits", []),
            "must_answer": must_answer,
            "deadline": table.turn_deadline if not ended and (must_answer or person_turn) else None,
            "now": timezone.now(),
            "current_name": next((v.name for v in views if v.is_current), ""),
            "dealer_name": views[view["dealer"]].name,
            "settlement": _settlement(view, views, table) if ended else None,
        }
    )
    return ctx


def _settlement(view: dict, views: list[SeatView], table: Table) -> dict:
    result = view["result"]
    for seat_view, amount in zip(views, result["payments"], strict=True):
        seat_view.payment = int(amount)
    winners = []
    for win in result["winners"]:
        winners.append(
            {
                "name": views[win["seat"]].name,
                "seat": win["seat"],
                "pattern": names.pair(names.PATTERNS, win.get("pattern", "")),
                "features": [names.pair(names.FEATURES, f) for f in win.get("features", [])],
                "win_kind": names.pair(names.WIN_KINDS, win.get("win", "")),
                "from_name": views[win["from_seat"]].name if win.get("from_seat") is not None else "",
                "hua": win.get("hua", 0),
                "hua_flowers": len(views[win["seat"]].flowers),
                "hua_sets": win.get("hua", 0) - len(views[win["seat"]].flowers),
                "value": win.get("value", 0),
            }
        )
    return {
        "kind": result["kind"],
        "winners": winners,
        "dealer_next": views[result["dealer_next"]].name,
        "huangfan_next": result["huangfan_next"],
        "reveal": view.get("reveal", {}),
    }


# --- entry points used by views and consumers ---------------------------------------------------


def table_exists(table_id: int) -> bool:
    return Table.objects.filter(pk=table_id).exists()


def csrf_token_for(csrf_cookie: str | None) -> str:
    """A masked CSRF token for the browser whose cookie is given, so forms pushed over the socket post
    like forms on a page; "NOTPROVIDED" (no hidden field; htmx sends the page's header) without one."""
    if not csrf_cookie or len(csrf_cookie) != 32 or not csrf_cookie.isalnum():
        return "NOTPROVIDED"
    request = HttpRequest()
    request.META["CSRF_COOKIE"] = csrf_cookie
    return get_token(request)


def render_table_fragments(table_id: int, user, csrf_cookie: str | None = None) -> tuple[int, str]:
    """(version, html): every live region of the table for this viewer, each marked for an OOB swap."""
    table = Table.objects.select_related("room").filter(pk=table_id).first()
    if table is None:
        return -1, ""
    ctx = table_context(table, user)
    ctx.update(oob=True, user=user, csrf_token=csrf_token_for(csrf_cookie))
    html = "".join(
        render_to_string(f"games/table.html#{part}", ctx) for part in ("board", "controls", "settlement")
    )
    return table.version, html


def render_error(error: ServiceError) -> str:
    return render_to_string("games/table.html#error", {"error": error, "oob": True})


def lobby_context(user) -> dict:
    rooms = []
    for room in Room.objects.filter(is_open=True).order_by("name"):
        tables = []
        for table in room.tables.exclude(status=Table.Status.FINISHED).order_by("id"):
            seats = list(table.seats.select_related("user").order_by("index"))
            if not any(s.user_id for s in seats):
                continue  # everyone left: nothing to join or watch
            tables.append(
                {
                    "table": table,
                    "seats": [(s, _seat_name(s)) for s in seats],
                    "mine": user is not None
                    and user.is_authenticated
                    and any(s.user_id == user.pk for s in seats),
                    "has_empty": any(s.is_empty for s in seats),
                }
            )
        rooms.append({"room": room, "tables": tables})
    return {"rooms": rooms, "user": user}


def render_lobby_fragment(user, csrf_cookie: str | None = None) -> str:
    ctx = lobby_context(user)
    ctx.update(oob=True, csrf_token=csrf_token_for(csrf_cookie))
    return render_to_string("games/lobby.html#rooms", ctx)
