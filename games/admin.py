"""Admin registrations for games: read only, for everybody. A game's moves go
through games/moving.py, and its result, status and ratings change only
through moderators' acts (moderation.actions: adjudicate, abort, undo its
rating effect), each logged with a reason; the game's page links to them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy

from adminkit import search
from adminkit.export import Column, Export, ExportMixin
from adminkit.filters import DateRangeFilter, user_filter
from adminkit.readonly import LookOnly
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


class ReadOnlyInline(LookOnly, admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("number", "name", "user", "seen_at", "left_at")
    readonly_fields = fields


class MoveInline(ReadOnlyInline):
    model = Move
    fields = ("ply", "seat", "action", "created")
    readonly_fields = fields


class ReadOnlyAdmin(LookOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    """Shown, never added, changed or deleted here (superusers included): a game
    is made by starting it, and a raw edit would leave its result, score,
    ratings and moves disagreeing."""


# The moderators' acts on a game, by the game's status: (kind, label). Plain
# strings, as games import nothing of moderation (the labels are the acts' own,
# moderation.models.ModerationAction.Kind); the act form checks each.
_ADJUDICATE = ("adjudicate", gettext_lazy("Adjudicate a game's result"))
GAME_ACTS = {
    Game.Status.RUNNING: [_ADJUDICATE, ("abort_game", gettext_lazy("Abort a game"))],
    Game.Status.FINISHED: [_ADJUDICATE, ("undo_rating", gettext_lazy("Undo a game's rating effect"))],
}
ACT_PERMISSIONS = {"adjudicate": "moderation.adjudicate_game", "abort_game": "moderation.abort_game",
                   "undo_rating": "moderation.undo_rating"}


@admin.register(Game)
class GameAdmin(ExportMixin, ReadOnlyAdmin):
    """Searching "1234" or "#1234" finds game 1234, besides its players' names and events."""

    list_display = ("id", "kind", "players_list", "status", "ply", "winner", "reason", "rated", "created")
    list_filter = ("kind", "players", "status", "reason", "rated", ("created", DateRangeFilter),
                   ("finished", DateRangeFilter),
                   user_filter("seats__user", gettext_lazy("player"), parameter="player"))
    search_fields = ("seats__user__username", "event")
    export_columns = GAME_EXPORT
    # The seed (not editable, so no form shows it) and the position stay out of
    # the admin: both give away hands and deck order, and staff play too.
    exclude = ("position",)
    inlines = [SeatInline, MoveInline]
    change_form_template = "admin/games/game/change_form.html"

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        return super().get_queryset(request).prefetch_related("seats__user")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Game],
                           search_term: str) -> tuple[QuerySet[Game], bool]:
        found, duplicates = super().get_search_results(request, queryset, search_term)
        return search.or_number(found, queryset, search_term), duplicates

    @admin.display(description=gettext_lazy("players"))
    def players_list(self, game: Game) -> str:
        return " v ".join(f"{seat.user} ({seat.name})" for seat in game.seats.all())

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """The page, with links to the acts on the game the viewer may do."""
        game = self.get_object(request, object_id)
        acts = [(kind, label) for kind, label in GAME_ACTS.get(game.status if game else "", [])
                if request.user.has_perm(ACT_PERMISSIONS[kind])]
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), "game_acts": acts})


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    """Searching a number lists that game's moves."""

    list_display = ("game", "ply", "seat", "action", "created")
    list_select_related = ("game",)
    search_fields = ("=action",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        # The game's name shows its players (Game.__str__): their seats once for the page.
        return super().get_queryset(request).prefetch_related("game__seats__user")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Move],
                           search_term: str) -> tuple[QuerySet[Move], bool]:
        found, duplicates = super().get_search_results(request, queryset, search_term)
        return search.or_number(found, queryset, search_term, "game_id"), duplicates
