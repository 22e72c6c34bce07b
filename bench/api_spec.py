"""The API's spec and docs page: what a request for them costs (issue 38, 12).

    .venv/bin/python bench/api_spec.py [--requests 500] [--builds 20]

Before issue 38 every GET /api/openapi.json built the spec anew: 176 ms of
server time, so 5.7 requests a second kept a daphne process busy, for anyone,
signed in or not. Now the spec and the docs page are built on a process's first
request and answered from memory after, with an ETag (api/spec.py, built_once).

This prints, each through the site's whole middleware stack (Django's test
client, in process, so ``time.process_time`` is the request's own CPU):

- ``build``: what every request used to cost, the spec built and rendered by
  ninja's own view (no cache), the median of BUILDS;
- ``first``: a process's first request (the build, kept);
- ``spec``: a later request, the median of REQUESTS;
- ``304``: a request with If-None-Match (a client that has the spec);
- ``docs``: the docs page, first and later.

Wall and CPU milliseconds a request, and the load average before and after.
It needs no database or Redis (the views read neither).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def timed(call: Callable[[], object], count: int) -> tuple[float, float]:
    """The median wall and CPU milliseconds of ``count`` calls."""
    walls, cpus = [], []
    for _ in range(count):
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def line(name: str, figures: tuple[float, float], count: int) -> None:
    wall, cpu = figures
    print(f"{name:<28} {wall:9.2f} ms wall {cpu:9.2f} ms CPU a request  (median of {count})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--builds", type=int, default=20)
    options = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceweb.settings")
    import django

    django.setup()
    from django.test import Client, RequestFactory
    from ninja.openapi.views import openapi_json

    from api.main import api

    print(f"load average at start: {os.getloadavg()}")
    client = Client(HTTP_HOST="localhost")
    request = RequestFactory().get("/api/openapi.json", HTTP_HOST="localhost")
    line("build (every request before)", timed(lambda: openapi_json(request, api=api).content, options.builds),
         options.builds)
    line("spec: first request", timed(lambda: client.get("/api/openapi.json"), 1), 1)
    spec = client.get("/api/openapi.json")
    print(f"spec: {len(spec.content):,} bytes, ETag {spec['ETag']}")
    line("spec: later requests", timed(lambda: client.get("/api/openapi.json"), options.requests), options.requests)
    etag = spec["ETag"]
    line("spec: 304 (If-None-Match)", timed(lambda: client.get("/api/openapi.json", HTTP_IF_NONE_MATCH=etag),
                                             options.requests), options.requests)
    line("docs: first request", timed(lambda: client.get("/api/docs"), 1), 1)
    line("docs: later requests", timed(lambda: client.get("/api/docs"), options.requests), options.requests)
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
