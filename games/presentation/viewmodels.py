"""View models of the live table, built from the engine's `HandView`: one seat's block (`SeatView`,
`MeldView`), the buttons a viewer may press (`Choice`); the settlement panel is settlement.py. Pure functions of their
inputs; games/presentation/rendering.py assembles them per viewer and caches what viewers share.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from django.utils.translation import gettext_lazy as _

from games import names
from games.engine.actions import Action
from games.engine.bots import levels as bot_levels
from games.engine.kinds import ActionKind, Phase
from games.engine.tiles import code_to_str, parse_tiles
from games.engine.view import Discard, MeldFace, PublicView, SeatPublic
from games.models import Seat, Table
from games.names import person_name

POSITIONS = ("bottom", "right", "top", "left")


@dataclass(frozen=True, slots=True)
class MeldView:
    """A meld as a block shows it; its words (the kind's name) are the template's (`meld_name`), so
    the view is the same in every language."""

    kind: str
    tiles: list[str]
    claimed: str | None
    from_seat: int | None

    face_down: int = 0  # a concealed kong seen by someone else before the hand ends: backs only
    owner: int | None = None  # the seat the meld belongs to

    @property
    def tile_items(self) -> list[tuple[str | None, str]]:
        """(tile, mark) pairs for the `tiles` filter: the claimed tile is marked "turned", once, and
        lies at the side of the seat it came from (上家 left, 对家 middle, 下家 right, as on a real
        table); a tile lying face down is (None, "")."""
        if self.face_down:
            return [(None, "")] * self.face_down
        items, turned = [], False
        for tile in self.tiles:
            mark = not turned and tile == self.claimed
            turned = turned or mark
            items.append((tile, "turned" if mark else ""))
        if turned and self.owner is not None and self.from_seat is not None:
            claimed = next(item for item in items if item[1])
            rest = [item for item in items if not item[1]]
            at = {1: len(rest), 2: len(rest) // 2, 3: 0}.get((self.from_seat - self.owner) % 4, 0)
            items = [*rest[:at], claimed, *rest[at:]]
        return items


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's block as one viewer sees it, built once with all its fields
    (rendering.table_context): who sits there (`seat_fields`), the game's public side of it
    (`public_seat`, shared by the version's viewers) and the viewer's own melds face up in their own
    block. Frozen: nothing changes a view after it is built, so viewers may share its parts."""

    index: int
    position: str
    name: str
    is_bot: bool
    is_me: bool
    connected: bool
    wind: str = ""  # the wind's tile code, "1z".."4z" (its words: the `wind_mark`/`wind_name` filters)
    is_dealer: bool = False
    is_current: bool = False
    score: int = 0
    flowers: list[str] = field(default_factory=list)
    melds: list[MeldView] = field(default_factory=list)
    river: list[Discard] = field(default_factory=list)
    concealed_count: int = 0
    revealed: list[str] | None = None
    just_discarded: bool = False
    ready: bool = False
    autoplay: bool = False
    declared: bool = False  # 敲: public
    swap: str = ""  # 换牌 window: "waiting" or "done" (never which tiles); "" outside it
    chips: int | None = None  # 逛花园: the seat's chip stack in this match

    @property
    def river_items(self) -> list[tuple[str, str]]:
        """(tile, mark) pairs for the `tiles` filter: a claimed discard is marked "claimed". (The one
        just discarded is marked by the browser, from the centre's `data-last-discard`.)"""
        return [(r.tile, "claimed" if r.claimed else "") for r in self.river]


@dataclass
class Choice:
    """One button of the claim / turn bar; `label` in the viewer's language."""

    action: str
    kind: str
    label: str
    tiles: list[str]


def seat_name(seat: Seat) -> str:
    """The person's name (`person_name`: select `user__profile` for all seats in one query), or the
    bot's."""
    if seat.user_id:
        return person_name(seat.user)
    if seat.is_bot:
        return names.bot_name(seat.index, seat.bot_level)
    return ""


# A table's status as the lobby shows it (code for the CSS class, words): the stored status, except
# a playing table that nobody seated there is connected to (everyone went away: it rests between
# hands, or bots play out the hand) and one that closes after this hand.
IDLE, CLOSING = "idle", "closing"
_STATUS_WORDS = {IDLE: _("暂停：没有人在线"), CLOSING: _("本局后关闭")}


def table_status(table: Table, seats: list[Seat]) -> tuple[str, str]:
    """(code, words) of the table's real status, for a list of tables."""
    if table.status == Table.Status.PLAYING:
        if table.closing:
            return CLOSING, str(_STATUS_WORDS[CLOSING])
        if not any(seat.user_id is not None and seat.connected for seat in seats):
            return IDLE, str(_STATUS_WORDS[IDLE])
    return table.status, table.get_status_display()


def meld_view(face: MeldFace, owner: int | None = None) -> MeldView:
    """`owner`: the seat whose meld it is, so that the claimed tile lies toward the seat it came from."""
    kind = face.kind.value
    return MeldView(
        kind,
        list(face.tiles),
        face.claimed,
        face.from_seat,
        face.face_down,
        owner,
    )


CHOICE_ORDER = (
    ActionKind.WIN,
    ActionKind.SELF_WIN,
    ActionKind.EXPOSED_KONG,
    ActionKind.CONCEALED_KONG,
    ActionKind.ADDED_KONG,
    ActionKind.DECLARE,
    ActionKind.PONG,
    ActionKind.CHOW,
    ActionKind.PASS,
)


SWAP_KINDS = frozenset({ActionKind.BURY, ActionKind.SKIP})  # the swap screen's own (swap.html)


def choices(legal: tuple[Action, ...]) -> tuple[set[str], list[Choice]]:
    """Split legal actions into the tiles that may be discarded and the other buttons (a 敲 is a
    button with the tile it discards)."""
    discards: set[str] = set()
    buttons: list[Choice] = []
    for action in legal:
        kind, code = action.kind, action.tile
        if kind == ActionKind.DISCARD:
            discards.add(code_to_str(code))
            continue
        if kind in SWAP_KINDS:
            continue
        label = names.name_of(names.ACTIONS, kind)
        if kind == ActionKind.CHOW:
            tiles = [code_to_str(code + i) for i in range(3)]  # `tile` is the sequence's lowest
        elif code is not None:
            tiles = [code_to_str(code)]
        else:
            tiles = []
        buttons.append(Choice(str(action), kind, label, tiles))
    order = {kind: i for i, kind in enumerate(CHOICE_ORDER)}
    buttons.sort(key=lambda c: order.get(c.kind, len(order)))
    return discards, buttons


@lru_cache(maxsize=8)
def bot_level_choices(language: str) -> tuple[tuple[str, str], ...]:
    """(level, its name) for the bot level selects; `language`: the active one (the cache's key)."""
    return tuple((level, names.name_of(names.BOT_LEVELS, level)) for level in bot_levels())


@lru_cache(maxsize=256)
def tile_order(tile: str) -> int:
    return parse_tiles(tile)[0]


def sorted_tiles(tiles: list[str]) -> list[str]:
    return sorted(tiles, key=tile_order)


PUBLIC_FIELDS = (
    "wind",
    "is_dealer",
    "is_current",
    "just_discarded",
    "flowers",
    "melds",
    "river",
    "concealed_count",
    "revealed",
    "declared",
    "swap",
)


def public_seat(public: PublicView, seat: SeatPublic) -> dict:
    """The `SeatView` fields (`PUBLIC_FIELDS`) that show the game: the same for every viewer."""
    phase = public.phase
    fields_ = {
        "wind": seat.wind,
        "is_dealer": seat.seat == public.dealer,
        "is_current": phase == Phase.TURN and seat.seat == public.current_seat,
        "just_discarded": phase == Phase.CLAIMS and seat.seat == public.current_seat,
        "flowers": list(seat.flowers),
        "melds": [meld_view(m, seat.seat) for m in seat.melds],
        "river": list(seat.river),
        "concealed_count": seat.concealed_count,
        "revealed": sorted_tiles(seat.hand) if phase == Phase.ENDED and seat.hand is not None else None,
        "declared": bool(seat.declared),
        "swap": ("done" if seat.swap.done else "waiting") if phase == Phase.SWAP and seat.swap else "",
    }
    return fields_


def seat_fields(seat: Seat, viewer: int | None, scores: list | None) -> dict:
    """The `SeatView` fields about who sits in `seat` and where the viewer (`viewer`: their seat
    index, None for a spectator, who sees seat 0 at the bottom) sees it; `scores`: the table's."""
    anchor = viewer if viewer is not None else 0
    return {
        "index": seat.index,
        "position": POSITIONS[(seat.index - anchor) % 4],
        "name": seat_name(seat),
        "is_bot": seat.is_bot,
        "is_me": seat.index == viewer,
        "connected": seat.connected or seat.is_bot,
        "score": int(scores[seat.index]) if scores else 0,
        "ready": seat.ready,
        "autoplay": seat.autoplay,
    }
