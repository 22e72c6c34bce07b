"""Admin pages for seeks and challenges (read them, cancel by hand if need be),
players, ratings on the other ladders, the pool, playbans and their records.
The rating changes' page, where a moderator undoes a game's, is moderation's
(moderation/admin/ratings.py): the ladder imports nothing of it.

Lists that show a game name its players (Game.__str__), so they load the
seats with the page (``with_games``) rather than a query a row."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import gettext, gettext_lazy

from adminkit.export import Column, Export, ExportMixin
from adminkit.filters import DateRangeFilter
from adminkit.readonly import LookOnly
from ladder.models import (ACE, Ban, Challenge, ChallengeInvitee, PlaybanRecord, Player, PoolEntry, Rating, Seek,
                           SeekEntry)

STANDING_COLUMNS = [Column("username", "user__username"), Column("rating", "rating"),
                    Column("rated_games", "rated_games"), Column("wins", "wins"), Column("draws", "draws"),
                    Column("losses", "losses"), Column("streak", "streak"), Column("last_active", "last_active"),
                    Column("is_bot", "is_bot")]
PLAYER_EXPORT = Export([Column("user_id", "user_id"), Column("ladder", lambda player: ACE), *STANDING_COLUMNS],
                       select_related=["user"])
RATING_EXPORT = Export([Column("user_id", "user_id"), Column("ladder", "ladder"), *STANDING_COLUMNS],
                       select_related=["user"])


class WithGames:
    """For a list with a ``game`` column: the games' seats and players come with the page."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).prefetch_related("game__seats__user")  # type: ignore[misc]


class SeekEntryInline(admin.TabularInline):  # type: ignore[type-arg]
    """Who sits at a 4-player seek."""

    model = SeekEntry
    raw_id_fields = ("user",)
    readonly_fields = ("joined",)
    extra = 0


@admin.register(Seek)
class SeekAdmin(WithGames, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "creator", "kind", "players", "time_control", "rated", "colour", "status", "created",
                    "game")
    list_filter = ("status", "players", "rated", "time_control", ("created", DateRangeFilter))
    list_select_related = ("creator", "game")
    search_fields = ("creator__username",)
    raw_id_fields = ("creator", "partner", "game")
    inlines = [SeekEntryInline]


class ChallengeInviteeInline(admin.TabularInline):  # type: ignore[type-arg]
    """A 4-player challenge's invitees and their answers."""

    model = ChallengeInvitee
    raw_id_fields = ("user",)
    extra = 0


@admin.register(Challenge)
class ChallengeAdmin(WithGames, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "challenger", "challenged", "players", "time_control", "rated", "colour", "status",
                    "expires_at", "game")
    list_filter = ("status", "players", "rated", "time_control", ("created", DateRangeFilter))
    list_select_related = ("challenger", "challenged", "game")
    search_fields = ("challenger__username", "challenged__username")
    raw_id_fields = ("challenger", "challenged", "game")
    inlines = [ChallengeInviteeInline]


# A standing's rating and counters come from rated games and logged corrections
# (the act "Correct a rating", moderation.actions): never typed in here.
STANDING_FIELDS = ("rating", "rated_games", "wins", "draws", "losses", "streak", "reached_2400", "last_active")


@admin.register(Player)
class PlayerAdmin(ExportMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """A player's Ace in the Hole standing, read only but for being a bot.
    Made on first need, never by hand; not deleted (that would reset a rating unlogged)."""

    list_display = ("user", "rating", "rated_games", "wins", "draws", "losses", "streak", "last_active", "is_bot")
    list_filter = ("is_bot", "reached_2400", ("last_active", DateRangeFilter))
    list_select_related = ("user",)
    search_fields = ("user__username",)
    readonly_fields = ("user", *STANDING_FIELDS)
    export_columns = PLAYER_EXPORT

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Ban)
class BanAdmin(WithGames, admin.ModelAdmin):  # type: ignore[type-arg]
    """Playbans (ladder/playban.py): earned by the rules, never made, edited or
    deleted by hand; a moderator lifts or shortens one with the act "Lift or
    shorten a playban" (linked from each ban in force), which logs it."""

    list_display = ["user", "offence", "started", "ends", "game", "lift"]
    list_filter = ["offence", ("started", DateRangeFilter)]
    list_select_related = ["user", "game"]
    search_fields = ["user__username"]

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


@admin.register(Rating)
class RatingAdmin(ExportMixin, LookOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    """Standings on Rhombus's ladders (Ace in the Hole's are the Players'). Read
    only: a rating moves by games and by logged moderation acts, so that the
    rating history (RatingChange, the API's) always agrees with the profile."""

    list_display = ("user", "ladder", "rating", "rated_games", "wins", "draws", "losses", "streak", "last_active",
                    "is_bot")
    list_filter = ("ladder", "is_bot", "reached_2400", ("last_active", DateRangeFilter))
    list_select_related = ("user",)
    search_fields = ("user__username",)
    export_columns = RATING_EXPORT


@admin.register(PoolEntry)
class PoolEntryAdmin(WithGames, LookOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    """Who waits in quick pairing, and who waited: read only, since the matcher
    (ladder/matchmaking.py) pairs and the player leaves; a paired or left
    entry is history, kept."""

    list_display = ("id", "user", "kind", "variant", "players", "time_control", "rating", "status", "joined",
                    "game")
    list_filter = ("status", "kind", "players", "time_control", ("joined", DateRangeFilter))
    list_select_related = ("user", "game")
    search_fields = ("user__username",)


@admin.register(PlaybanRecord)
class PlaybanRecordAdmin(LookOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    """The outcomes a playban counts (ladder/playban.py), one row a player:
    read only, since editing them would change the next playban unseen; a
    playban itself is on the Bans list."""

    list_display = ("user", "outcomes", "banned_until")
    list_filter = (("banned_until", DateRangeFilter),)
    list_select_related = ("user",)
    search_fields = ("user__username",)
