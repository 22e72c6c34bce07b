"""The script that gives a page's JavaScript Django's gettext() (JavaScriptCatalog),
and static/js/zone.js, which tells the server the browser's time zone."""
from __future__ import annotations

from typing import Any

from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import get_language

register = template.Library()


@register.simple_tag(takes_context=True)
def javascript_catalog(context: dict[str, Any]) -> str:
    """The catalog's script tag, once per page: base.html asks for it where its own
    scripts run and each page with scripts asks again; pages without scripts (the
    home page draws its boards on the server) load none. The language is in the
    address so that a browser's cached catalog is never another language's."""
    request = context.get("request")
    if request is None or getattr(request, "_javascript_catalog_written", False):
        return ""
    request._javascript_catalog_written = True
    # zone.js rides along: where scripts run, the browser also tells its time zone.
    return format_html(
        '<script src="{}?lang={}"></script>\n<script src="{}" defer></script>',
        reverse("javascript-catalog"),
        get_language(),
        static("js/zone.js"),
    )
