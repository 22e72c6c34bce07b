from __future__ import annotations

from django.contrib import admin

from preferences.models import Preference


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "language")
    list_filter = ("language",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    list_select_related = ("user",)
