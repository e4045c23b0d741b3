"""The ledger: hand settlements, penalties and reversals balance; history is never rewritten."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db.models import Sum

from games import services
from games.models import Hand
from ledger.errors import LedgerError
from ledger.models import Account, AppendOnlyError, Journal, LedgerEntry, Penalty
from ledger.services import (
    balance_of,
    issue_penalty,
    journal_total,
    penalty_amount,
    post_hand_settlement,
    reverse_penalty,
    split_penalty,
)
from tests.games.helpers import play_until_ended, press_next_hand_for_all

pytestmark = pytest.mark.django_db


def entries_by_seat(journal: Journal) -> dict[int | None, Decimal]:
    return {e.seat: e.amount for e in journal.entries.all()}


def test_hand_end_posts_its_payments_in_the_same_transaction(ended_hand, players):
    journal = Journal.objects.get(kind=Journal.Kind.HAND, hand=ended_hand)
    payments = [Decimal(p) for p in ended_hand.result["payments"]]
    assert ended_hand.stake == 3
    assert entries_by_seat(journal) == dict(enumerate(payments))
    assert journal_total(journal) == Decimal("0.00")
    accounts = {e.seat: e.account for e in journal.entries.select_related("account")}
    assert [accounts[i].user for i in range(3)] == players
    assert accounts[3].kind == Account.Kind.BOTS
    for seat, user in enumerate(players):
        assert balance_of(user) == payments[seat]


def test_every_hand_sums_to_zero_and_balances_add_up(started_table, ended_hand, players):
    ann = players[0]
    press_next_hand_for_all(started_table.pk)
    play_until_ended(started_table, dict(enumerate(players)))
    hands = list(Hand.objects.filter(match__table=started_table).order_by("number"))
    assert len(hands) == 2
    for hand in hands:
        journal = Journal.objects.get(kind=Journal.Kind.HAND, hand=hand)
        assert journal_total(journal) == 0
    expected = sum(Decimal(h.result["payments"][0]) for h in hands)
    assert balance_of(ann) == expected
    started_table.refresh_from_db()
    assert [balance_of(u) for u in players] == [Decimal(s) for s in started_table.scores[:3]]


def test_posting_a_hand_twice_writes_nothing_new(ended_hand, players):
    count = LedgerEntry.objects.count()
    first = Journal.objects.get(kind=Journal.Kind.HAND, hand=ended_hand)
    again = post_hand_settlement(hand=ended_hand, seat_users=[*players, None])
    assert again.pk == first.pk
    assert LedgerEntry.objects.count() == count


def test_an_unfinished_hand_cannot_be_posted(started_table, players):
    hand = Hand.objects.get(match__table=started_table)
    with pytest.raises(LedgerError) as err:
        post_hand_settlement(hand=hand, seat_users=[*players, None])
    assert err.value.code == "hand_in_progress"
    assert not Journal.objects.exists()


def test_penalty_is_one_base_times_stake_split_three_quarters_to_the_others(ended_hand, players):
    ann, ben, cat = players
    before = [balance_of(u) for u in players]
    penalty = issue_penalty(hand=ended_hand, seat=1, reason="left early")
    assert penalty.amount == Decimal("6.00")  # standard: B = 2, k = 3
    assert penalty.user == ben and penalty.kind == Penalty.Kind.ADMIN
    journal = penalty.journals.get(kind=Journal.Kind.PENALTY)
    assert entries_by_seat(journal) == {
        1: Decimal("-6.00"),
        0: Decimal("1.50"),
        2: Decimal("1.50"),
        3: Decimal("1.50"),
        None: Decimal("1.50"),
    }
    assert journal.entries.get(seat=None).account.kind == Account.Kind.HOUSE
    assert journal_total(journal) == 0
    after = [balance_of(u) for u in players]
    assert [a - b for a, b in zip(after, before, strict=True)] == [
        Decimal("1.50"),
        Decimal("-6.00"),
        Decimal("1.50"),
    ]


@pytest.mark.parametrize(
    ("seat", "reason", "code"),
    [
        (1, "", "reason_required"),
        (1, "   ", "reason_required"),
        (3, "bot", "no_such_seat"),
        (4, "x", "no_such_seat"),
    ],
)
def test_bad_penalties_are_refused_and_write_nothing(ended_hand, seat, reason, code):
    count = (Penalty.objects.count(), Journal.objects.count(), LedgerEntry.objects.count())
    with pytest.raises(LedgerError) as err:
        issue_penalty(hand=ended_hand, seat=seat, reason=reason)
    assert err.value.code == code
    assert (Penalty.objects.count(), Journal.objects.count(), LedgerEntry.objects.count()) == count


def test_reversal_negates_every_entry_once(ended_hand, players, make_user):
    staff = make_user("boss")
    before = [balance_of(u) for u in players]
    penalty = issue_penalty(hand=ended_hand, seat=0, reason="wrongly", issued_by=staff)
    assert not penalty.is_reversed
    reversal = reverse_penalty(penalty=penalty, reason="appeal upheld", by=staff)
    original = penalty.journals.get(kind=Journal.Kind.PENALTY)
    assert reversal.reverses == original and reversal.created_by == staff
    assert {k: -v for k, v in entries_by_seat(original).items()} == entries_by_seat(reversal)
    assert journal_total(reversal) == 0
    assert [balance_of(u) for u in players] == before
    assert penalty.is_reversed
    with pytest.raises(LedgerError) as err:
        reverse_penalty(penalty=penalty, reason="again", by=staff)
    assert err.value.code == "already_reversed"
    assert Journal.objects.filter(kind=Journal.Kind.REVERSAL).count() == 1


def test_reversal_needs_a_reason(ended_hand):
    penalty = issue_penalty(hand=ended_hand, seat=0, reason="x")
    with pytest.raises(LedgerError) as err:
        reverse_penalty(penalty=penalty, reason="")
    assert err.value.code == "reason_required"
    assert not penalty.is_reversed


def test_whole_ledger_sums_to_zero(ended_hand):
    issue_penalty(hand=ended_hand, seat=2, reason="x")
    penalty = issue_penalty(hand=ended_hand, seat=0, reason="y")
    reverse_penalty(penalty=penalty, reason="z")
    assert LedgerEntry.objects.aggregate(total=Sum("amount"))["total"] == 0
    for journal in Journal.objects.all():
        assert journal_total(journal) == 0


@pytest.mark.parametrize(
    ("amount", "share", "house"),
    [("6.00", "1.50", "1.50"), ("1.00", "0.25", "0.25"), ("1.01", "0.25", "0.26"), ("0.10", "0.02", "0.04")],
)
def test_split_is_exact(amount, share, house):
    got = split_penalty(Decimal(amount))
    assert got == (Decimal(share), Decimal(house))
    assert 3 * got[0] + got[1] == Decimal(amount)


@pytest.mark.parametrize(("preset", "expected"), [("standard", "6.00"), ("lazi", "9.00"), ("home", "3.00")])
def test_penalty_base_follows_the_preset(ended_hand, preset, expected):
    hand = Hand(rules={"preset": preset}, stake=3)
    assert penalty_amount(hand) == Decimal(expected)


def test_history_cannot_be_edited_or_deleted(ended_hand):
    journal = Journal.objects.get(kind=Journal.Kind.HAND, hand=ended_hand)
    entry = journal.entries.first()
    amount = entry.amount
    entry.amount = Decimal("999")
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=0)
    with pytest.raises(AppendOnlyError):
        Journal.objects.all().delete()
    assert LedgerEntry.objects.get(pk=entry.pk).amount == amount


def test_balance_of_a_player_without_entries_is_zero(make_user):
    assert balance_of(make_user("newbie")) == Decimal("0.00")


def test_a_hand_does_not_end_without_its_ledger_entries(started_table, players, monkeypatch):
    """The settlement is posted in the transaction that ends the hand: if posting fails, the hand's
    end rolls back with it (nothing half-written)."""
    from games.services import settlement

    def broken(**kwargs):
        raise RuntimeError("ledger unavailable")

    monkeypatch.setattr(settlement, "post_hand_settlement", broken)
    # A person's move that ends the hand raises to them; the clock's tick that ends it logs the
    # failure and goes on with its other tables, so the clock then finds the hand still unfinished.
    with pytest.raises(
        (RuntimeError, AssertionError), match="ledger unavailable|the clock found nothing to do"
    ):
        play_until_ended(started_table, dict(enumerate(players)))
    hand = Hand.objects.get(match__table=started_table)
    started_table.refresh_from_db()
    assert hand.result is None and hand.ended is None
    assert services.load_state(started_table).phase != "ended"
    assert started_table.scores == [0, 0, 0, 0]
    assert not Journal.objects.exists()
