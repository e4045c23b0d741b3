"""Rooms, tables and the record of every hand played at them.

Only `games.services` changes these rows (see ARCHITECTURE.md); views, consumers and the clock read
them or call a service.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
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


# The room of tournament tables (games/services/planned.py): made on first use, left out of the lobby
# (its tables are private while their round is played). A name, not words: the same in every language.
TOURNAMENT_ROOM = "tournaments"


class Room(models.Model):
    """A place with one set of rules; it holds any number of tables."""

    class Preset(models.TextChoices):
        STANDARD = "standard", _("标准")
        LAZI = "lazi", _("喇子")
        HOME = "home", _("家庭")

    name = models.CharField(_("名称"), max_length=60, unique=True)
    preset = models.CharField(_("玩法"), max_length=16, choices=Preset.choices, default=Preset.STANDARD)
    rules_options = models.JSONField(
        _("房间选项"), default=dict, blank=True, help_text=_("房间的规则选项（规则 §11）。")
    )
    discard_timeout = models.PositiveSmallIntegerField(_("出牌时间"), default=20, help_text=_("出牌的秒数。"))
    claim_timeout = models.PositiveSmallIntegerField(
        _("吃碰时间"), default=20, help_text=_("回应吃碰胡的秒数。")
    )
    bot_delay = models.DecimalField(
        _("机器人思考时间"),
        max_digits=5,
        decimal_places=2,
        default=Decimal("1.0"),
        help_text=_("机器人思考的延迟（秒）。"),
    )
    bot_level = models.CharField(_("机器人等级"), max_length=16, default="easy")
    claim_pause = models.DecimalField(
        _("吃碰等待"),
        max_digits=4,
        decimal_places=2,
        default=Decimal("1.0"),
        help_text=_("有真人的桌上，每张打出的牌等待吃碰的秒数，不论能否吃碰。"),
    )
    stakes = models.JSONField(_("可选底分"), default=_default_stakes, help_text=_("桌主可以选择的底分 k。"))
    ready_timeout = models.PositiveSmallIntegerField(
        _("准备时间"),
        default=15,
        help_text=_(
            "一位玩家按了开始后，其他人按开始的秒数；也是一局结束后，不等没按下一局的人、发下一局之前的秒数。"
        ),
    )
    grace_period = models.PositiveSmallIntegerField(
        _("断线宽限"), default=60, help_text=_("断线的玩家在这么多秒内回来就不罚分。")
    )
    is_open = models.BooleanField(_("开放"), default=True)
    allowed_presets = models.JSONField(
        _("可选玩法"), default=_all_presets, help_text=_("玩家开新桌时可以选的玩法。")
    )
    allowed_options = models.JSONField(
        _("可选选项"), default=_all_table_options, help_text=_("玩家开新桌时可以设定的房间选项（§11）。")
    )
    timer_min = models.PositiveSmallIntegerField(
        _("最短计时"), default=5, help_text=_("桌子可以选的最短计时（秒）。")
    )
    timer_max = models.PositiveSmallIntegerField(
        _("最长计时"), default=120, help_text=_("桌子可以选的最长计时（秒）。")
    )
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("房间")
        verbose_name_plural = pgettext_lazy("plural", "房间")

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    """Four seats and the hand being played there.

    `version` grows with every change (`games.store` moves it: a claim window always ends the same
    number of versions after the discard that opened it); clients send it back with each action so that a stale
    action is refused. `state` is how the current hand was dealt and how many actions its log holds
    (hidden information: it never leaves the server); the log is the hand's `Action` rows, and only
    `games.store` reads or writes either. `hand` is the hand's row, kept on the table so that finding
    the current hand needs no join over matches. `deadline` is when the clock must next look at this table.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("等待")
        PLAYING = "playing", _("进行中")
        FINISHED = "finished", _("结束")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="tables", verbose_name=_("房间"))
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("桌主"),
    )
    status = models.CharField(_("状态"), max_length=16, choices=Status.choices, default=Status.WAITING)
    version = models.PositiveIntegerField(_("版本"), default=0)
    state = models.JSONField(_("局面"), null=True, blank=True)
    deadline = models.DateTimeField(_("下次检查"), null=True, blank=True, db_index=True)
    turn_deadline = models.DateTimeField(
        _("等待截止"), null=True, blank=True, help_text=_("正在等的座位何时超时（显示为倒计时）。")
    )
    changed = models.DateTimeField(
        _("局面更新时间"), null=True, blank=True, help_text=_("局面上次改变的时间。")
    )
    dealer = models.PositiveSmallIntegerField(_("庄家"), null=True, blank=True)
    huangfan = models.PositiveSmallIntegerField(_("荒番数"), default=0)
    gengfeng = models.PositiveSmallIntegerField(
        _("跟风次数"), default=0, help_text=_("这四位玩家在本场已有几次跟风（家庭玩法）。")
    )
    scores = models.JSONField(_("得分"), default=_zero_scores)
    stake = models.PositiveIntegerField(
        _("本桌底分"), null=True, blank=True, help_text=_("桌主设定的底分 k。")
    )
    closing = models.BooleanField(_("待关闭"), default=False, help_text=_("本局结束后关闭这张桌子。"))
    # What the table tells everyone that the game state does not say (games.services.table_notes).
    notes = models.JSONField(
        _("牌桌提示"), default=dict, blank=True, help_text=_("谁离座及原因、哪张牌是超时自动打出的。")
    )
    # The players' choices (games.services.table_settings): blank / null / absent keys mean the room's.
    preset = models.CharField(_("玩法"), max_length=16, blank=True, default="")
    options = models.JSONField(_("选项"), default=dict, blank=True, help_text=_("这张桌子选的房间选项。"))
    discard_timeout = models.PositiveSmallIntegerField(_("出牌时间"), null=True, blank=True)
    claim_timeout = models.PositiveSmallIntegerField(_("吃碰时间"), null=True, blank=True)
    private = models.BooleanField(_("私人桌"), default=False, help_text=_("不在大厅显示，凭邀请链接入座。"))
    invite_code = models.CharField(_("私人桌邀请码"), max_length=16, null=True, blank=True, unique=True)
    pool = models.ForeignKey(
        "Pool",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tables",
        verbose_name=_("快速开始池"),
        help_text=_("快速开始开的桌子：从哪个池子。"),
    )
    hand = models.ForeignKey(
        "Hand",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("当前一局"),
        help_text=_("这里最后发的一局：正在打，或刚结束（发牌时设定）。"),
    )
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("牌桌")
        verbose_name_plural = pgettext_lazy("plural", "牌桌")

    def __str__(self) -> str:
        return f"{self.room.name} #{self.pk}"

    @property
    def group_name(self) -> str:
        return f"table-{self.pk}"


class Seat(models.Model):
    """One of the four places at a table: empty, a person, or a bot."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("牌桌"))
    index = models.PositiveSmallIntegerField(_("座位"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
        verbose_name=_("用户"),
    )
    is_bot = models.BooleanField(_("是机器人"), default=False)
    bot_level = models.CharField(_("机器人等级"), max_length=16, blank=True, default="")
    connected = models.BooleanField(_("在线"), default=False)
    seen = models.DateTimeField(
        _("最后在线"),
        null=True,
        blank=True,
        help_text=_("这个人的连接最后一次证明他在线的时间（在线心跳）。"),
    )
    stake_accepted = models.BooleanField(_("已接受底分"), default=False)
    ready = models.BooleanField(
        _("已准备"),
        default=False,
        help_text=_("在本次准备倒计时里按了开始，或本局结束后按了下一局。"),
    )
    autoplay = models.BooleanField(_("托管"), default=False, help_text=_("托管：机器人替这个人打这个座位。"))
    autoplay_reason = models.CharField(
        _("托管原因"), max_length=8, blank=True, default="", help_text=_("timeouts（超时）| away（离线）")
    )
    timeouts = models.PositiveSmallIntegerField(_("超时次数"), default=0, help_text=_("连续超时的次数。"))
    away_since = models.DateTimeField(
        _("离线时间"), null=True, blank=True, help_text=_("打牌时从这时起断线。")
    )
    leave_after_hand = models.BooleanField(
        _("本局后离座"), default=False, help_text=_("本局结束后站起（被禁止入座）。")
    )

    class Meta:
        ordering = ["table", "index"]
        verbose_name = _("座位")
        verbose_name_plural = pgettext_lazy("plural", "座位")
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

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="matches", verbose_name=_("牌桌"))
    players = models.JSONField(_("玩家"), default=list, help_text=_("每个座位：用户编号；机器人为空值。"))
    started = models.DateTimeField(_("开始时间"), auto_now_add=True)
    ended = models.DateTimeField(_("结束时间"), null=True, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("一场")
        verbose_name_plural = pgettext_lazy("plural", "一场")

    def __str__(self) -> str:
        return gettext("一场 #{id}").format(id=self.pk)


class Hand(models.Model):
    """One hand: its seed and commitment (provable fairness), rules, and result."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands", verbose_name=_("一场"))
    number = models.PositiveIntegerField(_("局号"))
    seed = models.CharField(_("种子"), max_length=64, blank=True, default="")
    commitment = models.CharField(_("承诺"), max_length=64)
    rules = models.JSONField(_("规则设定"), default=dict)
    dealer = models.PositiveSmallIntegerField(_("庄家"))
    huangfan = models.PositiveSmallIntegerField(_("荒番数"), default=0)
    gengfeng = models.PositiveSmallIntegerField(
        _("跟风次数"), default=0, help_text=_("这一局之前本场已有几次跟风（家庭玩法）。")
    )
    stake = models.PositiveIntegerField(_("本桌底分"), default=1)
    result = models.JSONField(_("结果"), null=True, blank=True)
    started = models.DateTimeField(_("开始时间"), auto_now_add=True)
    ended = models.DateTimeField(_("结束时间"), null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("一局")
        verbose_name_plural = pgettext_lazy("plural", "一局")
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="hand_unique_number")]

    def __str__(self) -> str:
        return gettext("第 {number} 局（#{id}）").format(number=self.number, id=self.pk)


class Action(models.Model):
    """Append-only log of what each seat did in a hand, in order (`seq` from 1)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions", verbose_name=_("一局"))
    seq = models.PositiveIntegerField(_("序号"))
    seat = models.PositiveSmallIntegerField(_("座位"))
    action = models.CharField(_("操作"), max_length=32)
    version = models.PositiveIntegerField(_("版本"))
    by_clock = models.BooleanField(_("自动"), default=False, help_text=_("由机器人或超时打出。"))
    created = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        ordering = ["hand", "seq"]
        verbose_name = _("操作")
        verbose_name_plural = pgettext_lazy("plural", "操作")
        constraints = [models.UniqueConstraint(fields=["hand", "seq"], name="action_unique_seq")]

    def __str__(self) -> str:
        return gettext("局 #{hand} 第 {seq} 步").format(hand=self.hand_id, seq=self.seq)


class Pool(models.Model):
    """A quick-start pool (快速开始, issue 30): one of the room's presets and options × one of its
    stakes. People wait in it and the clock seats them four at a time at a new table
    (`games.services.pairing`); staff switch a pool off here."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="pools", verbose_name=_("房间"))
    preset = models.CharField(
        _("玩法"), max_length=16, blank=True, default="", help_text=_("空：房间的玩法。")
    )
    options = models.JSONField(_("选项"), default=dict, blank=True, help_text=_("这个池子选的房间选项。"))
    stake = models.PositiveIntegerField(_("底分"), help_text=_("房间可选底分之一；加入池子即接受。"))
    is_active = models.BooleanField(_("开放"), default=True)
    order = models.PositiveSmallIntegerField(_("顺序"), default=0)
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["room", "order", "id"]
        verbose_name = _("快速开始池")
        verbose_name_plural = pgettext_lazy("plural", "快速开始池")

    def __str__(self) -> str:
        return gettext("{room} · 底分 {stake}").format(room=self.room.name, stake=self.stake)

    @property
    def preset_label(self) -> str:
        """The name of the pool's preset (the room's when the pool leaves it blank)."""
        code = self.preset or self.room.preset
        return Room.Preset(code).label if code in Room.Preset.values else code


class PoolEntry(models.Model):
    """A person waiting in a pool: at most one entry per person (one pool at a time).

    `expires`: the entry counts until then; the person's lobby socket keeps moving it on
    (`pairing.pool_vouch`), so a closed browser drops out of the pool by itself."""

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="entries", verbose_name=_("池子"))
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pool_entry", verbose_name=_("用户")
    )
    rating = models.FloatField(_("等级分"), help_text=_("加入时的等级分（μ），用来配对水平相近的人。"))
    fill_after = models.PositiveSmallIntegerField(
        _("机器人补位秒数"), null=True, blank=True, help_text=_("等这么多秒后，用机器人补满空位；空：不补。")
    )
    joined = models.DateTimeField(_("加入时间"))
    expires = models.DateTimeField(_("过期时间"), db_index=True)

    class Meta:
        ordering = ["pool", "joined", "id"]
        verbose_name = _("排队")
        verbose_name_plural = pgettext_lazy("plural", "排队")

    def __str__(self) -> str:
        return f"{self.pool_id}:{self.user_id}"
