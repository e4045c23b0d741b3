"""The `hard` bot: `normal`'s planning, tuned for speed to a qualifying hand.

Self-play (bench/bots_bench.py) showed where the strength is: every discard that gives up useful
tiles for safety costs more wins than it saves in deal-ins, because these tables end quickly (about
nine hands in ten have a winner). So `hard` plays the same plans and claims as `normal` but only
defends against a hand that is surely close (three or more melds showing a pattern, or two late in
the wall) and only while its own hand is still far from ready; otherwise it discards purely for
speed. Its useful-tile counts value claimable tiles a little less than `normal`'s (the opponents
hold what they collect). Its edge over `normal` is small (a few per cent more wins); a second step
of look-ahead on the discards was tried and did not help.
"""

from __future__ import annotations

from .normal import NormalBot, Position

_SURE_THREAT = 0.7  # threat level (defense.read_threat) from which `hard` defends at all


class HardBot(NormalBot):
    level = "hard"
    caution = (0.0, 0.0, 1.5, 3.0)
    reach = (2.0, 1.3)

    def pick(self, pos: Position, options, threats):
        sure = [t for t in threats if t.level >= _SURE_THREAT]
        if not sure:
            return options[0]
        return super().pick(pos, options, sure)
