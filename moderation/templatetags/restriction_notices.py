"""``{% restriction_notices %}``: what the signed-in player is restricted or
playbanned from, with the reasons and a link to appeal (the lobby shows it)."""

from __future__ import annotations

from typing import Any

from django import template

from moderation import restrictions

register = template.Library()


@register.inclusion_tag("moderation/_in_force.html", takes_context=True)
def restriction_notices(context: dict[str, Any]) -> dict[str, Any]:
    return {"notices": restrictions.in_force(context.get("user"))}
