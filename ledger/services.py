"""Writing the ledger: hand settlements, penalties and their reversals, balances.

Every function that writes runs inside `transaction.atomic()` (joining the caller's transaction when
there is one, so a hand's settlement commits or rolls back with the hand's end) and posts one
`Journal` whose entries sum to exactly zero. Amounts are `Decimal` with two places, never float.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_DOWN, Decimal

from django.db import transaction
from django.db.models import Sum
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from .errors import LedgerError
from .models import ZERO, Account, Ban, Journal, LedgerEntry, Penalty

CENT = Decimal("0.01")
HOUSE_SHARE = Decimal("0.25")  # of a penalty; the rest goes to the other three seats in equal parts
# 底分 per preset (rules §7 B = 2 points; §8 底注 3 花; §9 has none, so 1). A penalty is 1 × 底分 × k.
PENALTY_BASE = {"standard": 2, "lazi": 3, "home": 1}


def _money(value) -> Decimal:
    if isinstance(value, float):
        raise TypeError("ledger amounts are never float")
    return Decimal(value).quantize(CENT)


# --- accounts ------------------------------------------------------------------------------------


def house_account() -> Account:
    return Account.objects.get_or_create(kind=Account.Kind.HOUSE, user=None)[0]


def bots_account() -> Account:
    return Account.objects.get_or_create(kind=Account.Kind.BOTS, user=None)[0]


def account_for(user) -> Account:
    """The player's account (created on first use); `None` stands for a bot seat."""
    if user is None:
        return bots_account()
    return Account.objects.get_or_create(kind=Account.Kind.PLAYER, user=user)[0]


def balance_of(user_or_account) -> Decimal:
    """The sum of every entry of the player's (or the given) account; 0.00 when there are none."""
    if isinstance(user_or_account, Account):
        account_id = user_or_account.pk
    else:
        account_id = Account.objects.filter(user=user_or_account).values_list("pk", flat=True).first()
        if account_id is None:
            return ZERO
    total = LedgerEntry.objects.filter(account_id=account_id).aggregate(total=Sum("amount"))["total"]
    return _money(total or 0)


def journal_total(journal: Journal) -> Decimal:
    return _money(journal.entries.aggregate(total=Sum("amount"))["total"] or 0)


def _post(kind: str, lines: Sequence[tuple[Account, Decimal, int | None]], **fields) -> Journal:
    total = sum((amount for _, amount, _ in lines), ZERO)
    if total != ZERO:
        raise LedgerError("unbalanced", format_lazy(gettext_lazy("分录合计 {total}，不是零"), total=total))
    journal = Journal.objects.create(kind=kind, **fields)
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(journal=journal, account=account, amount=amount, seat=seat)
            for account, amount, seat in lines
        ]
    )
    return journal


# --- hands ---------------------------------------------------------------------------------------


def post_hand_settlement(*, hand, seat_users: Sequence) -> Journal:
    """Post the ended hand's payments (`hand.result["payments"]`, or under 逛花园 what was paid of them) once.

    `seat_users` holds who is accountable for each seat: a user, or `None` for a bot. Posting the same
    hand again returns the journal already written.
    """
    if hand.result is None:
        raise LedgerError("hand_in_progress")
    # 逛花园: what the chip stacks could cover is what was paid (games/services/garden.py)
    paid = (hand.result.get("garden") or {}).get("paid") or hand.result["payments"]
    payments = [_money(int(p)) for p in paid]
    if len(payments) != 4 or len(seat_users) != 4:
        raise LedgerError("unbalanced", gettext_lazy("一局结算正好四个座位"))
    with transaction.atomic():
        existing = Journal.objects.filter(kind=Journal.Kind.HAND, hand=hand).first()
        if existing is not None:
            return existing
        lines = [
            (account_for(user), amount, seat)
            for seat, (user, amount) in enumerate(zip(seat_users, payments, strict=True))
        ]
        return _post(Journal.Kind.HAND, lines, hand=hand)


# --- penalties -----------------------------------------------------------------------------------


def penalty_amount(hand) -> Decimal:
    """1 × 底分 × the hand's stake k."""
    preset = (hand.rules or {}).get("preset", "standard")
    return _money(PENALTY_BASE.get(preset, 1) * int(hand.stake))


def split_penalty(amount: Decimal) -> tuple[Decimal, Decimal]:
    """(each of the three other seats, the house): 25 % each, the house taking any odd cent."""
    share = (amount * (1 - HOUSE_SHARE) / 3).quantize(CENT, rounding=ROUND_DOWN)
    return share, amount - 3 * share


def match_seat_users(hand) -> list:
    """Who played each seat of the hand's match (from its start): a user, or None for a bot."""
    from django.contrib.auth import get_user_model

    ids = list(hand.match.players or [None] * 4)
    users = get_user_model().objects.in_bulk([i for i in ids if i is not None])
    return [users.get(i) if i is not None else None for i in ids]


def issue_penalty(
    *,
    hand,
    seat: int,
    reason: str,
    kind: str = Penalty.Kind.ADMIN,
    issued_by=None,
    seat_users: Sequence | None = None,
) -> Penalty:
    """Charge the player at `seat` of `hand` 1 × 底分 × k: 25 % to each other seat, 25 % to the house.

    `seat_users` (who is accountable for each seat) defaults to the match's players. The reason is
    required. Raises `LedgerError` and writes nothing on bad input.
    """
    reason = (reason or "").strip()
    if not reason:
        raise LedgerError("reason_required")
    if kind not in Penalty.Kind.values:
        raise LedgerError("bad_action", format_lazy(gettext_lazy("没有这种罚分：{kind}"), kind=kind))
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise LedgerError("no_such_seat")
    users = list(seat_users) if seat_users is not None else match_seat_users(hand)
    payer = users[seat]
    if payer is None:
        raise LedgerError("no_such_seat", gettext_lazy("机器人的座位不能罚分"))
    amount = penalty_amount(hand)
    share, house = split_penalty(amount)
    with transaction.atomic():
        penalty = Penalty.objects.create(
            hand=hand,
            seat=seat,
            user=payer,
            kind=kind,
            amount=amount,
            reason=reason[:200],
            issued_by=issued_by,
        )
        lines = [(account_for(payer), -amount, seat)]
        lines += [(account_for(users[other]), share, other) for other in range(4) if other != seat]
        lines.append((house_account(), house, None))
        _post(
            Journal.Kind.PENALTY, lines, hand=hand, penalty=penalty, memo=reason[:200], created_by=issued_by
        )
    return penalty


def reverse_penalty(*, penalty: Penalty, reason: str, by=None) -> Journal:
    """Write the journal that negates the penalty's entries; a penalty is reversed at most once."""
    reason = (reason or "").strip()
    if not reason:
        raise LedgerError("reason_required")
    with transaction.atomic():
        original = (
            Journal.objects.select_for_update().filter(kind=Journal.Kind.PENALTY, penalty=penalty).first()
        )
        if original is None:
            raise LedgerError("no_such_penalty")
        if Journal.objects.filter(reverses=original).exists():
            raise LedgerError("already_reversed")
        lines = [(e.account, -e.amount, e.seat) for e in original.entries.select_related("account")]
        return _post(
            Journal.Kind.REVERSAL,
            lines,
            hand=penalty.hand,
            penalty=penalty,
            reverses=original,
            memo=reason[:200],
            created_by=by,
        )


# --- bans ----------------------------------------------------------------------------------------


def is_banned(user) -> bool:
    return user is not None and Ban.objects.filter(user_id=user.pk, lifted__isnull=True).exists()
