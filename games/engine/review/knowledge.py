"""What one seat knew at one decision, rebuilt from its `HandView` alone, in the shape the bots read.

The bots (`games.engine.bots`) read a `GameState`, taking from it only the deciding seat's own tiles
and public information. The review must not even have the rest at hand, so it gives the bots a
`SeatKnowledge` built from `state.hand_view(seat)`: the seat's own concealed tiles and melds, and
for the other seats only what the view shows — melds (a concealed kong face down), rivers, flowers,
how many tiles they hold, whether they declared 敲. Their concealed tiles are not in the view, so
they are not here: each other seat's `counts` holds the right number of tiles all on one placeholder
kind (a bot reads only their sum), and a face-down kong is a kong of a placeholder kind (a bot reads
only that it is face down). Whatever the view does not show cannot change a review.
"""

from __future__ import annotations

from ..actions import Action
from ..kinds import MeldKind, Phase
from ..melds import Meld
from ..rules import Rules
from ..state import RiverTile
from ..tiles import N_KINDS, parse_tiles
from ..view import HandView, MeldFace

_PLACEHOLDER = 0  # the kind put where the view shows only a size (other hands, face-down kongs)


def _code(tile: str) -> int:
    return parse_tiles(tile)[0]


def _meld(face: MeldFace) -> Meld:
    if face.face_down:
        return Meld(MeldKind.KONG_CONCEALED.value, (_PLACEHOLDER,) * face.face_down)
    return Meld(
        face.kind.value,
        tuple(sorted(_code(t) for t in face.tiles)),
        face.from_seat,
        None if face.claimed is None else _code(face.claimed),
    )


class SeatKnowledge:
    """A read-only stand-in for `GameState` holding one seat's view only (see the module doc).

    It answers what a bot asks of a state: `counts`, `melds`, `rivers`, `flowers`, `feeds`,
    `declared`, `phase`, `current_seat`, `drawn_tile`, `last_discard`, `wall_remaining`, `rules`,
    `legal_actions(seat)` and `pending_seats()`; the deciding seat's own entries are exact."""

    result = None

    def __init__(self, view: HandView, rules: Rules) -> None:
        if view.seat is None:
            raise ValueError("a review reads a seat's view, not a spectator's")
        seat = self.seat = view.seat
        public = view.public
        self.rules = rules
        self.phase = public.phase.value
        self.current_seat = public.current_seat
        self.dealer = public.dealer
        self.wall_remaining = public.wall_remaining
        self.last_discard = None if public.last_discard is None else _code(public.last_discard)
        self.claim_tile = None if public.claim_tile is None else _code(public.claim_tile)
        self.drawn_tile = None if view.drawn is None else _code(view.drawn)
        self.counts = []
        self.melds = []
        for info in public.seats:
            counts = [0] * N_KINDS
            if info.seat == seat:
                for tile in (*(view.hand or ()), *((view.drawn,) if view.drawn else ())):
                    counts[_code(tile)] += 1
                faces = view.own_melds or ()
            else:
                counts[_PLACEHOLDER] = info.concealed_count
                faces = info.melds
            self.counts.append(counts)
            self.melds.append([_meld(face) for face in faces])
        self.rivers = [[RiverTile(_code(r.tile), r.claimed) for r in info.river] for info in public.seats]
        self.flowers = [[_code(f) for f in info.flowers] for info in public.seats]
        self.declared = [bool(info.declared) for info in public.seats]
        # 承包 counts (claims each seat made from each other seat) are public: every claimed meld
        # names the seat that fed it.
        self.feeds = [[0] * 4 for _ in range(4)]
        for s, melds in enumerate(self.melds):
            for meld in melds:
                if meld.from_seat is not None:
                    self.feeds[s][meld.from_seat] += 1
        self._legal = list(view.legal_actions)
        self._pending = list(view.pending)

    def legal_actions(self, seat: int) -> list[Action]:
        return list(self._legal) if seat == self.seat else []

    def pending_seats(self) -> list[int]:
        return list(self._pending)

    @property
    def claiming(self) -> bool:
        return self.phase in (Phase.CLAIMS, Phase.ROB)
