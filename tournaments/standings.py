"""Duplicate scoring (pure Python).

A player's duplicate score for one hand is their score minus the mean score of the players who held
the same seat of the same deal (round, hand) at the other tables. So for each deal and seat the
duplicate scores of the tables sum to zero, and a player is measured only against those who held
their tiles. Standings order: total duplicate score, then raw score, then fewest deal-ins (放铳).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class SeatScore:
    round: int
    deal: int
    table: int
    seat: int
    entry: int
    score: int
    dealt_in: bool = False


@dataclass
class Standing:
    entry: int
    duplicate: Fraction = Fraction(0)
    raw: int = 0
    deal_ins: int = 0
    hands: int = 0
    rank: int = 0
    per_round: dict[int, Fraction] = field(default_factory=dict)

    def key(self) -> tuple:
        return (-self.duplicate, -self.raw, self.deal_ins, self.entry)


def duplicate_scores(scores: Iterable[SeatScore]) -> dict[SeatScore, Fraction]:
    """Each seat score's duplicate score: against the same seat of the same deal at the other tables
    (0 while no other table has played that deal)."""
    scores = list(scores)
    groups: dict[tuple[int, int, int], list[SeatScore]] = defaultdict(list)
    for s in scores:
        groups[(s.round, s.deal, s.seat)].append(s)
    out = {}
    for group in groups.values():
        total = sum(s.score for s in group)
        others = len(group) - 1
        for s in group:
            out[s] = Fraction(s.score) - Fraction(total - s.score, others) if others else Fraction(0)
    return out


def standings(entries: Iterable[int], scores: Iterable[SeatScore]) -> list[Standing]:
    """Every entry's totals, best first, with ranks (equal keys share a rank)."""
    table = {e: Standing(e) for e in entries}
    for s, dup in duplicate_scores(scores).items():
        row = table.setdefault(s.entry, Standing(s.entry))
        row.duplicate += dup
        row.raw += s.score
        row.deal_ins += s.dealt_in
        row.hands += 1
        row.per_round[s.round] = row.per_round.get(s.round, Fraction(0)) + dup
    ordered = sorted(table.values(), key=Standing.key)
    for i, row in enumerate(ordered):
        same = i and ordered[i - 1].key()[:3] == row.key()[:3]
        row.rank = ordered[i - 1].rank if same else i + 1
    return ordered
