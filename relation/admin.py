from __future__ import annotations

from django.contrib import admin

from adminkit.filters import DateRangeFilter
from relation.models import Follow


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ("follower", "followed", "created")
    search_fields = ("follower__username", "followed__username")
    raw_id_fields = ("follower", "followed")
    list_select_related = ("follower", "followed")
    list_filter = (("created", DateRangeFilter),)
