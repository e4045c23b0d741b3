"""The builder's view model: the tile palette and the hand so far, each tile a link to the URL that
taps it (the page works as plain links; htmx only swaps the result in place)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.translation import gettext_lazy as _

from games.engine.melds import MELD_KINDS
from games.engine.rules import PRESETS
from games.engine.scoring import WIN_KINDS
from games.names import MELD_KINDS as MELD_NAMES
from games.names import PRESETS as PRESET_NAMES
from games.names import RULE_OPTION_LABELS, RULE_OPTIONS, WINDS, word
from games.names import WIN_KINDS as WIN_NAMES
from games.presentation.explain import seat_places

from .hand_input import TARGETS, HandInput

_PLACES = ("1z", "2z", "3z", "4z")  # seats 0-3 are named 东 南 西 北 (explain.seat_places)
_ROWS = (range(0, 9), range(9, 18), range(18, 27), range(27, 34), range(34, 42))
_ADVANCED = (
    "feeds",
    "ready",
    "cap",
    "qingyise_9_bao",
    "base",
    "fp",
    "lezi_points",
    *RULE_OPTIONS,
)  # shown open when set
_TARGET_NAMES = {
    "hand": _("手牌"),
    "tile": _("胡的牌"),
    "meld": _("副露"),
    "flowers": _("花"),
}


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str  # a lazy word: the active language's
    href: str
    current: bool


@dataclass(frozen=True, slots=True)
class TileLink:
    code: int
    href: str | None  # None: this tap cannot add the tile


def href(inp: HandInput) -> str:
    return "?" + inp.query()


def palette(inp: HandInput) -> list[list[TileLink]]:
    rows = []
    for row in _ROWS:
        links = []
        for code in row:
            after = inp.tap(code)
            links.append(TileLink(code, None if after is None else href(after)))
        rows.append(links)
    return rows


def build(inp: HandInput) -> dict:
    """Everything the builder region shows."""
    hand = sorted(inp.hand)
    return {
        "palette": palette(inp),
        "hand": [TileLink(code, href(inp.without_hand_tile(i))) for i, code in enumerate(hand)],
        "hand_size": inp.hand_size,
        "tile": None if inp.tile is None else TileLink(inp.tile, href(replace(inp, tile=None))),
        "melds": [
            {
                "tiles": meld.tiles,
                "kind": word(MELD_NAMES, meld.kind),
                "from_seat": meld.from_seat,
                "remove": href(inp.without_meld(i)),
            }
            for i, meld in enumerate(inp.melds)
        ],
        "flowers": [TileLink(code, href(inp.without_flower(code))) for code in sorted(inp.flowers)],
        "targets": [Choice(t, _TARGET_NAMES[t], href(replace(inp, to=t)), inp.to == t) for t in TARGETS],
        "meld_kinds": [
            Choice(k, word(MELD_NAMES, k), href(replace(inp, to="meld", meld_kind=k)), inp.meld_kind == k)
            for k in MELD_KINDS
        ],
        "meld_sources": [
            Choice(
                str(s),
                word(WINDS, _PLACES[s]),
                href(replace(inp, to="meld", meld_from=s)),
                inp.meld_source == s,
            )
            for s in range(4)
            if s != inp.winner
        ],
        "clear": href(HandInput(preset=inp.preset, win=inp.win, winner=inp.winner, dealer=inp.dealer)),
    }


def form_choices(inp: HandInput) -> dict:
    """The settings form's select options."""
    return {
        "presets": [(p, word(PRESET_NAMES, p)) for p in PRESETS],
        "wins": [(w, word(WIN_NAMES, w)) for w in WIN_KINDS],
        "seats": list(enumerate(seat_places())),
        "dice": [f"{a}{b}" for a in range(1, 7) for b in range(a, 7)],
        "dice_value": f"{inp.dice[0]}{inp.dice[1]}",
        "options": [
            {
                "name": name,
                "label": RULE_OPTION_LABELS[name],
                "value": inp.option(name),
                "values": [(v, word(values, v)) for v in values],
            }
            for name, values in RULE_OPTIONS.items()
        ],
        "feeds_text": " ".join("".join(str(x) for x in row) for row in inp.feeds),
        "ready_seats": [s for s in range(4) if inp.ready[s]],
        "advanced_open": any(k in dict(inp.params()) for k in _ADVANCED),
    }
