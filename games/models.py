"""Rooms, tables and the record of every hand played at them.

Only `games.services` changes these rows (see DESIGN.md §3); views, consumers and the clock read
them or call a service.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def _zero_scores() -> list[int]:
    return [0, 0, 0, 0]


def _default_stakes() -> list[int]:
    return [1, 2, 5, 10]


def _all_presets() -> list[str]:
    return ["standard", "lazi", "home"]


def _all_table_options() -> list[str]:
    from games.table_options import TABLE_OPTION_KEYS  # a data module; imported late to stay a leaf

    return list(TABLE_OPTION_KEYS)


class Room(models.Model):
    """A place with one set of rules; it holds any number of tables."""

    class Preset(models.TextChoices):
        STANDARD = "standard", _("标准")
        LAZI = "lazi", _("喇子")
        HOME = "home", _("家庭")

    name = models.CharField(max_length=60, unique=True)
    preset = models.CharField(max_length=16, choices=Preset.choices, default=Preset.STANDARD)
    rules_options = models.JSONField(default=dict, blank=True, help_text="House options (rules §11).")
    discard_timeout = models.PositiveSmallIntegerField(default=20, help_text="Seconds to discard.")
    claim_timeout = models.PositiveSmallIntegerField(default=20, help_text="Seconds to answer a claim.")
    bot_delay = models.DecimalField(
        max_digits=5, decimal_places=2, default=Decimal("1.0"), help_text="Bot think delay in seconds."
    )
    bot_level = models.CharField(max_length=16, default="easy")
    claim_pause = models.DecimalField(
        max_digits=4,
        decimal_places=2,
        default=Decimal("1.0"),
        help_text="Seconds every discard waits for claims at tables with people, claimable or not.",
    )
    stakes = models.JSONField(default=_default_stakes, help_text="Stakes k (底分) a table owner may choose.")
    ready_timeout = models.PositiveSmallIntegerField(
        default=15,
        help_text="Seconds the others have to press Start once one player has; also how long after a hand "
        "ends the next one is dealt to whoever has not pressed Next hand.",
    )
    grace_period = models.PositiveSmallIntegerField(
        default=60, help_text="Seconds a disconnected player may return within before the penalty."
    )
    is_open = models.BooleanField(default=True)
    allowed_presets = models.JSONField(
        default=_all_presets, help_text="Presets a player may choose for a new table."
    )
    allowed_options = models.JSONField(
        default=_all_table_options, help_text="House options (§11) a player may set for a new table."
    )
    timer_min = models.PositiveSmallIntegerField(
        default=5, help_text="Shortest timer a table may choose (s)."
    )
    timer_max = models.PositiveSmallIntegerField(
        default=120, help_text="Longest timer a table may choose (s)."
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    """Four seats and the hand being played there.

    `version` grows by one with every change; clients send it back with each action so that a stale
    action is refused. `state` is how the current hand was dealt and how many actions its log holds
    (hidden information: it never leaves the server); the log is the hand's `Action` rows, and only
    `games.store` reads or writes either. `hand` is the hand's row, kept on the table so that finding
    the current hand needs no join over matches. `deadline` is when the clock must next look at this table.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("等待")
        PLAYING = "playing", _("进行中")
        FINISHED = "finished", _("结束")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="tables")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_deadline = models.DateTimeField(
        null=True, blank=True, help_text="When the seats being waited on time out (shown as a countdown)."
    )
    changed = models.DateTimeField(null=True, blank=True, help_text="When the hand state last changed.")
    dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    huangfan = models.PositiveSmallIntegerField(default=0)
    scores = models.JSONField(default=_zero_scores)
    stake = models.PositiveIntegerField(null=True, blank=True, help_text="The stake k (底分) the owner set.")
    closing = models.BooleanField(default=False, help_text="Close the table once the current hand ends.")
    # The players' choices (games.services.table_settings): blank / null / absent keys mean the room's.
    preset = models.CharField(max_length=16, blank=True, default="")
    options = models.JSONField(default=dict, blank=True, help_text="House options chosen for this table.")
    discard_timeout = models.PositiveSmallIntegerField(null=True, blank=True)
    claim_timeout = models.PositiveSmallIntegerField(null=True, blank=True)
    private = models.BooleanField(default=False, help_text="Not listed in the lobby; joined by invite link.")
    invite_code = models.CharField(max_length=6, null=True, blank=True, unique=True)
    hand = models.ForeignKey(
        "Hand",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The hand dealt last here: being played, or just ended (set when it is dealt).",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.room.name} #{self.pk}"

    @property
    def group_name(self) -> str:
        return f"table-{self.pk}"


class Seat(models.Model):
    """One of the four places at a table: empty, a person, or a bot."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=16, blank=True, default="")
    connected = models.BooleanField(default=False)
    seen = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a live socket last vouched for this person (presence heartbeat).",
    )
    stake_accepted = models.BooleanField(default=False)
    ready = models.BooleanField(
        default=False,
        help_text="Pressed Start in the current ready check, or Next hand since the hand ended.",
    )
    autoplay = models.BooleanField(default=False, help_text="托管: a bot plays this person's seat.")
    autoplay_reason = models.CharField(max_length=8, blank=True, default="", help_text="timeouts | away")
    timeouts = models.PositiveSmallIntegerField(default=0, help_text="Consecutive timeouts.")
    away_since = models.DateTimeField(null=True, blank=True, help_text="Disconnected during a hand since.")
    leave_after_hand = models.BooleanField(default=False, help_text="Stand up when the hand ends (banned).")

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.CheckConstraint(condition=models.Q(index__lte=3), name="seat_index_0_3"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.index}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.is_bot


class Match(models.Model):
    """One session at a table: from the first start to the table closing."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="matches")
    players = models.JSONField(default=list, help_text="Per seat: user id, or null for a bot.")
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]


class Hand(models.Model):
    """One hand: its seed and commitment (provable fairness), rules, and result."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    seed = models.CharField(max_length=64, blank=True, default="")
    commitment = models.CharField(max_length=64)
    rules = models.JSONField(default=dict)
    dealer = models.PositiveSmallIntegerField()
    huangfan = models.PositiveSmallIntegerField(default=0)
    stake = models.PositiveIntegerField(default=1)
    result = models.JSONField(null=True, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="hand_unique_number")]


class Action(models.Model):
    """Append-only log of what each seat did in a hand, in order (`seq` from 1)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=32)
    version = models.PositiveIntegerField()
    by_clock = models.BooleanField(default=False, help_text="Played by a bot or a timeout.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [models.UniqueConstraint(fields=["hand", "seq"], name="action_unique_seq")]
