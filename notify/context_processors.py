from __future__ import annotations

from typing import Any, NamedTuple

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from notify import notices, texts
from notify.models import Notification


class Bell(NamedTuple):
    unread: int
    latest: list[tuple[Notification, texts.Text]]


def _bell(user_id: int) -> Bell:
    unread, latest = notices.bell(user_id)
    return Bell(unread, [(n, texts.describe(n.kind, n.params)) for n in latest])


def bell(request: HttpRequest) -> dict[str, Any]:
    """The navigation bar's bell: the unread count and the latest few, in one
    query, made only when a page shows it. Named ``nav_bell`` so that no
    page's own context replaces it (see games.context_processors.turns)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"nav_bell": SimpleLazyObject(lambda: _bell(user.pk))}
