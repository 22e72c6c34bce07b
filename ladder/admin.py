"""Admin pages for seeks and challenges (read them, cancel by hand if need be),
players and playbans. The rating changes' page, where a moderator undoes a
game's, is moderation's (moderation/admin.py): the ladder imports nothing of it."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import gettext, gettext_lazy

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


# A standing's rating and counters come from rated games and logged corrections
# (the act "Correct a rating", moderation.actions): never typed in here.
STANDING_FIELDS = ("rating", "rated_games", "wins", "draws", "losses", "streak", "reached_2400", "last_active")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A player's Ace in the Hole standing, read only but for being a bot.
    Made on first need, never by hand; not deleted (that would reset a rating unlogged)."""

    list_display = ("user", "rating", "rated_games", "wins", "draws", "losses", "streak", "last_active", "is_bot")
    list_filter = ("is_bot", "reached_2400")
    search_fields = ("user__username",)
    readonly_fields = ("user", *STANDING_FIELDS)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Ban)
class BanAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Playbans (ladder/playban.py): earned by the rules, never made, edited or
    deleted by hand; a moderator lifts or shortens one with the act "Lift or
    shorten a playban" (linked from each ban in force), which logs it."""

    list_display = ["user", "offence", "started", "ends", "game", "lift"]
    list_filter = ["offence"]
    search_fields = ["user__username"]
    list_select_related = ["user"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_list_display(self, request: HttpRequest) -> Any:
        """The lift links only for who may lift (moderation's permission, named as text)."""
        shown = super().get_list_display(request)
        return shown if request.user.has_perm("moderation.lift_playban") else [f for f in shown if f != "lift"]

    @admin.display(description=gettext_lazy("lift"))
    def lift(self, ban: Ban) -> str:
        """A link to the act form for the ban's player, while the ban is in force."""
        if ban.ends <= timezone.now():
            return "—"
        query = urlencode({"kind": "lift_playban", "user": ban.user_id})
        return format_html('<a href="{}?{}">{}</a>', reverse("admin:moderation_moderationaction_add"), query,
                           gettext("Lift or shorten"))
