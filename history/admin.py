"""Read-only admin views of the history tables (only `history.services` writes them)."""

from django.contrib import admin

from .models import HandRecord, Player, Rating


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(ReadOnly):
    list_display = ("key", "user", "bot_level")
    search_fields = ("key", "user__username")


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("player", "room", "ordinal", "mu", "sigma", "hands", "rated_hands", "updated")
    list_filter = ("room",)
    list_select_related = ("player", "room")


@admin.register(HandRecord)
class HandRecordAdmin(ReadOnly):
    list_display = ("hand", "seat", "player", "room", "payment", "won", "pattern", "ended")
    list_select_related = ("player", "room", "hand")
    raw_id_fields = ("hand", "match")
