"""Only what the seat knew: a review of seat N at a decision depends on `view(N)` there and nothing else.

At every decision of real hands, everything the seat cannot see — the other seats' concealed tiles,
their face-down kongs, the live wall — is dealt again at random (`redeal_hidden`, the bots' own
harness), keeping every public thing and the seat's tiles. The review built from the redealt states
must equal the review of the real hand, decision for decision. The same redeal is shown to change
what the seat could not see, so the test would catch a review that read it.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.review import review, review_views
from games.engine.review.core import seat_views
from games.engine.state import GameState
from tests.engine.test_bots_hidden import redeal_hidden
from tests.engine.test_review import played_hand


def redealt_views(export, seat: int, rng: random.Random, changed: list[int]):
    """`seat_views`, each view taken from a copy of the state with the hidden part dealt again."""
    state = GameState.new(
        export.rules, export.dealer, export.huangfan, export.stake, export.seed, gengfeng=export.gengfeng
    )
    for step, action in enumerate(export.actions):
        if action.seat == seat and len(state.legal_actions(seat)) > 1:
            other = redeal_hidden(state, seat, rng)
            changed[0] += any(other.counts[s] != state.counts[s] for s in range(4) if s != seat)
            changed[1] += 1
            yield step, other.hand_view(seat), action
        state.apply(action)


@settings(max_examples=6, deadline=None, derandomize=True)
@given(index=st.integers(0, 10_000), seat=st.integers(0, 3), salt=st.integers(0, 1000))
def test_the_review_is_unchanged_when_what_the_seat_cannot_see_is_dealt_again(index, seat, salt):
    export = played_hand(index, levels=["hard", "normal", "easy", "hard"], seed="privacy")
    changed = [0, 0]
    again = review_views(redealt_views(export, seat, random.Random(salt), changed), export.rules)
    assert again == review(export, seat).decisions
    assert changed[1] > 0 and changed[0] >= changed[1] // 2  # the hidden part really was different


def test_the_views_the_review_reads_are_the_seats_own():
    export = played_hand(3)
    for _step, view, action in seat_views(export, 1):
        assert view.seat == 1 and action.seat == 1
        for info in view.public.seats:
            assert info.hand is None  # nobody's concealed tiles before the hand ends
        assert view.legal_actions and action in view.legal_actions
