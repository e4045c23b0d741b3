"""Staff pages for rooms, tables and player bans. Changes that affect play go through `games.services`."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import selectors
from games.forms import OPTION_PREFIX, option_field, options_from
from games.names import BOT_LEVELS, name_of
from games.table_options import DEFAULTS, OPTIONS, PRESET_NAMES, ROOM_NUMBERS
from ledger.models import Ban

from .models import Action, Hand, Match, Room, Seat, Table
from .services import ban_player, load_state, room_close, table_close, unban_player
from .services.rooms import ROOM_FIELDS, RoomSettingsError, check_room_settings, room_save


@admin.display(description=gettext_lazy("机器人等级"))
def bot_level(_model_admin, obj) -> str:
    """The level's word in the page's language (the row holds its code: easy, normal, hard)."""
    return name_of(BOT_LEVELS, obj.bot_level) if obj.bot_level else "—"


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    level = bot_level
    fields = (
        "index",
        "user",
        "is_bot",
        "level",
        "connected",
        "stake_accepted",
        "ready",
        "autoplay",
        "timeouts",
    )
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


ROOM_OPTIONS = [*OPTIONS, *ROOM_NUMBERS]


class _RoomForm(forms.ModelForm):
    """Room settings with a field per house option (no raw JSON); `games.services.rooms` checks and
    saves them."""

    allowed_presets = forms.MultipleChoiceField(
        label=gettext_lazy("可选玩法"),
        choices=list(PRESET_NAMES.items()),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    allowed_options = forms.MultipleChoiceField(
        label=gettext_lazy("可选选项"),
        choices=[(o.key, o.label) for o in OPTIONS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    class Meta:
        model = Room
        exclude = ("rules_options", "allowed_presets", "allowed_options")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        room = self.instance
        if room.pk:
            self.fields["allowed_presets"].initial = room.allowed_presets
            self.fields["allowed_options"].initial = room.allowed_options
        else:
            self.fields["allowed_presets"].initial = list(PRESET_NAMES)
            self.fields["allowed_options"].initial = [o.key for o in OPTIONS]
        values = {**DEFAULTS, **(room.rules_options or {})}
        for option in ROOM_OPTIONS:
            self.initial[OPTION_PREFIX + option.key] = self.fields[OPTION_PREFIX + option.key].initial = (
                None if option.kind == "count" and values[option.key] == option.off else values[option.key]
            )

    def clean(self):
        """The values for `room_save`, checked by the service; its refusal shows beside its field."""
        data = super().clean()
        if self.errors:
            return data
        chosen = options_from(self, ROOM_OPTIONS)
        values = {
            **{name: data.get(name) for name in ROOM_FIELDS},
            "rules_options": {k: v for k, v in chosen.items() if v != DEFAULTS[k]},
        }
        try:
            self.room_values = check_room_settings(values)
        except RoomSettingsError as error:
            field = OPTION_PREFIX + "menqing" if error.field == "rules_options" else error.field
            self.add_error(field if field in self.fields else None, error.message)
        return data


# The option fields are declared on the class, so that the admin lays them out like model fields.
RoomForm = type(
    "RoomForm",
    (_RoomForm,),
    {OPTION_PREFIX + o.key: option_field(o, initial=DEFAULTS[o.key]) for o in ROOM_OPTIONS},
)


def _public_action(action: str, hand_ended) -> str:
    """A concealed kong's tile stays hidden while its hand is being played."""
    if hand_ended is None and ":concealed_kong:" in action:
        return action.rsplit(":", 1)[0] + ":?"
    return action


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    form = RoomForm
    list_display = (
        "name",
        "preset",
        "stakes",
        "discard_timeout",
        "claim_timeout",
        "ready_timeout",
        "grace_period",
        "bot_delay",
        "claim_pause",
        "level",
        "is_open",
    )
    actions = ["close_rooms"]
    level = bot_level

    def save_model(self, request, obj, form, change) -> None:
        saved = room_save(room_id=obj.pk if change else None, values=form.room_values)
        obj.pk = saved.pk
        obj.refresh_from_db()

    @admin.action(description=gettext_lazy("关闭选中的房间（桌子在本局结束后关闭）"))
    def close_rooms(self, request, queryset) -> None:
        for room in queryset:
            room_close(room_id=room.pk)
            self.log_change(request, room, _("关闭了房间"))
        self.message_user(request, _("已关闭。"))


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "room", "status", "owner", "stake", "closing", "version", "deadline")
    list_filter = ("status", "room")
    inlines = [SeatInline]
    readonly_fields = (
        "room",
        "owner",
        "status",
        "stake",
        "preset",
        "options",
        "discard_timeout",
        "claim_timeout",
        "private",
        "invite_code",
        "closing",
        "version",
        "deadline",
        "turn_deadline",
        "dealer",
        "huangfan",
        "gengfeng",
        "scores",
        "public_state",
        "action_log",
    )
    fields = readonly_fields
    actions = ["close_tables"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=gettext_lazy("公开局面"))
    def public_state(self, obj: Table):
        """The spectator's view only: the wall and every concealed hand stay hidden, even from staff."""
        if not obj.state:
            return "—"
        view = load_state(obj).view(None)
        return format_html("<pre>{}</pre>", json.dumps(view, ensure_ascii=False, indent=1)[:20000])

    @admin.display(description=gettext_lazy("操作记录（本场）"))
    def action_log(self, obj: Table):
        log = selectors.table_log(obj, limit=300)
        rows = [(n, seq, _public_action(a, ended), clock, at) for n, seq, a, clock, at, ended in log]
        if not rows:
            return "—"
        return format_html(
            "<table><tr><th>{}</th><th>#</th><th>{}</th><th>{}</th><th>{}</th></tr>{}</table>",
            _("局号"),
            _("操作"),
            _("自动"),
            _("时间"),
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        )

    @admin.action(description=gettext_lazy("关闭选中的桌子（本局结束后）"))
    def close_tables(self, request, queryset) -> None:
        for table in queryset:
            table_close(table_id=table.pk)
            self.log_change(request, table, _("关闭了桌子"))
        self.message_user(request, _("已关闭（正在打的桌子在本局结束后关闭）。"))


admin.site.register(Match)
admin.site.register(Hand)
admin.site.register(Action)


class BanForm(forms.ModelForm):
    reason = forms.CharField(max_length=200, required=True, strip=True, label=gettext_lazy("原因"))

    class Meta:
        model = Ban
        fields = ("user", "reason")


@admin.register(Ban)
class BanAdmin(admin.ModelAdmin):
    """Players: ban one (they cannot sit; a seated one stands up after the hand), lift a ban."""

    list_display = ("user", "reason", "banned_by", "created", "lifted", "lifted_by")
    list_filter = (("lifted", admin.EmptyFieldListFilter),)
    search_fields = ("user__username", "reason")
    raw_id_fields = ("user",)
    actions = ["lift_bans"]
    form = BanForm

    def get_readonly_fields(self, request, obj=None):
        return ("user", "reason", "banned_by", "created", "lifted", "lifted_by") if obj is not None else ()

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        if change:
            return
        ban = ban_player(user=form.cleaned_data["user"], reason=form.cleaned_data["reason"], by=request.user)
        obj.__dict__.update(ban.__dict__)

    @admin.action(description=gettext_lazy("解除所选禁令"))
    def lift_bans(self, request, queryset) -> None:
        lifted = 0
        for ban in queryset.filter(lifted__isnull=True).select_related("user"):
            lifted += unban_player(user=ban.user, by=request.user)
            self.log_change(request, ban, _("解除了禁令"))
        self.message_user(
            request, ngettext("已解除 {n} 个禁令。", "已解除 {n} 个禁令。", lifted).format(n=lifted)
        )
