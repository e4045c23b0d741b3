"""What a table carries from one hand to the next (issue 24 §7; rules §7, §9, §11): the 跟风 count
within a match, and the 荒番 count across the end of a 逛花园 match; a player leaving resets both.

Hands are rigged (`put_state`) and then finished and dealt through the services, as at a live table.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, store
from games.engine import garden as engine_garden
from games.engine.rules import Rules
from games.engine.state import GameState
from games.models import Hand, Match, Table
from games.presentation import rendering
from games.services.commands import Move
from history.replay import check, source_from_hand
from history.simulation import play_stored_hand, seated_table

from .helpers import (
    deal_in_and_win,
    play_until_ended,
    press_next_hand_for_all,
    put_state,
    started_table,
    state_of,
)

# 跟风 (§9): each seat holds one 东 (nobody can pong it) and nothing that can win or claim from a
# short wall; the dealer (seat 0) and then each seat in turn discards its 东 first.
GENGFENG_HANDS = [
    "1z1m4m7m2p5p8p3s6s9s2z3z4z9m",
    "1z2m5m8m3p6p9p1s4s7s2z3z4z",
    "1z3m6m9m1p4p7p2s5s8s2z3z4z",
    "1z1m4m7m2p5p8p3s6s9s2z3z4z",
]
GENGFENG_WALL = "2m3m5m6m8m9m2p3p5p6p8p9p"


@pytest.fixture(autouse=True)
def _fresh_render_cache():
    """Tests here rig hands at tables with the same ids: a version rendered for an earlier test's
    table must not stand in for this one's."""
    store.forget_all()


def rooms_options(room, preset: str = "standard", **options) -> None:
    room.preset = preset
    room.rules_options = options
    room.save(update_fields=["preset", "rules_options"])


def rig_gengfeng(table: Table, rules: Rules, gengfeng: int) -> GameState:
    """Make the table's hand one whose first four discards are 东 (a 跟风), the fourth just made."""
    state = GameState.from_setup(
        hands=GENGFENG_HANDS, wall=GENGFENG_WALL, dealer=0, rules=rules, gengfeng=gengfeng
    )
    paid = []
    while not paid:
        seat = state.pending_seats()[0]
        legal = state.legal_actions(seat)
        wind = [a for a in legal if str(a) == f"{seat}:discard:1z"]
        events = state.apply(wind[0] if wind else next(a for a in legal if a.kind == "pass"))
        paid = [e.data["n"] for e in events if e.kind == "gengfeng"]
    assert paid == [gengfeng + 1]  # the n-th 跟风 of the match pays n
    put_state(table, state)
    return state


@pytest.fixture
def home_table(room, alice, bob):
    rooms_options(room, "home")
    return started_table(room, alice, bob)


def test_the_gengfeng_count_carries_to_the_next_hand_and_the_second_pays_two(home_table, alice, bob):
    rules = Rules.of_preset("home")
    rig_gengfeng(home_table, rules, gengfeng=0)
    first = play_until_ended(home_table, {0: alice, 1: bob})
    assert first.result.gengfeng == 1 and first.result.gengfeng_next == 1
    press_next_hand_for_all(home_table.pk)
    home_table.refresh_from_db()
    assert home_table.gengfeng == 1
    dealt = state_of(home_table)
    assert dealt.gengfeng == 1 and Hand.objects.get(pk=home_table.hand_id).gengfeng == 1
    # The match's second 跟风 pays 2 to each other seat (the dealt count, rigged into a 跟风 hand).
    rig_gengfeng(home_table, rules, gengfeng=dealt.gengfeng)
    ended = play_until_ended(home_table, {0: alice, 1: bob})
    assert ended.result.gengfeng == 2
    home_table.refresh_from_db()
    assert home_table.gengfeng == 2


def test_history_replays_a_hand_with_the_gengfeng_count_it_was_dealt_with(room):
    """A replay deals the hand again: with the count it was dealt with, or a 跟风 would pay 1."""
    rooms_options(room, "home")
    table, _ = seated_table(room, [None] * 4)
    Table.objects.filter(pk=table.pk).update(gengfeng=2)
    hand = play_stored_hand(table, "ab" * 32)
    assert hand.gengfeng == 2
    actions = list(hand.actions.order_by("seq").values_list("action", flat=True))
    source = source_from_hand(hand, actions)
    assert source.export.gengfeng == 2
    assert check(source) is None


def test_a_player_leaving_resets_the_gengfeng_count(home_table, alice, bob):
    rig_gengfeng(home_table, Rules.of_preset("home"), gengfeng=0)
    play_until_ended(home_table, {0: alice, 1: bob})
    home_table.refresh_from_db()
    assert home_table.gengfeng == 1
    services.table_stand(table_id=home_table.pk, user=bob)  # between hands
    home_table.refresh_from_db()
    assert home_table.gengfeng == 0
    press_next_hand_for_all(home_table.pk)
    assert state_of(home_table).gengfeng == 0


def test_a_player_leaving_mid_hand_keeps_that_hands_gengfeng_and_resets_the_next(home_table, alice, bob):
    rig_gengfeng(home_table, Rules.of_preset("home"), gengfeng=0)
    services.table_stand(table_id=home_table.pk, user=bob)  # 逃跑 after the 跟风 was paid
    ended = play_until_ended(home_table, {0: alice})
    assert ended.result.gengfeng == 1  # the hand keeps its 跟风
    assert ended.result.huangfan_next == 1  # what the drawn hand alone would leave
    home_table.refresh_from_db()
    assert home_table.gengfeng == 0 and home_table.huangfan == 0
    settlement = rendering.render_table_fragments(home_table.pk, alice)[1]
    assert re.search(r"荒番数 0 → <b>(\d+)</b>", settlement).group(1) == "0"  # what the next hand gets
    press_next_hand_for_all(home_table.pk)
    assert state_of(home_table).gengfeng == 0


# --- 逛花园's end (§11) ----------------------------------------------------------------------------


@pytest.fixture
def garden_home_table(room, alice, bob):
    rooms_options(room, "home", garden=1)
    return started_table(room, alice, bob)


def test_the_gardens_end_carries_the_huangfan_count_and_the_dealer_and_resets_gengfeng(
    garden_home_table, alice, bob, monkeypatch
):
    """A new match after 四圈 keeps the 荒番 count (only a player leaving resets it), the dealer and
    the stake; the stacks are fresh and the 跟风 count returns to 0."""
    monkeypatch.setattr(engine_garden, "DEALER_CHANGES_PER_MATCH", 1)  # one change of dealer ends it
    table = garden_home_table
    rules = Rules.of_preset("home", {"garden": 1})
    rig_gengfeng(table, rules, gengfeng=0)
    # The rigged hand is drawn out (no change of dealer): 荒番 1, and one 跟风 in the match.
    first = play_until_ended(table, {0: alice, 1: bob})
    assert first.result.kind == "draw" and first.result.huangfan_next == 1
    hand = Hand.objects.get(pk=table.hand_id)
    assert not hand.result["garden"]["over"]
    press_next_hand_for_all(table.pk)
    table.refresh_from_db()
    assert (table.huangfan, table.gengfeng) == (1, 1)
    # The next hand ends the match with a change of dealer: bob wins on alice's discard.
    win = GameState.from_setup(
        hands=["1112345678999m5p", "1112345678999p", "147s258s369s1234z", "147s258s369s4z1z2z3z"],
        wall="2s3s4s5s6s",
        dealer=0,
        rules=rules,
        huangfan=3,
        gengfeng=1,
    )
    deal_in_and_win(table, win, alice, bob)
    hand = Hand.objects.get(pk=table.hand_id)
    assert hand.result["garden"]["over"] and hand.result["huangfan_next"] == 2
    press_next_hand_for_all(table.pk)
    table.refresh_from_db()
    new_hand = Hand.objects.get(pk=table.hand_id)
    assert new_hand.match_id != hand.match_id and new_hand.number == 1
    assert Match.objects.get(pk=hand.match_id).ended is not None
    assert (new_hand.dealer, new_hand.huangfan, new_hand.gengfeng, new_hand.stake) == (1, 2, 0, hand.stake)
    dealt = state_of(table)
    assert (dealt.dealer, dealt.huangfan, dealt.gengfeng) == (1, 2, 0)
    assert table.scores == [0, 0, 0, 0]


def test_with_a_garden_the_gengfeng_is_paid_from_the_stacks_before_the_win(room, alice, bob):
    """§9: a 跟风 is settled when it happens, against the stacks, before the hand's win. The dealer
    (stack 3) pays 1 to each other seat for the 跟风, then deals in to seat 1 with nothing left: seat 1
    gets 1, not all 3 (which it would if the 跟风 and the win were paid as one)."""
    rooms_options(room, "home", garden=3)
    table = started_table(room, alice, bob)
    state = GameState.from_setup(
        hands=[
            "1z4p1s2s3s4s5s6s7s8s9s2z3z4z",
            "1z123456789m112p",
            "1z258m369p147s234z",
            "1z369m578p258s234z",
        ],
        wall="3p9m6p5s7m7m7m",
        dealer=0,
        rules=Rules.of_preset("home", {"garden": 3}),
    )
    script = ["0:discard:1z", "1:discard:1z", "2:discard:1z", "3:discard:1z", "0:discard:4p"]
    while script:
        seat = state.pending_seats()[0]
        legal = {str(a): a for a in state.legal_actions(seat)}
        state.apply(legal.pop(script.pop(0)) if script[0] in legal else legal[f"{seat}:pass"])
    put_state(table, state)
    table.refresh_from_db()
    services.table_act(table_id=table.pk, user=bob, action=Move.parse("1:win:4p"), version=table.version)
    ended = state_of(table)
    assert ended.phase == "ended" and ended.result.gengfeng == 1
    assert list(ended.result.payments) == [-23, 21, 1, 1]  # a win of 20 beside the 跟风
    hand = Hand.objects.get(pk=table.hand_id)
    assert hand.result["garden"]["paid"] == [-3, 1, 1, 1]
    assert hand.result["garden"]["stacks"] == [0, 4, 4, 4]


def test_a_seat_gone_past_its_grace_resets_both_counts(room, alice, bob):
    """掉线 (§10) counts as leaving for 跟风 as for 荒番 (a Choice written in RULES.md §9)."""
    room.discard_timeout = room.claim_timeout = 600  # only the grace period can fire
    room.save()
    rooms_options(room, "home")
    table = started_table(room, alice, bob)
    Table.objects.filter(pk=table.pk).update(gengfeng=2, huangfan=2)
    t0 = timezone.now()
    services.seat_disconnected(table_id=table.pk, user=bob, now=t0)
    services.clock_tick(now=t0 + timedelta(seconds=room.grace_period + 1))
    table.refresh_from_db()
    assert table.seats.get(index=1).autoplay  # bob's absence was charged
    assert (table.gengfeng, table.huangfan) == (0, 0)
