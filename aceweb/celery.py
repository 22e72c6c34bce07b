"""The Celery app, configured from Django settings (keys prefixed CELERY_)."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceweb.settings")

app = Celery("aceweb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
