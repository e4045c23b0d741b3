"""Staff pages for tournaments: create and edit one (its settings are checked by the services when it
is created on the site; here staff are trusted with the JSON options), see entries, rounds, scores."""

from django.contrib import admin

from .models import Entry, HandScore, Round, RoundTable, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("number", "user", "is_bot", "bot_level", "removed")
    raw_id_fields = ("user",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "status", "starts_at", "rounds", "hands_per_round", "max_players", "public")
    list_filter = ("status", "public")
    search_fields = ("name",)
    readonly_fields = ("status", "current_round", "created", "ended")
    raw_id_fields = ("organiser",)
    inlines = [EntryInline]


class RoundTableInline(admin.TabularInline):
    model = RoundTable
    extra = 0
    fields = ("number", "table", "entries")
    readonly_fields = fields
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "started", "ended")
    readonly_fields = ("tournament", "number", "seeds", "commitments", "started", "ended")
    inlines = [RoundTableInline]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(HandScore)
class HandScoreAdmin(admin.ModelAdmin):
    list_display = ("round_table", "deal", "seat", "entry", "score", "dealt_in", "autoplay")
    readonly_fields = (
        "round_table",
        "deal",
        "seat",
        "entry",
        "hand",
        "score",
        "dealt_in",
        "autoplay",
        "ended",
    )

    def has_add_permission(self, request) -> bool:
        return False
