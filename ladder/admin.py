"""Admin pages for seeks and challenges (read them, cancel by hand if need be), players,
and rating changes, which a moderator can undo one game at a time."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from ladder import ratings
from ladder.models import Challenge, Player, RatingChange, Seek, SeekEntry


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


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "challenger", "challenged", "time_control", "rated", "colour", "status",
                    "expires_at", "game")
    list_filter = ("status", "rated", "time_control")
    search_fields = ("challenger__username", "challenged__username")
    raw_id_fields = ("challenger", "challenged", "game")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "rating", "rated_games", "wins", "draws", "losses", "streak", "last_active", "is_bot")
    list_filter = ("is_bot", "reached_2400")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.action(description="Undo the rating effect of the selected changes' games (both players)")
def undo_rating_effect(modeladmin: admin.ModelAdmin, request: HttpRequest,  # type: ignore[type-arg]
                       queryset: QuerySet[RatingChange]) -> None:
    games = sorted(set(queryset.filter(undone_at__isnull=True).values_list("game_id", flat=True)))
    undone = sum(ratings.undo_game(game_id) for game_id in games)
    if undone:
        modeladmin.message_user(request, f"Undid {undone} rating changes from {len(games)} game(s).",
                                messages.SUCCESS)
    else:
        modeladmin.message_user(request, "Nothing to undo: those changes were already undone.",
                                messages.WARNING)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "game", "user", "opponent", "before", "after", "score", "k", "created", "undone_at")
    list_filter = (("undone_at", admin.EmptyFieldListFilter),)
    search_fields = ("user__username", "opponent__username")
    raw_id_fields = ("game", "user", "opponent")
    readonly_fields = ("game", "user", "opponent", "before", "after", "opponent_rating", "score", "k",
                       "created", "undone_at")
    actions = [undo_rating_effect]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # changes come from games only
