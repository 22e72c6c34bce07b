"""Admin pages for seeks and challenges (read them, cancel by hand if need be), players,
and rating changes, which a moderator can undo one game at a time."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy, ngettext

from ladder.moderation import actions as moderation
from ladder.moderation.models import ModerationAction
from ladder.models import Ban, Challenge, ChallengeInvitee, Player, RatingChange, Seek, SeekEntry


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


@admin.action(description=gettext_lazy("Undo the rating effect of the selected changes' games (both players)"),
              permissions=["undo"])
def undo_rating_effect(modeladmin: admin.ModelAdmin, request: HttpRequest,  # type: ignore[type-arg]
                       queryset: QuerySet[RatingChange]) -> None:
    games = sorted(set(queryset.filter(undone_at__isnull=True).values_list("game_id", flat=True)))
    undone = 0
    for game_id in games:  # each one a logged moderation act (ladder.moderation), as from its own form
        pending = RatingChange.objects.filter(game_id=game_id, undone_at__isnull=True).count()
        try:
            moderation.perform(ModerationAction(kind=ModerationAction.Kind.UNDO_RATING, moderator=request.user,
                                                game_id=game_id, reason="undone from the rating changes list"))
        except moderation.ModerationRefusal:  # undone meanwhile
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
class RatingChangeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "game", "user", "opponent", "before", "after", "score", "k", "created", "undone_at")
    list_filter = (("undone_at", admin.EmptyFieldListFilter),)
    search_fields = ("user__username", "opponent__username")
    raw_id_fields = ("game", "user", "opponent")
    readonly_fields = ("game", "user", "opponent", "before", "after", "opponent_rating", "score", "k",
                       "created", "undone_at")
    actions = [undo_rating_effect]

    def has_undo_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(moderation.PERMISSION[ModerationAction.Kind.UNDO_RATING]))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # changes come from games only


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
