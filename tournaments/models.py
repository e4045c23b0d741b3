"""Duplicate tournaments (issue 29): the event, its entrants, its rounds and their tables, and the
per-seat score of every hand played at them.

A round's tables are ordinary `games.Table` rows dealt from the round's seeds (`Round.seeds`, kept
secret until the round ends; `Round.commitments` are public from its start). Only
`tournaments.services` writes these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

DEFAULT_WATCH_DELAY = 180  # seconds a spectator's view lags behind the tables (issue 29: 3 minutes)


class Tournament(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("报名中")
        RUNNING = "running", _("进行中")
        FINISHED = "finished", _("已结束")
        CANCELLED = "cancelled", _("已取消")

    name = models.CharField(_("名称"), max_length=60)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("组织者"),
    )
    preset = models.CharField(_("玩法"), max_length=16, default="standard")
    options = models.JSONField(_("选项"), default=dict, blank=True)
    rounds = models.PositiveSmallIntegerField(_("轮数"), default=3)
    hands_per_round = models.PositiveSmallIntegerField(_("每轮局数"), default=4)
    action_seconds = models.PositiveSmallIntegerField(_("每步时间"), default=20)
    starts_at = models.DateTimeField(_("开始时间"))
    max_players = models.PositiveSmallIntegerField(_("人数上限"), default=16)
    public = models.BooleanField(_("公开"), default=True, help_text=_("不公开的比赛凭邀请链接报名。"))
    invite_code = models.CharField(_("邀请码"), max_length=16, blank=True, default="")
    bot_level = models.CharField(_("机器人等级"), max_length=16, default="normal")
    watch_delay = models.PositiveIntegerField(
        _("观战延迟"), default=DEFAULT_WATCH_DELAY, help_text=_("观战者看到的是这么多秒以前的牌局。")
    )
    status = models.CharField(_("状态"), max_length=16, choices=Status.choices, default=Status.OPEN)
    current_round = models.PositiveSmallIntegerField(_("当前轮"), default=0)
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)
    ended = models.DateTimeField(_("结束时间"), null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        verbose_name = _("比赛")
        verbose_name_plural = pgettext_lazy("plural", "比赛")

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """One entrant: a person, or a bot filling the field up to a multiple of four."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("比赛")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_entries",
        verbose_name=_("用户"),
    )
    number = models.PositiveSmallIntegerField(_("编号"))
    is_bot = models.BooleanField(_("是机器人"), default=False)
    bot_level = models.CharField(_("机器人等级"), max_length=16, blank=True, default="")
    removed = models.BooleanField(_("已除名"), default=False)
    joined = models.DateTimeField(_("报名时间"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("参赛者")
        verbose_name_plural = pgettext_lazy("plural", "参赛者")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_unique_number"),
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(user__isnull=False),
                name="entry_unique_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}:{self.number}"


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("比赛")
    )
    number = models.PositiveSmallIntegerField(_("轮次"))
    seeds = models.JSONField(_("种子"), default=list, help_text=_("每局的种子：本轮结束前保密。"))
    commitments = models.JSONField(_("承诺"), default=list, help_text=_("每局牌墙的承诺：本轮开始时公布。"))
    started = models.DateTimeField(_("开始时间"), auto_now_add=True)
    ended = models.DateTimeField(_("结束时间"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("一轮")
        verbose_name_plural = pgettext_lazy("plural", "一轮")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.number}"

    @property
    def revealed(self) -> bool:
        return self.ended is not None


class RoundTable(models.Model):
    """One table of a round: a `games.Table`, and which entry sat in each seat."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("一轮"))
    number = models.PositiveSmallIntegerField(_("桌号"))
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="round_table", verbose_name=_("牌桌")
    )
    entries = models.JSONField(_("座位"), default=list, help_text=_("每个座位的参赛者编号。"))

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("比赛牌桌")
        verbose_name_plural = pgettext_lazy("plural", "比赛牌桌")

    def __str__(self) -> str:
        return f"{self.round}/{self.number}"


class HandScore(models.Model):
    """What one seat of one table scored in one deal of a round (written as the hand ends)."""

    round_table = models.ForeignKey(
        RoundTable, on_delete=models.CASCADE, related_name="scores", verbose_name=_("比赛牌桌")
    )
    deal = models.PositiveSmallIntegerField(_("第几副牌"))
    seat = models.PositiveSmallIntegerField(_("座位"))
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="scores", verbose_name=_("参赛者")
    )
    hand = models.ForeignKey(
        "games.Hand", null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("一局")
    )
    score = models.IntegerField(_("得分"))
    dealt_in = models.BooleanField(_("放铳"), default=False)
    autoplay = models.BooleanField(_("托管"), default=False)
    ended = models.DateTimeField(_("结束时间"))

    class Meta:
        ordering = ["round_table", "deal", "seat"]
        verbose_name = _("比赛得分")
        verbose_name_plural = pgettext_lazy("plural", "比赛得分")
        constraints = [
            models.UniqueConstraint(fields=["round_table", "deal", "seat"], name="handscore_unique_seat")
        ]

    def __str__(self) -> str:
        return f"{self.round_table}/{self.deal + 1}:{self.seat}"
