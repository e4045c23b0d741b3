"""The `easy` bot: always wins when it can, otherwise plays a cheap, sensible hand.

Shanghai needs a qualifying pattern (混一色 / 清一色 / 碰碰胡, §5), so the bot picks a target suit
— the one it holds most of — and sheds the other suits first (isolated tiles first), then single
honours, then edge tiles; among its few best candidates it keeps the discard with the lowest
`hand.shanten`. It pongs honours and target-suit tiles, chows only in the target suit, and takes
every kong. It reads only its own concealed tiles and public information.
"""

from __future__ import annotations

from ..actions import Action
from ..hand import shanten
from ..kinds import ActionKind, Phase


def _target_suit(counts: list[int], melds) -> int:
    totals = [sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27])]
    for meld in melds:
        first = meld.tiles[0]
        if first < 27:
            totals[first // 9] += 3
    best = 0
    if totals[1] > totals[best]:
        best = 1
    if totals[2] > totals[best]:
        best = 2
    return best


def _isolation(counts: list[int], tile: int) -> int:
    """Higher is more useful: copies and suit neighbours held."""
    n = counts[tile]
    score = 3 * (n - 1)
    if tile < 27:
        rank = tile % 9
        for d in (-2, -1, 1, 2):
            if 0 <= rank + d <= 8 and counts[tile + d]:
                score += 2 if abs(d) == 1 else 1
        if rank in (0, 8):
            score -= 1
    return score


class SimpleBot:
    level = "easy"

    def choose(self, state, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do")
        first = legal[0]
        if first.kind == ActionKind.SELF_WIN or first.kind == ActionKind.WIN:
            return first
        counts = state.counts[seat]
        melds = state.melds[seat]
        target = _target_suit(counts, melds)
        if state.phase != Phase.TURN:
            return self._claim(legal, target)
        for index, action in enumerate(legal):
            if action.kind == ActionKind.DISCARD:
                return self._discard(legal[index:], counts, melds, target)
            return action  # a kong: always taken
        raise ValueError("a turn without a discard")

    @staticmethod
    def _claim(legal: list[Action], target: int) -> Action:
        chow = None
        for action in legal:
            kind = action.kind
            if kind == ActionKind.PONG or kind == ActionKind.EXPOSED_KONG:
                if action.tile >= 27 or action.tile // 9 == target:
                    return action
            elif kind == ActionKind.CHOW:
                if chow is None and action.tile // 9 == target:
                    chow = action
            elif kind == ActionKind.PASS:
                return chow or action
        return legal[-1]

    @staticmethod
    def _discard(discards: list[Action], counts: list[int], melds, target: int) -> Action:
        groups: tuple[list[Action], ...] = ([], [], [], [])
        for action in discards:
            tile = action.tile
            if tile >= 27:
                groups[1 if counts[tile] == 1 else 3].append(action)
            elif tile // 9 != target:
                groups[0].append(action)
            else:
                groups[2].append(action)
        level, group = next((i, g) for i, g in enumerate(groups) if g)
        if len(group) == 1:
            return group[0]
        # The two least useful tiles (ties: the higher tile first), found in one pass.
        first = second = None
        for action in group:
            key = (_isolation(counts, action.tile), -action.tile)
            if first is None or key < first[0]:
                first, second = (key, action), first
            elif second is None or key < second[0]:
                second = (key, action)
        if level < 2 or first[0][0] != second[0][0]:
            return first[1]
        n_melds = len(melds)
        best, best_sh = first[1], None
        for action in (first[1], second[1]):
            counts[action.tile] -= 1
            try:
                sh = shanten(counts, n_melds)
            finally:
                counts[action.tile] += 1
            if best_sh is None or sh < best_sh:
                best, best_sh = action, sh
        return best
