"""Each pytest-xdist worker gets a Redis database of its own.

pytest-django already gives each worker its own test database
(``test_<name>_gw0``, ``_gw1``, ...). Redis needs the same: the workers flush
their database at the start and end of the session, and the channel layer,
the Celery broker and the bots' wait keys must not cross between workers. So
worker N uses the REDIS_URL's database number plus N.

Loaded with ``-p tests.workers`` (pyproject's addopts), because it must change
REDIS_URL before pytest-django imports the settings, which read it; conftest
files load too late for that. xdist sets PYTEST_XDIST_WORKER before a worker's
plugins load. Processes the tests start (daphne, Celery workers) inherit the
changed environment.
"""

from __future__ import annotations

import os
import re

REDIS_DATABASES = 16  # Redis's default `databases`


def worker_redis_url(url: str, worker: str) -> str:
    """The URL with the database number moved up by the worker's index (gw1 -> +1)."""
    index = int(worker.removeprefix("gw"))
    found = re.fullmatch(r"(rediss?://[^/]*)(?:/(\d*))?(\?.*)?", url)
    if not found:
        raise ValueError(f"REDIS_URL {url!r} does not look like redis://host:port/db")
    base, number, query = found.group(1), int(found.group(2) or 0), found.group(3) or ""
    if number == 0:
        raise ValueError("REDIS_URL names database 0, a developer's `make run` data: "
                         "the tests flush their database, so give them one of their own (make test uses 13)")
    if number + index >= REDIS_DATABASES:
        raise ValueError(f"REDIS_URL's database {number} plus worker {worker}'s index passes "
                         f"{REDIS_DATABASES - 1}: give the tests a lower database number")
    return f"{base}/{number + index}{query}"


_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], _worker)
