"""Celery beat for the embedded run (`make run` with no REDIS_URL): there is
no worker and no beat then, so the periodic tasks (clocks, the rated pool,
tournaments starting and pairing their rounds) would never run.

An ASGI wrapper starts one asyncio task on daphne's own event loop at the
first connection; it runs each task of CELERY_BEAT_SCHEDULE on its interval
in a worker thread (tasks are eager there). Running on daphne's loop is what
lets what the tasks tell the sockets reach them through the in-memory
channel layer. Only when ACEWEB_EMBEDDED_BEAT=1 (scripts/dev.py sets it), so
that tests driving the ASGI app keep their clocks to themselves.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from aceweb.celery import app as celery_app
from aceweb.celery import quiet_routine_tasks

log = logging.getLogger(__name__)
TICK_SECONDS = 1.0


def wanted() -> bool:
    return os.environ.get("ACEWEB_EMBEDDED_BEAT") == "1" and bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))


def _run(name: str) -> None:
    close_old_connections()
    try:
        # By the name the schedule gives, as a worker finds it: a task's name need
        # not be its module's path (tournaments' keep their ladder.* names, issue 36).
        celery_app.tasks[name].apply()
    except Exception:  # one failing task must not stop the others' schedule
        log.exception("embedded beat: %s failed", name)
    finally:
        close_old_connections()


async def beat() -> None:
    schedule = {entry["task"]: float(entry["schedule"]) for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    # The tasks register as their modules are imported, which a worker's autodiscovery does.
    await sync_to_async(celery_app.loader.import_default_modules, thread_sensitive=False)()
    due = dict.fromkeys(schedule, time.monotonic())
    while True:
        now = time.monotonic()
        for name, interval in schedule.items():
            if now >= due[name]:
                due[name] = now + interval
                await sync_to_async(_run, thread_sensitive=False)(name)
        await asyncio.sleep(TICK_SECONDS)


class EmbeddedBeat:
    """ASGI middleware: starts ``beat`` once, on the serving loop, at the first call."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.first_call = True
        self.task: asyncio.Task[None] | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.first_call:  # decided once: every request and socket passes here
            self.first_call = False
            if wanted():
                quiet_routine_tasks()  # as a worker with beat: their errors only
                self.task = asyncio.get_running_loop().create_task(beat())
                log.warning("aceweb: no Celery worker: the beat schedule runs inside daphne (embedded run)")
        await self.app(scope, receive, send)
