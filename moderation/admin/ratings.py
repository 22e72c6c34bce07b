"""The ladder's rating changes (its model is the ladder's, which imports nothing
of moderation): read only, filtered by ladder, date and player, and a
moderator undoes a game's rating effect from the list as a logged act."""

from __future__ import annotations

from typing import Any


from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy, ngettext

from adminkit import search
from adminkit.export import Column, Export, ExportMixin
from adminkit.filters import DateRangeFilter, user_filter
from ladder.models import RatingChange
from moderation import actions
from moderation.models import ModerationAction


RATING_CHANGE_EXPORT = Export([
    Column("id", "pk"), Column("game", "game_id"), Column("ladder", "ladder"), Column("user", "user__username"),
    Column("opponent", "opponent__username"), Column("before", "before"), Column("after", "after"),
    Column("opponent_rating", "opponent_rating"), Column("score", "score"), Column("k", "k"),
    Column("created", "created"), Column("undone_at", "undone_at")], select_related=["user", "opponent"])

@admin.action(description=gettext_lazy("Undo the rating effect of the selected changes' games (both players)"),
              permissions=["undo"])
def undo_rating_effect(modeladmin: admin.ModelAdmin, request: HttpRequest,  # type: ignore[type-arg]
                       queryset: QuerySet[RatingChange]) -> None:
    games = sorted(set(queryset.filter(undone_at__isnull=True, game__isnull=False).values_list("game_id", flat=True)))
    undone = 0
    for game_id in games:  # each one a logged moderation act, as from its own form
        pending = RatingChange.objects.filter(game_id=game_id, undone_at__isnull=True).count()
        try:
            actions.perform(ModerationAction(kind=ModerationAction.Kind.UNDO_RATING, moderator=request.user,
                                                game_id=game_id, reason="undone from the rating changes list"))
        except actions.ModerationRefusal:  # undone meanwhile
            continue
        undone += pending
    if undone:
        done = ngettext("Undid %(changes)s rating change from %(games)s game(s).",
                        "Undid %(changes)s rating changes from %(games)s game(s).", undone)
        modeladmin.message_user(request, done % {"changes": undone, "games": len(games)}, messages.SUCCESS)
    else:
        modeladmin.message_user(request, gettext("Nothing to undo: those changes were already undone."),
                                messages.WARNING)


@admin.register(RatingChange)
class RatingChangeAdmin(ExportMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """Searching a number lists that game's changes; ``?user__id__exact=`` one player's."""

    list_display = ("id", "game", "ladder", "user", "opponent", "before", "after", "score", "k", "created",
                    "undone_at")
    list_filter = ("ladder", ("created", DateRangeFilter), ("undone_at", admin.EmptyFieldListFilter),
                   user_filter("user", gettext_lazy("player")))
    list_select_related = ("game", "user", "opponent")
    search_fields = ("user__username", "opponent__username")
    export_columns = RATING_CHANGE_EXPORT
    raw_id_fields = ("game", "user", "opponent")
    readonly_fields = ("game", "user", "opponent", "before", "after", "opponent_rating", "score", "k",
                       "created", "undone_at")
    actions = [undo_rating_effect]

    def has_undo_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(actions.PERMISSION[ModerationAction.Kind.UNDO_RATING]))

    def get_queryset(self, request: HttpRequest) -> QuerySet[RatingChange]:
        # The game's name shows its players (Game.__str__): their seats once for the page.
        return super().get_queryset(request).prefetch_related("game__seats__user")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[RatingChange],
                           search_term: str) -> tuple[QuerySet[RatingChange], bool]:
        found, duplicates = super().get_search_results(request, queryset, search_term)
        return search.or_number(found, queryset, search_term, "game_id"), duplicates

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # changes come from games and logged corrections only

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the history the ratings are made of: undone, never edited

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # not even a superuser: a deleted change leaves the ratings disagreeing with it
