from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.turns import turns_json


def turns(request: HttpRequest) -> dict[str, Any]:
    """The navigation bar's "Your turn" list, made only when a page shows it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"turns": SimpleLazyObject(lambda: turns_json(user.pk))}
