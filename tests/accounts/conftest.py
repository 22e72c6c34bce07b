"""Fixtures for the account tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> Iterator[None]:
    """allauth counts sign-ups, sign-ins and resets per IP in the cache; start every test at zero."""
    cache.clear()
    yield
    cache.clear()
