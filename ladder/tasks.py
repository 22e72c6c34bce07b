"""Celery tasks for the ladder (rating updates, pairings): none yet."""

from __future__ import annotations
