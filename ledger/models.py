"""The money record: accounts, balanced journals of entries, penalties, and player bans.

The ledger is append-only double entry (DESIGN.md §3): every `Journal` holds entries that sum to
exactly zero, nothing is ever edited or deleted, and a correction is a new reversing journal. Only
`ledger.services` writes these rows; the guards below make an accidental edit fail loudly instead of
silently rewriting history.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models

AMOUNT = {"max_digits": 14, "decimal_places": 2}


class AppendOnlyError(Exception):
    """Raised on any attempt to change or delete a ledger row."""


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only")

    def delete(self):
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only")


class AppendOnly(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(f"{type(self).__name__} rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(f"{type(self).__name__} rows are append-only")


class Account(models.Model):
    """Whose money an entry moves: one per player, one house, one shared by every bot seat."""

    class Kind(models.TextChoices):
        PLAYER = "player", "玩家 Player"
        HOUSE = "house", "庄家 House"
        BOTS = "bots", "机器人 Bots"

    kind = models.CharField(max_length=8, choices=Kind.choices)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="account"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kind", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind"], condition=~models.Q(kind="player"), name="account_one_house_one_bots"
            ),
            models.CheckConstraint(
                condition=models.Q(kind="player", user__isnull=False)
                | (~models.Q(kind="player") & models.Q(user__isnull=True)),
                name="account_player_has_user",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.PLAYER:
            return f"player:{self.user.get_username()}"
        return self.kind


class Journal(AppendOnly):
    """One balanced posting: a hand's settlement, a penalty, or the reversal of an earlier journal."""

    class Kind(models.TextChoices):
        HAND = "hand", "结算 Hand settlement"
        PENALTY = "penalty", "罚分 Penalty"
        REVERSAL = "reversal", "冲正 Reversal"

    kind = models.CharField(max_length=8, choices=Kind.choices)
    hand = models.ForeignKey("games.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    penalty = models.ForeignKey(
        "ledger.Penalty", null=True, blank=True, on_delete=models.PROTECT, related_name="journals"
    )
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    memo = models.CharField(max_length=200, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["hand"], condition=models.Q(kind="hand"), name="journal_one_settlement_per_hand"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"


class LedgerEntry(AppendOnly):
    """One line of a journal: `amount` is credited to `account` (negative: debited)."""

    journal = models.ForeignKey(Journal, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount = models.DecimalField(**AMOUNT)
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Seat at the hand, if any.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["journal", "id"]
        verbose_name_plural = "ledger entries"

    def __str__(self) -> str:
        return f"{self.account} {self.amount:+}"


class Penalty(AppendOnly):
    """A penalty charged to a player for a hand (逃跑 / 掉线, or issued by staff).

    Its money moves in the penalty's journal; reversing it writes a second, negating journal. The row
    itself never changes: whether it is reversed is read from the journals.
    """

    class Kind(models.TextChoices):
        LEAVE = "leave", "逃跑 Left the table"
        DISCONNECT = "disconnect", "掉线 Lost connection"
        ADMIN = "admin", "管理 Issued by staff"

    hand = models.ForeignKey("games.Hand", on_delete=models.PROTECT, related_name="penalties")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="penalties")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    amount = models.DecimalField(**AMOUNT)
    reason = models.CharField(max_length=200)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "penalties"
        constraints = [models.CheckConstraint(condition=models.Q(amount__gt=0), name="penalty_positive")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.user.get_username()} {self.amount} (hand {self.hand_id})"

    @property
    def is_reversed(self) -> bool:
        return self.journals.filter(kind=Journal.Kind.REVERSAL).exists()


class Ban(models.Model):
    """A player barred from sitting down. Lifting a ban stamps it; the history stays."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bans")
    reason = models.CharField(max_length=200)
    banned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    lifted = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(lifted__isnull=True), name="ban_one_active_per_user"
            )
        ]

    def __str__(self) -> str:
        return f"ban {self.user.get_username()}" + (" (lifted)" if self.lifted else "")


ZERO = Decimal("0.00")
