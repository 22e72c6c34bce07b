from __future__ import annotations

from typing import Any

from django import template

from notify.forms import NotifyPreferencesForm
from notify.mail import address_confirmed

register = template.Library()


@register.inclusion_tag("notify/_preferences.html", takes_context=True)
def notify_preferences(context: dict[str, Any]) -> dict[str, Any]:
    """The per-kind channel boxes, for the account page (which, on a lower
    floor, cannot import this app: a template tag names it instead)."""
    request = context["request"]
    return {"form": NotifyPreferencesForm(user_id=request.user.pk), "csrf_token": context.get("csrf_token"),
            "address": request.user.email, "confirmed": address_confirmed(request.user)}
