"""Staff pages for rooms and tables. Changes that affect play go through `games.services`."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin
from django.utils.html import format_html, format_html_join

from games.engine.bots import levels as bot_levels
from games.engine.rules import Rules
from games.engine.state import GameState

from .models import Action, Hand, Match, Room, Seat, Table
from .services import room_close, room_save, table_close


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = (
        "index",
        "user",
        "is_bot",
        "bot_level",
        "connected",
        "stake_accepted",
        "ready",
        "autoplay",
        "timeouts",
    )
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class RoomForm(forms.ModelForm):
    class Meta:
        model = Room
        fields = "__all__"

    def clean_stakes(self):
        stakes = self.cleaned_data.get("stakes")
        if (
            not isinstance(stakes, list)
            or not stakes
            or any(not isinstance(k, int) or isinstance(k, bool) or k <= 0 for k in stakes)
        ):
            raise forms.ValidationError("A list of positive whole numbers, e.g. [1, 2, 5, 10].")
        return sorted(set(stakes))

    def clean_bot_level(self):
        level = self.cleaned_data.get("bot_level")
        if level not in bot_levels():
            raise forms.ValidationError(f"One of: {', '.join(bot_levels())}.")
        return level

    def clean(self):
        """House options must be ones the engine knows for the preset (else every deal would fail)."""
        data = super().clean()
        options = data.get("rules_options")
        if "rules_options" in data and not isinstance(options, dict):
            self.add_error("rules_options", 'An object of house options, e.g. {"menqing": "lezi"}.')
        elif "rules_options" in data and data.get("preset"):
            try:
                Rules.from_json({"preset": data["preset"], **options})
            except (ValueError, TypeError) as error:
                self.add_error("rules_options", f"Not valid for this preset: {error}")
        return data


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
        "bot_level",
        "is_open",
    )
    actions = ["close_rooms"]

    def save_model(self, request, obj, form, change) -> None:
        """Through the services: `room_save` tells the lobby and the waiting tables."""
        closing = change and "is_open" in form.changed_data and not obj.is_open
        if closing:
            obj.is_open = True  # room_close does the closing, tables included
        room_save(room=obj)
        if closing:
            room_close(room_id=obj.pk)
            obj.refresh_from_db()

    @admin.action(description="关闭 Close the selected rooms (tables close after their current hand)")
    def close_rooms(self, request, queryset) -> None:
        for room in queryset:
            room_close(room_id=room.pk)
            self.log_change(request, room, "Closed the room")
        self.message_user(request, "已关闭 Closed.")


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
        "closing",
        "version",
        "deadline",
        "turn_deadline",
        "dealer",
        "huangfan",
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

    @admin.display(description="公开局面 Public state")
    def public_state(self, obj: Table):
        """The spectator's view only: the wall and every concealed hand stay hidden, even from staff."""
        if not obj.state:
            return "—"
        view = GameState.from_json(obj.state).view(None)
        return format_html("<pre>{}</pre>", json.dumps(view, ensure_ascii=False, indent=1)[:20000])

    @admin.display(description="操作记录 Action log (current match)")
    def action_log(self, obj: Table):
        log = (
            Action.objects.filter(hand__match__table=obj)
            .order_by("-id")
            .values_list("hand__number", "seq", "action", "by_clock", "created", "hand__ended")[:300]
        )
        rows = [(n, seq, _public_action(a, ended), clock, at) for n, seq, a, clock, at, ended in log]
        if not rows:
            return "—"
        return format_html(
            "<table><tr><th>hand</th><th>#</th><th>action</th><th>clock</th><th>time</th></tr>{}</table>",
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        )

    @admin.action(description="关闭 Close the selected tables (after the current hand)")
    def close_tables(self, request, queryset) -> None:
        for table in queryset:
            table_close(table_id=table.pk)
            self.log_change(request, table, "Closed the table")
        self.message_user(request, "已关闭 Closed (a table in a hand closes when the hand ends).")


admin.site.register(Match)
admin.site.register(Hand)
admin.site.register(Action)
