"""Admin registrations for games: read-mostly, since moves go through games/play.py."""

from __future__ import annotations

from django.contrib import admin

from games.models import Game, Move


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("ply", "seat", "action", "created")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "red", "black", "status", "ply", "winner", "reason", "rated", "created")
    list_filter = ("status", "reason", "rated")
    search_fields = ("red__username", "black__username", "event")
    # The seed (not editable, so no form shows it) and the position stay out of
    # the admin: both give away hands and deck order, and staff play too.
    exclude = ("position",)
    readonly_fields = ("commitment", "ply", "created", "finished", "turn_started_at",
                       "red_seen_at", "red_left_at", "black_seen_at", "black_left_at",
                       "rematch_offered_by", "rematch_game", "event", "event_round", "event_url",
                       "forfeit_no_shows", "adjudication_note")
    inlines = [MoveInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "ply", "seat", "action", "created")
    readonly_fields = ("game", "ply", "seat", "action", "created")
