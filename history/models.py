"""What history keeps about finished hands: who sat where and how it went, and skill ratings.

`HandRecord` rows are derived from `games.Hand.result` when a hand ends (one per seat) so that the
statistics and history pages read narrow indexed rows instead of decoding every hand's JSON.
`Rating` holds a player's current OpenSkill (Plackett-Luce) rating overall (`room` null) and per
room; `RatingChange` is its history, one row per rated hand, for the chart. Only
`history.services` writes these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.names import bot_name


class Player(models.Model):
    """Whoever can sit in a seat: a person, or a bot level (every bot of one level is one player)."""

    key = models.CharField(
        _("标识"), max_length=40, unique=True, help_text=_('"u" 加用户编号，或 "bot-" 加机器人等级。')
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="history_player",
        verbose_name=_("用户"),
    )
    bot_level = models.CharField(_("机器人等级"), max_length=16, blank=True, default="")

    class Meta:
        ordering = ["id"]
        verbose_name = _("玩家")
        verbose_name_plural = pgettext_lazy("plural", "玩家")

    def __str__(self) -> str:
        return self.key

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    def name_at(self, seat: int) -> str:
        """The name at one seat: a bot is named for its seat as the table named it (机器人·甲（普通）)."""
        return bot_name(seat, self.bot_level) if self.user_id is None else self.name

    @property
    def name(self) -> str:
        """Display name; callers list players with `select_related("user__profile")`."""
        if self.user_id is None:
            return bot_name(None, self.bot_level)
        profile = getattr(self.user, "profile", None)
        return (profile.display_name if profile else "") or self.user.get_username()


class HandRecord(models.Model):
    """One seat of one finished hand, as the seat's player experienced it."""

    hand = models.ForeignKey(
        "games.Hand", on_delete=models.CASCADE, related_name="records", verbose_name=_("一局")
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("一场")
    )
    room = models.ForeignKey("games.Room", on_delete=models.CASCADE, related_name="+", verbose_name=_("房间"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="hands", verbose_name=_("玩家"))
    seat = models.PositiveSmallIntegerField(_("座位"))
    ended = models.DateTimeField(_("结束时间"))
    is_dealer = models.BooleanField(_("庄家"), default=False)
    drawn = models.BooleanField(_("流局"), default=False, help_text=_("这局没有人胡（流局）。"))
    won = models.BooleanField(_("胡牌"), default=False)
    self_drawn = models.BooleanField(_("自摸"), default=False, help_text=_("胡牌时没有放冲者（自摸之类）。"))
    dealt_in = models.BooleanField(
        pgettext_lazy("role", "放冲"), default=False, help_text=_("打出（或上杠）的牌被别人胡了。")
    )
    payment = models.IntegerField(_("收付"), help_text=_("这个座位收到的分（负数：付出），已乘底分。"))
    pattern = models.CharField(_("番种"), max_length=24, blank=True, default="")
    features = models.JSONField(_("加番"), default=list, blank=True)
    win_kind = models.CharField(_("胡法"), max_length=24, blank=True, default="")
    value = models.IntegerField(_("胡牌分值"), default=0, help_text=_("胡的这手牌的分值（没胡为 0）。"))

    class Meta:
        ordering = ["id"]
        verbose_name = _("每局记录")
        verbose_name_plural = pgettext_lazy("plural", "每局记录")
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="handrecord_unique_seat")]
        indexes = [
            # Covers the statistics pass (player's rows in order, the columns it counts).
            models.Index(
                fields=["player", "id", "payment", "won", "self_drawn", "dealt_in", "drawn"],
                name="handrecord_player_pass",
            ),
            models.Index(fields=["player", "match"], name="handrecord_player_match"),
            models.Index(fields=["player", "room", "id"], name="handrecord_player_room_id"),
        ]

    def __str__(self) -> str:
        return gettext("局 #{hand} 座位 {seat}").format(hand=self.hand_id, seat=self.seat)


class Rating(models.Model):
    """A player's current rating, overall (`room` is null) or in one room."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("玩家")
    )
    room = models.ForeignKey(
        "games.Room",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("房间"),
    )
    mu = models.FloatField("μ")
    sigma = models.FloatField("σ")
    ordinal = models.FloatField(_("等级分"), db_index=True, help_text=_("μ − 3σ：排行榜按它排序。"))
    hands = models.PositiveIntegerField(_("局数"), default=0, help_text=_("打过的局数（含流局）。"))
    rated_hands = models.PositiveIntegerField(_("计分局数"), default=0)
    updated = models.DateTimeField(_("更新时间"), auto_now=True)

    class Meta:
        ordering = ["-ordinal"]
        verbose_name = _("等级分")
        verbose_name_plural = pgettext_lazy("plural", "等级分")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "room"], condition=models.Q(room__isnull=False), name="rating_one_per_room"
            ),
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(room__isnull=True), name="rating_one_overall"
            ),
        ]

    def __str__(self) -> str:
        return gettext("{player} 的等级分").format(player=self.player)


class RatingChange(models.Model):
    """The rating after one rated hand."""

    rating = models.ForeignKey(
        Rating, on_delete=models.CASCADE, related_name="changes", verbose_name=_("等级分")
    )
    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="+", verbose_name=_("一局"))
    mu = models.FloatField("μ")
    sigma = models.FloatField("σ")
    ordinal = models.FloatField(_("等级分"))
    created = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("等级分变化")
        verbose_name_plural = pgettext_lazy("plural", "等级分变化")
        indexes = [models.Index(fields=["rating", "id"], name="ratingchange_rating_id")]


class HandReview(models.Model):
    """复盘 of one seat of one finished hand (`games.engine.review`), computed once in the background
    and served from here after that (`history.reviews`).

    A row is created `pending` when someone first asks; whoever asks next restarts a pending row
    whose work has not been heard of for a while (a server restart loses the thread, not the row).
    `version` is the engine's `review.VERSION`: a review of an older version is computed again."""

    PENDING, DONE, FAILED = "pending", "done", "failed"
    STATUSES = [(PENDING, _("计算中")), (DONE, _("完成")), (FAILED, _("失败"))]

    hand = models.ForeignKey(
        "games.Hand", on_delete=models.CASCADE, related_name="reviews", verbose_name=_("一局")
    )
    seat = models.PositiveSmallIntegerField(_("座位"))
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reviews",
        verbose_name=_("玩家"),
        help_text=_("这个座位的玩家（复盘统计的归属）。"),
    )
    status = models.CharField(_("状态"), max_length=8, choices=STATUSES, default=PENDING)
    version = models.PositiveSmallIntegerField(_("版本"), default=0)
    started = models.DateTimeField(_("开始计算"), null=True, blank=True)
    finished = models.DateTimeField(_("完成时间"), null=True, blank=True)
    data = models.JSONField(_("复盘"), null=True, blank=True)
    decisions = models.PositiveIntegerField(_("决策数"), default=0)
    agreement = models.FloatField(_("一致率"), default=0.0)
    mistakes = models.PositiveIntegerField(_("失误"), default=0)
    useful_lost = models.PositiveIntegerField(_("送出的有效牌"), default=0)

    class Meta:
        ordering = ["id"]
        verbose_name = _("复盘")
        verbose_name_plural = pgettext_lazy("plural", "复盘")
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="handreview_unique_seat")]
        indexes = [models.Index(fields=["player", "status", "id"], name="handreview_player_done")]

    def __str__(self) -> str:
        return gettext("局 #{hand} 座位 {seat} 的复盘").format(hand=self.hand_id, seat=self.seat)
