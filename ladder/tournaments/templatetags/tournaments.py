"""``{% tournament_history player %}``: the tournaments a player entered, for
their profile. A tag rather than a view change, so that the ladder's profile
view needs nothing from tournaments."""

from __future__ import annotations

from typing import Any

from django import template

from ladder.tournaments.models import Entry

register = template.Library()

HISTORY_LENGTH = 20


@register.inclusion_tag("tournaments/_history.html")
def tournament_history(player: Any) -> dict[str, Any]:
    entries = (Entry.objects.filter(user=player).select_related("tournament")
               .order_by("-tournament__starts_at")[:HISTORY_LENGTH])
    return {"entries": entries}
