"""Admin registrations for games: read-mostly, since moves go through games/moving.py."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy

from games.models import Game, Move, Seat


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
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "players_list", "status", "ply", "winner", "reason", "rated", "created")
    list_filter = ("kind", "players", "status", "reason", "rated")
    search_fields = ("seats__user__username", "event")
    # The seed (not editable, so no form shows it) and the position stay out of
    # the admin: both give away hands and deck order, and staff play too.
    exclude = ("position",)
    readonly_fields = ("kind", "variant", "players", "commitment", "ply", "clocks", "created", "finished",
                       "turn_started_at", "rematch_offers", "rematch_game", "event", "event_round", "event_url",
                       "forfeit_no_shows", "adjudication_note")
    inlines = [SeatInline, MoveInline]

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        return super().get_queryset(request).prefetch_related("seats__user")

    @admin.display(description=gettext_lazy("players"))
    def players_list(self, game: Game) -> str:
        return " v ".join(f"{seat.user} ({seat.name})" for seat in game.seats.all())


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "ply", "seat", "action", "created")
    readonly_fields = ("game", "ply", "seat", "action", "created")
