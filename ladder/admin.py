"""Admin pages for seeks and challenges: read them, and cancel by hand if need be."""

from __future__ import annotations

from django.contrib import admin

from ladder.models import Challenge, Seek


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "creator", "time_control", "rated", "colour", "status", "created", "game")
    list_filter = ("status", "rated", "time_control")
    search_fields = ("creator__username",)
    raw_id_fields = ("creator", "game")


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "challenger", "challenged", "time_control", "rated", "colour", "status",
                    "expires_at", "game")
    list_filter = ("status", "rated", "time_control")
    search_fields = ("challenger__username", "challenged__username")
    raw_id_fields = ("challenger", "challenged", "game")
