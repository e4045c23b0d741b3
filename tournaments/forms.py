"""The form for a new tournament: it only parses; `services.tournament_create` decides what is
allowed (its refusals are shown on the form)."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.names import BOT_LEVELS
from games.table_options import PRESET_NAMES


def _soon():
    return (timezone.localtime() + timedelta(minutes=30)).replace(second=0, microsecond=0)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("名称"), max_length=60)
    preset = forms.ChoiceField(label=_("玩法"), choices=list(PRESET_NAMES.items()), initial="standard")
    rounds = forms.IntegerField(label=_("轮数"), min_value=1, max_value=10, initial=3)
    hands_per_round = forms.IntegerField(label=_("每轮局数"), min_value=1, max_value=16, initial=4)
    action_seconds = forms.IntegerField(label=_("每步时间（秒）"), min_value=5, max_value=120, initial=20)
    starts_at = forms.DateTimeField(
        label=_("开始时间"),
        initial=_soon,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    max_players = forms.IntegerField(label=_("人数上限"), min_value=4, max_value=256, initial=16)
    public = forms.BooleanField(label=_("公开"), required=False, initial=True)
    bot_level = forms.ChoiceField(label=_("补位机器人"), choices=list(BOT_LEVELS.items()), initial="normal")
    watch_delay = forms.IntegerField(label=_("观战延迟（分钟）"), min_value=0, max_value=60, initial=3)

    def clean_watch_delay(self) -> int:
        return self.cleaned_data["watch_delay"] * 60
