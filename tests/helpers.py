"""Helpers for the site tests (imported as tests.helpers)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import pytest
import redis
from playwright.sync_api import Browser, sync_playwright

ALLOW_NO_SERVICES = "ACEWEB_ALLOW_NO_SERVICES"
ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
# Without the networking flags Chromium keeps calling out to Google's hosts,
# which this machine's closed network refuses.
CHROMIUM_ARGS = [
    "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


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
    if not url:
        missing(f"{variable} is not set, so {what} cannot be tested; run `make test`, "
                f"or set {ALLOW_NO_SERVICES}=1 to skip these tests")
    return url


def missing(message: str) -> NoReturn:
    """Fail: a test's service is absent. A visible skip only when explicitly allowed."""
    if os.environ.get(ALLOW_NO_SERVICES) == "1":
        pytest.skip(message)
    pytest.fail(message)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium under Playwright, headless (browsers cannot be downloaded here)."""
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} is missing: apt-get install chromium chromium-driver (make test does, as root)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
