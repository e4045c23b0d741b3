"""Read-only admin views of the history tables (only `history.services` writes them)."""

from django.contrib import admin
from django.utils.translation import gettext_lazy

from games.admin import bot_level
from games.names import FEATURES, PATTERNS, WIN_KINDS, name_list, name_of

from .models import HandRecord, HandReview, Player, Rating


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(ReadOnly):
    list_display = ("key", "user", "level")
    fields = readonly_fields = ("key", "user", "level")
    search_fields = ("key", "user__username")
    level = bot_level


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("player", "room", "ordinal", "mu", "sigma", "hands", "rated_hands", "updated")
    list_filter = ("room",)
    list_select_related = ("player", "room")


@admin.register(HandRecord)
class HandRecordAdmin(ReadOnly):
    list_display = ("hand", "seat", "player", "room", "payment", "won", "pattern_name", "ended")
    readonly_fields = ("pattern_name", "feature_names", "win_kind_name")
    fields = (
        *("hand", "match", "room", "player", "seat", "ended", "is_dealer", "drawn", "won", "self_drawn"),
        *("dealt_in", "payment", "pattern_name", "feature_names", "win_kind_name", "value"),
    )
    list_select_related = ("player", "room", "hand")
    raw_id_fields = ("hand", "match")

    # The rows hold the engine's codes; staff read their words in the page's language.
    @admin.display(description=gettext_lazy("番种"))
    def pattern_name(self, obj: HandRecord) -> str:
        return name_of(PATTERNS, obj.pattern) if obj.pattern else "—"

    @admin.display(description=gettext_lazy("加番"))
    def feature_names(self, obj: HandRecord) -> str:
        return name_list(name_of(FEATURES, code) for code in obj.features) or "—"

    @admin.display(description=gettext_lazy("胡法"))
    def win_kind_name(self, obj: HandRecord) -> str:
        return name_of(WIN_KINDS, obj.win_kind) if obj.win_kind else "—"


@admin.register(HandReview)
class HandReviewAdmin(ReadOnly):
    """复盘 rows: read-only, but deletable (the next person to open the review has it computed again,
    e.g. after a failed one)."""

    list_display = (
        "hand",
        "seat",
        "player",
        "status",
        "version",
        "decisions",
        "agreement",
        "mistakes",
        "finished",
    )
    list_filter = ("status",)
    list_select_related = ("player",)
    fields = ("hand", "seat", "player", "status", "version", "started", "finished", "decisions", "agreement")
    fields += ("mistakes", "useful_lost")

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("history.delete_handreview")
