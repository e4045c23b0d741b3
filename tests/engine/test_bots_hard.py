"""The `hard` bot's own judgement calls (those it shares with `normal` are in test_bots_normal.py),
each pinned by a hand-made position: only the public attributes a bot reads are built."""

import pytest

from games.engine.actions import Action
from games.engine.bots import defense
from games.engine.bots.hard import HardBot
from games.engine.bots.normal import NormalBot, Position
from tests.engine.test_bots_defense import Table, chow, pong, t

# Two equally close one-suit plans, characters and dots (234 + 67 in each), and a pair of honours
# each: which suit the bot keeps is decided only by which tiles it expects to reach it.
TWO_SUITS = "234m67m234p67p11z55z"
SHED_M = ["", "9m1m", "9m1m", "1m9m"]  # every opponent throws characters away
SHED_P = ["", "9p1p", "9p1p", "1p9p"]


@pytest.mark.parametrize(
    ("rivers", "kept", "given_up"),
    [(SHED_M, "m", "2p"), (SHED_P, "p", "2m")],
)
def test_keeps_the_suit_its_opponents_shed(rivers, kept, given_up):
    # Shed tiles come out of opponents' hands as discards, to be claimed or won on; the copies
    # the rivers show are gone, but the suit still flows, so hard keeps it.
    choice = HardBot().choose(Table(TWO_SUITS, rivers=rivers, wall_remaining=70), 0)
    assert choice == Action("discard", 0, t(given_up))


def test_normal_counts_only_the_copies_it_cannot_see():
    # The same position read by unseen copies alone: normal keeps the suit with more copies left,
    # the one opponents are not throwing away (the contrast that makes the test above meaningful).
    assert NormalBot().choose(Table(TWO_SUITS, rivers=SHED_M, wall_remaining=70), 0) == Action(
        "discard", 0, t("2m")
    )
    assert NormalBot().choose(Table(TWO_SUITS, rivers=SHED_P, wall_remaining=70), 0) == Action(
        "discard", 0, t("2p")
    )


# Seat 1 shows three melds in dots: 234p and 678p chows and a pong. With a pong of dots no honour
# is shown, so the hand may be a 清一色 (10 points a share); with a pong of east winds it is a
# 混一色 worth 2 + 1 花. The rivers and hard's own tiles are the same in both.
PIN_QING = [chow("234p", 0), chow("678p", 0), pong("1p", 2)]
PIN_HUN = [chow("234p", 0), chow("678p", 0), pong("1z", 2)]
CHEAP_HAND = "2233556779m36p55z"  # a 混一色 of characters without 花: it pays 2 a share


@pytest.mark.parametrize(("threat", "discard"), [(PIN_QING, "9m"), (PIN_HUN, "3p")])
def test_gives_way_to_an_expensive_threat_and_pushes_against_a_cheap_one(threat, discard):
    table = Table(CHEAP_HAND, melds=[[], threat, [], []], rivers=["", "", "9s1s", "2s8s"], wall_remaining=30)
    assert defense.threat_value(table, 1) == (10.0 if threat is PIN_QING else 3.0)
    assert HardBot().choose(table, 0) == Action("discard", 0, t(discard))


# Seat 0 has three sets on the table (123m and 456m chowed, a pong of east: a 混一色 worth 2 + 1 花)
# and holds 22m 78m: ready on 6m and 9m. Seat 3 has just discarded a third 2m. Taking it leaves
# 7m 8m, one of which is kept: a win on its pair is a 大吊车, worth at least 10 a share.
DADIAO_MELDS = [[chow("123m", 3), chow("456m", 3), pong("1z", 2)], [], [], []]
PONG_2M = {"pong": [Action("pong", 0, t("2m"))], "pass": [Action("pass", 0)]}


@pytest.mark.parametrize(
    ("rivers", "taken"),
    [
        # Three of the four waits are gone and 7m, 8m are all unseen: the pong.
        (["", "6m6m9m", "6m9m", "2m"], True),
        # Every copy of 7m and 8m is visible, so the tile held could never pair: pass.
        (["", "7m7m7m", "8m8m8m", "2m"], False),
    ],
)
def test_claims_a_dadiaoche_when_its_single_wait_is_worth_more(rivers, taken):
    table = Table("22m78m", melds=DADIAO_MELDS, rivers=rivers, wall_remaining=40)
    pong_2m, pass_ = PONG_2M["pong"][0], PONG_2M["pass"][0]
    # Normal takes only claims that bring the hand closer, and a ready hand stays ready.
    assert NormalBot().claim(Position(table, 0), PONG_2M, t("2m")) == pass_
    assert HardBot().claim(Position(table, 0), PONG_2M, t("2m")) == (pong_2m if taken else pass_)
