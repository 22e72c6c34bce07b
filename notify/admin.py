"""Staff's view of what was told to whom: notices, preferences, browsers
subscribed to push, and the once-only reminders already sent. Read-only but
for deleting: these rows are written by the site, never by hand; a push
subscription's keys are the browser's and stay out of the lists."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from adminkit.filters import DateRangeFilter
from notify.models import Notification, Preference, PushSubscription, Sent


class WrittenBySiteAdmin(admin.ModelAdmin):
    raw_id_fields = ("user",)
    search_fields = ("user__username",)
    list_select_related = ("user",)

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        # Every field shown as text: the form then has none to build.
        return [field.name for field in self.model._meta.fields if field.name not in (self.exclude or ())]


@admin.register(Notification)
class NotificationAdmin(WrittenBySiteAdmin):
    list_display = ("user", "kind", "key", "created", "read")
    list_filter = ("kind", "read", ("created", DateRangeFilter))


@admin.register(Preference)
class PreferenceAdmin(WrittenBySiteAdmin):
    list_display = ("user", "kind", "site", "email", "push")
    list_filter = ("kind",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(WrittenBySiteAdmin):
    list_display = ("user", "service", "created")
    exclude = ("p256dh", "auth")

    @admin.display(description=_("push service"))
    def service(self, subscription: PushSubscription) -> str:
        return subscription.service


@admin.register(Sent)
class SentAdmin(WrittenBySiteAdmin):
    list_display = ("user", "kind", "key", "created")
    list_filter = ("kind", ("created", DateRangeFilter))
