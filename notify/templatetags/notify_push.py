from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from notify import push

register = template.Library()


@register.inclusion_tag("notify/_push_control.html", takes_context=True)
def push_control(context: template.Context) -> dict[str, Any]:
    """The account page's "Turn on browser notifications" (static/js/push.js).
    A tag, so that the preferences app's page shows it without importing notify."""
    return {"enabled": push.enabled(), "public_key": settings.WEBPUSH_VAPID_PUBLIC_KEY,
            "csrf_token": context.get("csrf_token")}
