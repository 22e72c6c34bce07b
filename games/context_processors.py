from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.turns import turns_json


def turns(request: HttpRequest) -> dict[str, Any]:
    """The navigation bar's "Your turn" list, made only when a page shows it.

    Named ``nav_turns``: a view's own context wins over a context processor's,
    and a replay's move list once named ``turns`` became the badge (issue 35).
    Names starting ``nav_`` belong to the navigation bar; no page uses them."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"nav_turns": SimpleLazyObject(lambda: turns_json(user.pk))}
