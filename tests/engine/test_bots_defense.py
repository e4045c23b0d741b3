"""Reading opponents and judging danger (games/engine/bots/defense.py), and the normal bot's
defensive discards. Positions are built directly: only the public attributes a bot reads."""

from games.engine.actions import Action
from games.engine.bots import defense
from games.engine.bots.normal import NormalBot
from games.engine.melds import Meld
from games.engine.rules import Rules
from games.engine.state import RiverTile
from games.engine.tiles import parse_tiles, to_counts


def t(text: str) -> int:
    return parse_tiles(text)[0]


def pong(text: str, from_seat: int) -> Meld:
    tile = t(text)
    return Meld("pong", (tile,) * 3, from_seat, tile)


def chow(text: str, from_seat: int) -> Meld:
    a, b, c = parse_tiles(text)
    return Meld("chow", (a, b, c), from_seat, a)


class Table:
    """The public side of a table plus seat 0's concealed tiles, as a bot reads them."""

    def __init__(self, hand: str, melds=None, rivers=None, feeds=None, wall_remaining: int = 60):
        self.counts = [to_counts(parse_tiles(hand)), [0] * 34, [0] * 34, [0] * 34]
        self.melds = melds or [[], [], [], []]
        self.rivers = [[RiverTile(x) for x in parse_tiles(r)] for r in (rivers or ["", "", "", ""])]
        self.flowers = [[], [], [], []]
        self.feeds = feeds or [[0] * 4 for _ in range(4)]
        self.wall_remaining = wall_remaining
        self.phase = "turn"
        self.last_discard = None
        for seat in (1, 2, 3):
            self.counts[seat][0] = 13 - 3 * len(self.melds[seat])  # hidden: only the size matters

    def legal_actions(self, seat):
        return [Action("discard", seat, k) for k in range(34) if self.counts[seat][k]]


def test_chow_and_two_suits_leave_an_opponent_harmless():
    table = Table("1m", melds=[[], [chow("123m", 0), pong("5p", 2)], [], []])
    threat = defense.read_threat(table, 0, 1)
    assert threat.level == 0
    assert defense.danger(t("4m"), [threat], defense.unseen_counts(table, 0)) == 0


def test_three_melds_in_one_suit_make_that_suit_and_the_honours_dangerous():
    table = Table("1m", melds=[[], [], [pong("2p", 1), pong("7p", 3), pong("1z", 1)], []])
    threat = defense.read_threat(table, 0, 2)
    assert threat.suits == (False, True, False)
    assert threat.level >= 0.7
    unseen = defense.unseen_counts(table, 0)
    in_suit = defense.danger(t("5p"), [threat], unseen)
    honour = defense.danger(t("6z"), [threat], unseen)
    off_suit = defense.danger(t("5m"), [threat], unseen)
    assert in_suit > 0 and honour > 0
    # All pongs so far: an off-suit tile only matters as a 碰碰胡 pair wait, so it is safer.
    assert off_suit < in_suit


def test_a_tile_with_every_copy_visible_cannot_be_a_pong_or_pair_wait():
    table = Table(
        "5s5s",
        melds=[[], [pong("2m", 0), pong("7p", 2), pong("3z", 0)], [], []],
        rivers=["5s", "", "5s", ""],
    )
    threat = defense.read_threat(table, 0, 1)
    assert threat.pongs and not any(threat.suits)
    unseen = defense.unseen_counts(table, 0)
    assert unseen[t("5s")] == 0
    assert defense.danger(t("5s"), [threat], unseen) == 0
    assert defense.danger(t("6s"), [threat], unseen) > 0


def test_unseen_counts_own_tiles_melds_and_open_river_tiles():
    table = Table("111m", melds=[[], [pong("1m", 0)], [], []], rivers=["", "2m", "", ""])
    table.rivers[0].append(RiverTile(t("1m"), claimed=True))  # shown in seat 1's pong, not twice
    unseen = defense.unseen_counts(table, 0)
    assert unseen[t("1m")] == 0
    assert unseen[t("2m")] == 3
    assert unseen[t("3m")] == 4


def test_chengbao_risk_only_for_an_opponent_one_claim_from_partnership():
    feeds = [[0] * 4 for _ in range(4)]
    feeds[2][0] = 2  # seat 2 has claimed twice from seat 0
    table = Table("1m", melds=[[], [], [pong("3p", 0), pong("8p", 0)], []], feeds=feeds)
    threats = defense.read_threats(table, 0)
    unseen = defense.unseen_counts(table, 0)
    assert defense.chengbao_risk(table, 0, t("5p"), unseen, threats) > 0
    feeds[2][0] = 1
    assert defense.chengbao_risk(table, 0, t("5p"), unseen, threats) == 0


def test_no_threat_is_read_early_when_nobody_has_shown_anything():
    table = Table("1m", wall_remaining=70)
    assert defense.read_threats(table, 0) == []


# A far-from-ready m hand with two lone tiles, 5p and 5s, that are equally useless to it.
FAR_HAND = "1m4m7m9m2m 1z2z3z4z6z 5p5s 3m8m"


def test_normal_bot_folds_the_tile_a_visible_one_suit_hand_needs():
    melds = [[], [], [pong("2p", 1), pong("7p", 3), pong("9p", 1)], []]
    table = Table(FAR_HAND, melds=melds)
    assert NormalBot().choose(table, 0) == Action("discard", 0, t("5s"))


def test_normal_bot_without_a_threat_plays_for_its_hand():
    table = Table(FAR_HAND)
    choice = NormalBot().choose(table, 0)
    assert choice.tile in (t("5p"), t("5s"))
    # With the one-suit threat on the other suit instead, it keeps away from the bamboo.
    melds = [[], [], [pong("2s", 1), pong("7s", 3), pong("9s", 1)], []]
    assert NormalBot().choose(Table(FAR_HAND, melds=melds), 0) == Action("discard", 0, t("5p"))


def test_hard_bot_ignores_a_two_meld_hand_but_folds_against_three():
    from games.engine.bots.hard import HardBot

    two = [[], [], [pong("2p", 1), pong("7p", 3)], []]
    # normal already steers clear of the dots; hard keeps playing for speed (lowest equal tile).
    assert NormalBot().choose(Table(FAR_HAND, melds=two), 0) == Action("discard", 0, t("5s"))
    assert HardBot().choose(Table(FAR_HAND, melds=two), 0) == Action("discard", 0, t("5p"))
    three = [[], [], [pong("2p", 1), pong("7p", 3), pong("9p", 1)], []]
    assert HardBot().choose(Table(FAR_HAND, melds=three), 0) == Action("discard", 0, t("5s"))


def declaring_table(hand: str, melds, declared) -> Table:
    """A table playing 敲 (`declare_ready`), with the seats in `declared` declared ready."""
    table = Table(hand, melds=melds)
    table.rules = Rules(declare_ready=True)
    table.declared = [seat in declared for seat in range(4)]
    return table


def test_under_qiao_only_a_declared_seat_is_a_threat():
    three = [[], [], [pong("2p", 1), pong("7p", 3), pong("9p", 1)], []]
    # Three dot pongs, but seat 2 has not declared: under 敲 it cannot win, so nothing is read.
    table = declaring_table(FAR_HAND, three, declared=())
    assert defense.read_threats(table, 0) == []
    table = declaring_table(FAR_HAND, three, declared=(1,))
    threats = {threat.seat: threat for threat in defense.read_threats(table, 0)}
    assert threats[2].level == 0
    # Seat 1 shows nothing, yet it has declared: surely ready, early in the wall or not.
    assert threats[1].level == 1.0
    assert defense.danger(t("5p"), list(threats.values()), defense.unseen_counts(table, 0)) > 0


def test_under_qiao_bots_fold_against_a_declared_seat_and_ignore_the_undeclared():
    from games.engine.bots.hard import HardBot

    three = [[], [], [pong("2p", 1), pong("7p", 3), pong("9p", 1)], []]
    for bot in (NormalBot(), HardBot()):
        # Undeclared dot hand: both play for speed (the lowest of two equally useless tiles).
        assert bot.choose(declaring_table(FAR_HAND, three, declared=()), 0) == Action("discard", 0, t("5p"))
        # Declared: the dots are what it waits on.
        assert bot.choose(declaring_table(FAR_HAND, three, declared=(2,)), 0) == Action("discard", 0, t("5s"))


def test_group_reads_follow_rivers_and_melds():
    # Seat 1 shed two dots and collects nothing visible yet; seat 2 has a bamboo pong and shed
    # four characters (so it collects dots and honours too: none of them among four discards).
    melds = [[], [], [pong("7s", 3)], []]
    table = Table(FAR_HAND, melds=melds, rivers=["", "2p8p", "1m4m6m9m", ""])
    reads = defense.group_reads(table, 0)
    assert reads[0] == (0, -1, 0, 0)
    assert reads[1] == (-1, 1, 1, 1)
    assert reads[2] == (0, 0, 0, 0)


def test_live_weights_favour_groups_opponents_shed():
    table = Table(FAR_HAND, melds=[[], [], [pong("7s", 3)], []], rivers=["", "2p8p", "1m4m6m9m", ""])
    unseen = [4] * 34
    live = defense.live_weights(table, 0, unseen, shed_bonus=0.5, keep_cost=0.2)
    # characters: one shedder (+0.5); dots: one shedder, one collector; bamboo: one collector.
    assert live[t("5m")] == 4 * 1.5
    assert live[t("5p")] == 4 * 1.3
    assert live[t("5s")] == 4 * 0.8
    assert live[t("5z")] == 4 * 0.8
    assert unseen == [4] * 34  # the input is left as it was


def test_visible_counts_kept_up_to_date_through_whole_hands():
    from games.engine.bots import get_bot
    from games.engine.simulate import hand_seed
    from games.engine.state import GameState

    bot = get_bot("normal")
    checked = 0
    for index in range(6):
        state = GameState.new(dealer=index % 4, seed=hand_seed("visible", index))
        while state.phase != "ended":
            expected = [0] * 34
            for melds in state.melds:
                for meld in melds:
                    if meld.kind != "kong_concealed":  # face down: its kind is not public
                        for tile in meld.tiles:
                            expected[tile] += 1
            for river in state.rivers:
                for r in river:
                    if not r.claimed:
                        expected[r.tile] += 1
            assert defense.visible_counts(state) == expected
            checked += 1
            seat = state.pending_seats()[0]
            state.apply(bot.choose(state, seat))
    assert checked > 200


def test_another_seats_concealed_kong_shows_no_kind():
    # A concealed kong lies face down: the reader knows a kong is there, never of what, so neither
    # the copies it cannot see nor its reading of that seat depend on the kong's kind.
    def table(kind: str) -> Table:
        kong = Meld("kong_concealed", (t(kind),) * 4)
        return Table("1m", melds=[[], [kong, pong("2p", 0), pong("7p", 2)], [], []])

    reads = [
        (defense.unseen_counts(x, 0), defense.read_threat(x, 0, 1), defense.group_reads(x, 0))
        for x in (table("5s"), table("3p"), table("6z"))
    ]
    assert reads[0] == reads[1] == reads[2]
    unseen = reads[0][0]
    assert unseen[t("5s")] == unseen[t("3p")] == 4 and unseen[t("2p")] == 1
    assert reads[0][1].suits == (False, True, False)


def test_its_own_concealed_kong_is_seen_by_the_reader():
    kong = Meld("kong_concealed", (t("5s"),) * 4)
    table = Table("1m", melds=[[kong], [], [], []])
    assert defense.unseen_counts(table, 0)[t("5s")] == 0
