"""Admin pages for seeks and challenges (read them, cancel by hand if need be),
players and playbans. The rating changes' page, where a moderator undoes a
game's, is moderation's (moderation/admin.py): the ladder imports nothing of it."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from ladder.models import Ban, Challenge, ChallengeInvitee, Player, Seek, SeekEntry


class SeekEntryInline(admin.TabularInline):  # type: ignore[type-arg]
    """Who sits at a 4-player seek."""

    model = SeekEntry
    raw_id_fields = ("user",)
    readonly_fields = ("joined",)
    extra = 0


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "creator", "kind", "players", "time_control", "rated", "colour", "status", "created",
                    "game")
    list_filter = ("status", "players", "rated", "time_control")
    search_fields = ("creator__username",)
    raw_id_fields = ("creator", "partner", "game")
    inlines = [SeekEntryInline]


class ChallengeInviteeInline(admin.TabularInline):  # type: ignore[type-arg]
    """A 4-player challenge's invitees and their answers."""

    model = ChallengeInvitee
    raw_id_fields = ("user",)
    extra = 0


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "challenger", "challenged", "players", "time_control", "rated", "colour", "status",
                    "expires_at", "game")
    list_filter = ("status", "players", "rated", "time_control")
    search_fields = ("challenger__username", "challenged__username")
    raw_id_fields = ("challenger", "challenged", "game")
    inlines = [ChallengeInviteeInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "rating", "rated_games", "wins", "draws", "losses", "streak", "last_active", "is_bot")
    list_filter = ("is_bot", "reached_2400")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(Ban)
class BanAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Playbans (ladder/playban.py): earned by the rules, not made by hand; a
    moderator may shorten one by editing its end."""

    list_display = ["user", "offence", "started", "ends", "game"]
    list_filter = ["offence"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "game"]
    readonly_fields = ["user", "offence", "started", "game"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
