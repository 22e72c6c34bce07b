"""The Celery app, configured from Django settings (keys prefixed CELERY_)."""

from __future__ import annotations

import logging
import os

from celery import Celery
from celery.signals import after_setup_logger

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceweb.settings")

app = Celery("aceweb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class RoutineTasksFilter(logging.Filter):
    """Drops the INFO lines ("received", "succeeded") of the tasks beat sends every
    few seconds; their warnings and errors, and every other task's lines, pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, dict) else {}
        routine = {entry["task"] for entry in app.conf.beat_schedule.values()}
        return record.levelno >= logging.WARNING or args.get("name") not in routine


@after_setup_logger.connect
def quiet_beat(**kwargs: object) -> None:
    """Beat sends a task every few seconds (CELERY_BEAT_SCHEDULE) and logs each send
    at INFO, and the worker two more lines per run; only their warnings and errors
    are worth reading. Bot moves and everything else keep their lines. Only for
    a worker that runs beat itself (`make run`: scripts/dev.py sets ACEWEB_QUIET_BEAT)."""
    if os.environ.get("ACEWEB_QUIET_BEAT") != "1":
        return
    quiet_routine_tasks()


def quiet_routine_tasks() -> None:
    """Keep only the warnings and errors of the beat's routine tasks: in a worker
    that runs beat (above), and in daphne when it runs the schedule itself
    (aceweb/embedded_beat.py, where eager tasks log "succeeded" too)."""
    logging.getLogger("celery.beat").setLevel(logging.WARNING)
    for name in ("celery.worker.strategy", "celery.app.trace"):  # "received", "succeeded"
        logger = logging.getLogger(name)
        if not any(isinstance(f, RoutineTasksFilter) for f in logger.filters):
            logger.addFilter(RoutineTasksFilter())
