"""One way to write a moment in JSON, everywhere: the sockets' frames, the API's
answers and its streams (issue 38, 9)."""

from __future__ import annotations

from datetime import datetime, timezone

from django.core.serializers.json import DjangoJSONEncoder


def stamp(when: datetime) -> str:
    """``when`` in UTC to the millisecond, as Django's JSON encoder writes a
    datetime (which the API's answers go through): "2026-11-28T16:35:16.351Z".
    A field built here and one rendered from a datetime then read alike: cut
    to the millisecond first, so that reading it back and writing it again
    gives the same text (the encoder leaves out a fraction of zero)."""
    when = when.astimezone(timezone.utc)
    return str(DjangoJSONEncoder().default(when.replace(microsecond=when.microsecond // 1000 * 1000)))
