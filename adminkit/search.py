"""Finding a row by its number in an admin list's search box: "1234" or "#1234"."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

LONGEST = 18  # digits: anything longer is no row's number (and would overflow a bigint)


def number_in(search_term: str) -> int | None:
    """The number a search is for, or None if it is words."""
    text = search_term.strip().removeprefix("#")
    return int(text) if text.isdigit() and len(text) <= LONGEST else None


def or_number(found: QuerySet[Any], queryset: QuerySet[Any], search_term: str, field: str = "pk") -> QuerySet[Any]:
    """``found`` (the admin's own search), plus the rows whose ``field`` is the number searched for."""
    number = number_in(search_term)
    return found if number is None else found | queryset.filter(**{field: number})
