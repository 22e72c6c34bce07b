"""Helpers for the site tests (imported as tests.helpers)."""

from __future__ import annotations

import os

import pytest
import redis

ALLOW_NO_SERVICES = "ACEWEB_ALLOW_NO_SERVICES"


def redis_db_number(url: str) -> int:
    """The database number a Redis URL selects (0 when it names none)."""
    return int(redis.Redis.from_url(url).connection_pool.connection_kwargs.get("db", 0))


def require_service(variable: str, what: str) -> str:
    """The URL in VARIABLE; fail loudly when unset, or skip when allowed to.

    Service tests must not pass silently without their service: `make test`
    sets the URLs, and ACEWEB_ALLOW_NO_SERVICES=1 turns the failure into a
    visible skip for machines that have neither PostgreSQL nor Redis.
    """
    url = os.environ.get(variable, "")
    if url:
        return url
    message = (f"{variable} is not set, so {what} cannot be tested; run `make test`, "
               f"or set {ALLOW_NO_SERVICES}=1 to skip these tests")
    if os.environ.get(ALLOW_NO_SERVICES) == "1":
        pytest.skip(message)
    pytest.fail(message)
