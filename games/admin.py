"""Staff pages for rooms, tables and player bans. Changes that affect play go through `games.services`."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Min, Q
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import selectors
from games.forms import OPTION_PREFIX, option_field, options_from
from games.names import BOT_LEVELS, name_of
from games.table_options import DEFAULTS, OPTIONS, PRESET_NAMES, ROOM_NUMBERS
from ledger.models import Ban

from .models import Action, Hand, Match, Pool, PoolEntry, Room, Seat, Table
from .services import ServiceError, ban_player, load_state, room_close, table_close, unban_player
from .services.pairing import pool_save, pool_switch
from .services.rooms import ROOM_FIELDS, RoomSettingsError, check_room_settings, room_save
from .services.table_settings import TableChoices, clean_choices


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
            field = _option_field(error.field)
            self.add_error(field if field in self.fields else None, error.message)
        return data


def _option_field(field: str) -> str:
    """The form field for a refused room setting: "rules_options.KEY" is that option's field, and
    "rules_options" as a whole is shown at the first option."""
    if field == "rules_options":
        return OPTION_PREFIX + OPTIONS[0].key
    if field.startswith("rules_options."):
        return OPTION_PREFIX + field.split(".", 1)[1]
    return field


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


class PoolForm(forms.ModelForm):
    """A pool's choices, checked against its room by `pairing.pool_save` (its refusal shown here)."""

    preset = forms.ChoiceField(
        label=gettext_lazy("玩法"),
        choices=[("", gettext_lazy("房间的玩法")), *PRESET_NAMES.items()],
        required=False,
    )

    class Meta:
        model = Pool
        fields = ("room", "preset", "options", "stake", "is_active", "order")

    def clean(self):
        """The room must offer the preset, the options and the stake (as for a table of its own)."""
        data = super().clean()
        if self.errors:
            return data
        choices = TableChoices(
            preset=data["preset"] or None, options=data["options"] or {}, stake=data["stake"]
        )
        try:
            clean_choices(data["room"], choices)
        except ServiceError as error:
            field = {"bad_stake": "stake", "preset_not_allowed": "preset"}.get(error.code, "options")
            self.add_error(field, error.message)
        return data


@admin.register(Pool)
class PoolAdmin(admin.ModelAdmin):
    """Quick-start pools: how many wait, since when, how many tables play; switch one off."""

    form = PoolForm
    list_display = (
        "__str__",
        "room",
        "preset_name",
        "stake",
        "waiting",
        "longest_wait",
        "playing",
        "is_active",
    )
    list_filter = ("is_active", "room")
    actions = ["switch_off", "switch_on"]

    def get_queryset(self, request):
        now = timezone.now()
        waiting = Q(entries__expires__gt=now)
        return (
            super()
            .get_queryset(request)
            .select_related("room")
            .annotate(
                n_waiting=Count("entries", filter=waiting, distinct=True),
                since=Min("entries__joined", filter=waiting),
                n_playing=Count("tables", filter=Q(tables__status=Table.Status.PLAYING), distinct=True),
            )
        )

    @admin.display(description=gettext_lazy("玩法"))
    def preset_name(self, obj) -> str:
        return obj.preset_label

    @admin.display(description=gettext_lazy("在等人数"), ordering="n_waiting")
    def waiting(self, obj) -> int:
        return obj.n_waiting

    @admin.display(description=gettext_lazy("最长等待（秒）"))
    def longest_wait(self, obj) -> str:
        return "—" if obj.since is None else str(int((timezone.now() - obj.since).total_seconds()))

    @admin.display(description=gettext_lazy("在打桌数"), ordering="n_playing")
    def playing(self, obj) -> int:
        return obj.n_playing

    def save_model(self, request, obj, form, change) -> None:
        data = form.cleaned_data
        try:
            saved = pool_save(
                pool_id=obj.pk if change else None,
                room_id=data["room"].pk,
                preset=data["preset"],
                options=data["options"] or {},
                stake=data["stake"],
                is_active=data["is_active"],
                order=data["order"],
            )
        except ServiceError as error:
            self.message_user(request, error.message, level=messages.ERROR)
            return
        obj.pk = saved.pk
        obj.refresh_from_db()

    @admin.action(description=gettext_lazy("关闭选中的池子（在等的人离开）"))
    def switch_off(self, request, queryset) -> None:
        pool_switch(pool_ids=list(queryset.values_list("pk", flat=True)), active=False)
        self.message_user(request, _("已关闭。"))

    @admin.action(description=gettext_lazy("打开选中的池子"))
    def switch_on(self, request, queryset) -> None:
        pool_switch(pool_ids=list(queryset.values_list("pk", flat=True)), active=True)
        self.message_user(request, _("已打开。"))


@admin.register(PoolEntry)
class PoolEntryAdmin(admin.ModelAdmin):
    """Who waits where (read only: people join and leave in the lobby)."""

    list_display = ("user", "pool", "rating", "fill_after", "joined", "expires")
    list_filter = ("pool",)
    readonly_fields = ("pool", "user", "rating", "fill_after", "joined", "expires")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


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
