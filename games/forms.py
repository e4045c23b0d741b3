"""Forms for players' and staff's choices: a new table, and the house options of a room.

The forms only parse; what is allowed is decided by the services (`table_settings.clean_choices`,
`rooms.check_room_settings`), whose refusals are shown beside the fields they name.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.table_options import DEFAULTS, OPTIONS_BY_KEY, PRESET_NAMES, Option

OPTION_PREFIX = "opt_"


def option_field(option: Option, *, initial: Any) -> forms.Field:
    """One form field for a house option, labelled and explained underneath."""
    common = {"label": option.label, "help_text": option.help, "required": False}
    if option.kind == "flag":
        return forms.BooleanField(initial=bool(initial), **common)
    if option.kind == "choice":
        return forms.ChoiceField(choices=option.choices, initial=initial, **common)
    return forms.IntegerField(min_value=1, initial=None if initial == option.off else initial, **common)


def option_value(option: Option, raw: Any) -> Any:
    """A cleaned field value as the engine's `Rules` field (empty: the option's 'off' / default)."""
    if option.kind == "flag":
        return bool(raw)
    if option.kind == "choice":
        return raw or DEFAULTS[option.key]
    return option.off if raw is None else raw


def add_option_fields(form: forms.Form, options: list[Option], values: dict[str, Any]) -> None:
    for option in options:
        form.fields[OPTION_PREFIX + option.key] = option_field(option, initial=values.get(option.key))


def options_from(form: forms.Form, options: list[Option]) -> dict[str, Any]:
    return {o.key: option_value(o, form.cleaned_data.get(OPTION_PREFIX + o.key)) for o in options}


class TableForm(forms.Form):
    """A new table in `room`: preset, the options the room lets tables set, timers, stake, privacy."""

    preset = forms.ChoiceField(label=_("玩法"))
    stake = forms.TypedChoiceField(label=_("底分"), coerce=int, required=False, empty_value=None)
    discard_timeout = forms.IntegerField(label=_("出牌时间（秒）"))
    claim_timeout = forms.IntegerField(label=_("吃碰时间（秒）"))
    private = forms.BooleanField(
        label=_("私人桌"),
        required=False,
        help_text=_("不在大厅显示，凭邀请链接入座。"),
    )

    def __init__(self, *args, room, effective: dict[str, Any], stakes: list[int], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.room = room
        self.fields["preset"].choices = [
            (p, PRESET_NAMES[p]) for p in PRESET_NAMES if p in room.allowed_presets
        ]
        self.fields["preset"].initial = room.preset
        self.fields["stake"].choices = [("", _("稍后设定"))] + [(k, str(k)) for k in stakes]
        for name, default in (
            ("discard_timeout", room.discard_timeout),
            ("claim_timeout", room.claim_timeout),
        ):
            self.fields[name].initial = default
            self.fields[name].help_text = format_lazy(
                _("{low}–{high} 秒"), low=room.timer_min, high=room.timer_max
            )
            # A hint for the browser; the limits themselves are checked by the service.
            self.fields[name].widget.attrs.update({"min": room.timer_min, "max": room.timer_max})
        self.options = [OPTIONS_BY_KEY[key] for key in room.allowed_options if key in OPTIONS_BY_KEY]
        add_option_fields(self, self.options, effective)
        # The fields of the options only `standard` uses: the page shows them only for that preset.
        self.standard_only = {OPTION_PREFIX + o.key for o in self.options if o.standard_only}

    def chosen_options(self) -> dict[str, Any]:
        return options_from(self, self.options)
