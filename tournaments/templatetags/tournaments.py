"""``{% tournament_history player %}``: the tournaments a player entered, for
their profile. A tag rather than a view change, so that the ladder's profile
view needs nothing from tournaments."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Count, Q
from tournaments import organizing, pages, wording
from tournaments.models import Entry, Tournament

register = template.Library()

HISTORY_LENGTH = 20


@register.inclusion_tag("tournaments/_history.html")
def tournament_history(player: Any) -> dict[str, Any]:
    """Each with the place finished in, out of how many ("place 2 of 8")."""
    entries = (Entry.objects.filter(user=player).select_related("tournament")
               .annotate(field_size=Count("tournament__entries", filter=Q(tournament__entries__number__isnull=False)))
               .order_by("-tournament__starts_at")[:HISTORY_LENGTH])
    return {"entries": entries}


@register.inclusion_tag("tournaments/_podium.html")
def tournament_podium(tournament: Tournament) -> dict[str, Any]:
    """A finished tournament's winner and podium (places kept at the end; shared places listed
    together, and in the standings' formats said to be shared, with the tiebreaks that could not part them)."""
    if tournament.status != Tournament.Status.FINISHED:
        return {"places": []}
    entries = (Entry.objects.filter(tournament=tournament, place__lte=3).select_related("user")
               .only("place", "user__username").order_by("place", "number"))
    places: dict[int, list[str]] = {}
    for entry in entries:
        places.setdefault(entry.place, []).append(entry.user.get_username())  # type: ignore[arg-type]
    tiebreaks = None if tournament.elimination else pages.tiebreak_labels(tournament)
    return {"places": [wording.podium_line(place, names, tiebreaks) for place, names in places.items()]}


@register.simple_tag
def invitable_bots(tournament: Tournament) -> list[Any]:
    """``{% invitable_bots tournament as bots %}``: the computer players the organizer may invite."""
    return organizing.invitable_bots(tournament)


@register.filter
def withdrawal(why: str) -> str:
    """``{{ entry.withdrawn_why|withdrawal }}``: why a player left, in the reader's language."""
    return wording.withdrawal(why)


@register.filter
def end_note(note: str) -> str:
    """``{{ tournament.end_note|end_note }}``: why the tournament ended, in the reader's language."""
    return wording.end_note(note)
