"""One way to write a moment in JSON, everywhere: the sockets' frames, the API's
answers and its streams (issue 38, 9)."""

from __future__ import annotations

from datetime import datetime, timezone

from django.core.serializers.json import DjangoJSONEncoder


def stamp(when: datetime) -> str:
    """``when`` in UTC to the millisecond, as Django's JSON encoder writes a
    datetime (which the API's answers go through): "2026-11-28T16:35:16.351Z".
    A field built here and one rendered from a datetime then read alike."""
    return str(DjangoJSONEncoder().default(when.astimezone(timezone.utc)))
