"""Admin registrations for games: read-mostly, since moves go through games/moving.py."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from adminkit import search
from adminkit.export import Column, Export, ExportMixin
from adminkit.filters import DateRangeFilter
from games.models import Game, Move, Seat

# What a game's export holds: its public record's facts. Never the position,
# the seed or the clocks' hidden state (a running game's hands and deck order).
GAME_EXPORT = Export(columns=[
    Column("id", "pk"), Column("kind", "kind"), Column("variant", "variant"), Column("players", "players"),
    Column("seats", lambda game: " ".join(f"{seat.name}:{seat.user.get_username()}" for seat in game.table)),
    Column("status", "status"), Column("result", "result"), Column("winner", "winner"), Column("reason", "reason"),
    Column("rated", "rated"), Column("time_control", lambda game: game.time_control.key),
    Column("event", "event"), Column("event_round", "event_round"), Column("created", "created"),
    Column("finished", "finished")], prefetch_related=["seats__user"])


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "name", "user", "seen_at", "left_at")
    readonly_fields = fields
    can_delete = False


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("ply", "seat", "action", "created")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(ExportMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """Searching "1234" or "#1234" finds game 1234, besides its players' names and events."""

    list_display = ("id", "kind", "players_list", "status", "ply", "winner", "reason", "rated", "created")
    list_filter = ("kind", "players", "status", "reason", "rated", ("created", DateRangeFilter),
                   ("finished", DateRangeFilter))
    search_fields = ("seats__user__username", "event")
    export_columns = GAME_EXPORT
    # The seed (not editable, so no form shows it) and the position stay out of
    # the admin: both give away hands and deck order, and staff play too.
    exclude = ("position",)
    readonly_fields = ("kind", "variant", "players", "commitment", "ply", "clocks", "created", "finished",
                       "turn_started_at", "rematch_offers", "rematch_game", "event", "event_round", "event_url",
                       "forfeit_no_shows", "adjudication_note")
    inlines = [SeatInline, MoveInline]

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        return super().get_queryset(request).prefetch_related("seats__user")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Game],
                           search_term: str) -> tuple[QuerySet[Game], bool]:
        found, duplicates = super().get_search_results(request, queryset, search_term)
        return search.or_number(found, queryset, search_term), duplicates

    @admin.display(description=gettext_lazy("players"))
    def players_list(self, game: Game) -> str:
        return " v ".join(f"{seat.user} ({seat.name})" for seat in game.seats.all())


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Searching a number lists that game's moves."""

    list_display = ("game", "ply", "seat", "action", "created")
    list_select_related = ("game",)
    search_fields = ("=action",)
    readonly_fields = ("game", "ply", "seat", "action", "created")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        # The game's name shows its players (Game.__str__): their seats once for the page.
        return super().get_queryset(request).prefetch_related("game__seats__user")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Move],
                           search_term: str) -> tuple[QuerySet[Move], bool]:
        found, duplicates = super().get_search_results(request, queryset, search_term)
        return search.or_number(found, queryset, search_term, "game_id"), duplicates
