"""The one Redis client of a process for what games keeps outside the database
(bot move state, the site's pulse), or None in the in-process setup."""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings


def client() -> Any:
    """A client on the site's Redis, or None when there is none (no REDIS_URL)."""
    return _client(settings.REDIS_URL) if settings.REDIS_URL else None


def database_number() -> int:
    """The Redis database of REDIS_URL (0 when it names none)."""
    path = urlsplit(settings.REDIS_URL).path.strip("/")
    return int(path) if path.isdigit() else 0


@functools.cache
def _client(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url, socket_timeout=2)
