"""Statistics and ratings recomputed independently from the action logs of a few hundred hands.

The pages read `HandRecord` rows written from `Hand.result` at the end of each hand. Here every hand
is replayed from its stored `Action` log with the engine, attributed to the match's players, and the
figures are counted again from the replayed results alone.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from decimal import ROUND_HALF_UP, Decimal

import pytest
from openskill.models import PlackettLuce

from games.engine.actions import Action as EngineAction
from games.engine.rules import Rules
from games.engine.state import GameState
from games.models import Hand, Room
from history.models import Player, Rating
from history.simulation import play_stored_hands, seated_table
from history.stats import player_stats

HANDS_PER_TABLE = 100


def replayed(hand: Hand) -> GameState:
    actions = [EngineAction.parse(a) for a in hand.actions.order_by("seq").values_list("action", flat=True)]
    state = GameState.replay(
        seed=hand.seed,
        rules=Rules.from_json(hand.rules),
        dealer=hand.dealer,
        huangfan=hand.huangfan,
        stake=hand.stake,
        actions=actions,
    )
    assert state.phase == "ended" and state.commitment == hand.commitment
    return state


def key_of(user_id) -> str:
    return f"u{user_id}" if user_id is not None else "bot-easy"


@pytest.fixture
def many_hands(room, alice, bob):
    other = Room.objects.create(
        name="Other room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy"
    )
    for r, users, seed in (
        (room, [alice, None, bob, None], "a"),
        (other, [None, alice, None, None], "b"),
        (room, [bob, alice, None, None], "c"),
    ):
        table, match = seated_table(r, users)
        play_stored_hands(table, match, HANDS_PER_TABLE, seed=seed)
    return other


def expected_from_logs(room_id=None):
    """Per player key: the figures, counted from the replayed hands in the order they ended."""
    hands = Hand.objects.filter(result__isnull=False).select_related("match__table").order_by("ended", "id")
    if room_id is not None:
        hands = hands.filter(match__table__room_id=room_id)
    per = defaultdict(lambda: {"rows": []})
    for hand in hands:
        result = replayed(hand).result
        by_seat = {w.seat: w for w in result.winners}
        fed = {w.from_seat for w in result.winners if w.from_seat is not None}
        for seat, user_id in enumerate(hand.match.players):
            win = by_seat.get(seat)
            per[key_of(user_id)]["rows"].append(
                {
                    "hand": hand.pk,
                    "payment": result.payments[seat],
                    "won": win is not None,
                    "self": win is not None and win.from_seat is None,
                    "fed": seat in fed and win is None,
                    "drawn": result.kind == "draw",
                    "pattern": win.pattern if win else None,
                    "features": list(win.features) if win else [],
                }
            )
    return per


def longest(flags) -> int:
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


def check_player(player: Player, rows: list[dict], room_id=None) -> None:
    stats = player_stats(player, room_id)
    wins = [r for r in rows if r["won"]]
    assert stats.hands == len(rows)
    assert stats.wins == len(wins)
    assert stats.self_draws == sum(r["self"] for r in rows)
    assert stats.deal_ins == sum(r["fed"] for r in rows)
    assert stats.draws == sum(r["drawn"] for r in rows)
    assert stats.total == sum(r["payment"] for r in rows)
    running, balance = 0, []
    for r in rows:
        running += r["payment"]
        balance.append(running)
    assert stats.balance == balance
    assert stats.best_win_streak == longest(r["won"] for r in rows)
    assert stats.worst_loss_streak == longest(r["payment"] < 0 for r in rows)
    assert {d.code: d.count for d in stats.patterns} == dict(Counter(r["pattern"] for r in wins))
    assert {d.code: d.count for d in stats.features} == dict(Counter(f for r in wins for f in r["features"]))
    if wins:
        assert stats.biggest_win.payment == max(r["payment"] for r in wins)
        assert stats.win_rate == (Decimal(100 * len(wins)) / len(rows)).quantize(
            Decimal("0.1"), rounding=ROUND_HALF_UP
        )
    half_up = {"rounding": ROUND_HALF_UP}
    assert stats.average == (Decimal(sum(r["payment"] for r in rows)) / len(rows)).quantize(
        Decimal("0.01"), **half_up
    )


def test_statistics_and_ratings_match_a_recount_from_the_action_logs(many_hands, alice, bob, room):
    expected = expected_from_logs()
    assert len(expected[f"u{alice.pk}"]["rows"]) == 3 * HANDS_PER_TABLE
    assert sum(r["won"] for r in expected[f"u{alice.pk}"]["rows"]) > 0
    for key, data in expected.items():
        check_player(Player.objects.get(key=key), data["rows"])
    in_room = expected_from_logs(room.pk)
    check_player(Player.objects.get(user=alice), in_room[f"u{alice.pk}"]["rows"], room.pk)
    from ledger.services import balance_of

    for user in (alice, bob):  # the ledger holds exactly the hands' payments (no penalties here)
        assert balance_of(user) == sum(r["payment"] for r in expected[f"u{user.pk}"]["rows"])
    check_ratings()


def check_ratings() -> None:
    """Overall ratings equal a fresh OpenSkill run over the replayed rankings, hand by hand."""
    model = PlackettLuce()
    current: dict[str, tuple[float, float]] = {}
    hands = Hand.objects.filter(result__isnull=False).select_related("match").order_by("ended", "id")
    for hand in hands:
        payments = replayed(hand).result.payments
        keys = [key_of(u) for u in hand.match.players]
        if len(set(payments)) == 1:
            continue
        prior = {k: current.get(k, (25.0, 25 / 3)) for k in keys}
        ranks = [1 + sum(o > p for o in payments) for p in payments]
        new = model.rate([[model.rating(mu=prior[k][0], sigma=prior[k][1])] for k in keys], ranks=ranks)
        moved = defaultdict(list)
        for k, (r,) in zip(keys, new, strict=True):
            moved[k].append(r)
        for k, rs in moved.items():
            mu = prior[k][0] + sum(r.mu - prior[k][0] for r in rs) / len(rs)
            current[k] = (mu, sum(r.sigma for r in rs) / len(rs))
    for key, (mu, sigma) in current.items():
        rating = Rating.objects.get(player__key=key, room=None)
        assert rating.mu == pytest.approx(mu) and rating.sigma == pytest.approx(sigma), key
