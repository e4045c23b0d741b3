from django.contrib import admin

from .models import Action, Hand, Match, Room, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("name", "preset", "discard_timeout", "claim_timeout", "bot_delay", "bot_level", "is_open")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "room", "status", "version", "deadline")
    inlines = [SeatInline]
    exclude = ("state",)  # hidden information: the wall and every hand


admin.site.register(Match)
admin.site.register(Hand)
admin.site.register(Action)
