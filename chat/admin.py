"""Mutes and room locks in the admin, to look at only. The lines and timeouts
are moderation's (moderation/admin/chat.py), with the acts on them."""

from __future__ import annotations

from django.contrib import admin

from adminkit.filters import DateRangeFilter
from adminkit.readonly import LookOnly
from chat.models import Mute, RoomLock


@admin.register(Mute)
class MuteAdmin(LookOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    """Who muted whom (a harassment report's context). A mute is the player's
    own choice, made and undone from their page: staff neither add nor lift one."""

    list_display = ("user", "muted", "created")
    list_filter = (("created", DateRangeFilter),)
    list_select_related = ("user", "muted")
    search_fields = ("user__username", "muted__username")


@admin.register(RoomLock)
class RoomLockAdmin(LookOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    """Rooms open to established accounts only: each made by a moderator's
    "lock" act, which logs it; so not made, changed or deleted here."""

    list_display = ("room", "ends", "moderator")
    list_filter = (("ends", DateRangeFilter),)
    list_select_related = ("moderator",)
    search_fields = ("room", "moderator__username")
