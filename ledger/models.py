"""The money record: accounts, balanced journals of entries, penalties, and player bans.

The ledger is append-only double entry (ledger/README.md): every `Journal` holds entries that sum to
exactly zero, nothing is ever edited or deleted, and a correction is a new reversing journal. Only
`ledger.services` writes these rows; the guards below make an accidental edit fail loudly instead of
silently rewriting history.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

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
        PLAYER = "player", _("玩家")
        HOUSE = "house", pgettext_lazy("account", "庄家")
        BOTS = "bots", pgettext_lazy("account", "机器人")

    kind = models.CharField(_("类别"), max_length=8, choices=Kind.choices)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="account",
        verbose_name=_("用户"),
    )
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["kind", "id"]
        verbose_name = _("账户")
        verbose_name_plural = pgettext_lazy("plural", "账户")
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
            return gettext("玩家：{name}").format(name=self.user.get_username())
        return str(self.get_kind_display())


class Journal(AppendOnly):
    """One balanced posting: a hand's settlement, a penalty, or the reversal of an earlier journal."""

    class Kind(models.TextChoices):
        HAND = "hand", _("牌局结算")
        PENALTY = "penalty", _("罚分")
        REVERSAL = "reversal", _("冲正分录")

    kind = models.CharField(_("类别"), max_length=8, choices=Kind.choices)
    hand = models.ForeignKey(
        "games.Hand",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("一局"),
    )
    penalty = models.ForeignKey(
        "ledger.Penalty",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="journals",
        verbose_name=_("罚分"),
    )
    reverses = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversed_by",
        verbose_name=_("冲正的分录"),
    )
    memo = models.CharField(_("备注"), max_length=200, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("操作人"),
    )
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("分录")
        verbose_name_plural = pgettext_lazy("plural", "分录")
        constraints = [
            models.UniqueConstraint(
                fields=["hand"], condition=models.Q(kind="hand"), name="journal_one_settlement_per_hand"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"


class LedgerEntry(AppendOnly):
    """One line of a journal: `amount` is credited to `account` (negative: debited)."""

    journal = models.ForeignKey(
        Journal, on_delete=models.PROTECT, related_name="entries", verbose_name=_("分录")
    )
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="entries", verbose_name=_("账户")
    )
    amount = models.DecimalField(_("金额"), **AMOUNT)
    seat = models.PositiveSmallIntegerField(
        _("座位"), null=True, blank=True, help_text=_("在这局的座位（如有）。")
    )
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["journal", "id"]
        verbose_name = _("账目")
        verbose_name_plural = pgettext_lazy("plural", "账目")

    def __str__(self) -> str:
        return f"{self.account} {self.amount:+}"


class Penalty(AppendOnly):
    """A penalty charged to a player for a hand (逃跑 / 掉线, or issued by staff).

    Its money moves in the penalty's journal; reversing it writes a second, negating journal. The row
    itself never changes: whether it is reversed is read from the journals.
    """

    class Kind(models.TextChoices):
        LEAVE = "leave", _("逃跑")
        DISCONNECT = "disconnect", _("掉线")
        ADMIN = "admin", _("管理员开出")

    hand = models.ForeignKey(
        "games.Hand", on_delete=models.PROTECT, related_name="penalties", verbose_name=_("一局")
    )
    seat = models.PositiveSmallIntegerField(_("座位"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="penalties", verbose_name=_("用户")
    )
    kind = models.CharField(_("类别"), max_length=12, choices=Kind.choices)
    amount = models.DecimalField(_("金额"), **AMOUNT)
    reason = models.CharField(_("原因"), max_length=200)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("开出人"),
    )
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("罚分")
        verbose_name_plural = pgettext_lazy("plural", "罚分")
        constraints = [models.CheckConstraint(condition=models.Q(amount__gt=0), name="penalty_positive")]

    def __str__(self) -> str:
        return gettext("{kind} {user} {amount}（局 #{hand}）").format(
            kind=self.get_kind_display(), user=self.user.get_username(), amount=self.amount, hand=self.hand_id
        )

    @property
    def is_reversed(self) -> bool:
        return self.journals.filter(kind=Journal.Kind.REVERSAL).exists()


class Ban(models.Model):
    """A player barred from sitting down. Lifting a ban stamps it; the history stays."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bans", verbose_name=_("用户")
    )
    reason = models.CharField(_("原因"), max_length=200)
    banned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("禁止人"),
    )
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)
    lifted = models.DateTimeField(_("解除时间"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("解除人"),
    )

    class Meta:
        ordering = ["-id"]
        verbose_name = _("禁止入座")
        verbose_name_plural = pgettext_lazy("plural", "禁止入座")
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(lifted__isnull=True), name="ban_one_active_per_user"
            )
        ]

    def __str__(self) -> str:
        if self.lifted:
            return gettext("禁止 {user}（已解除）").format(user=self.user.get_username())
        return gettext("禁止 {user}").format(user=self.user.get_username())


ZERO = Decimal("0.00")
