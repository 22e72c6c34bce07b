"""Celery tasks for games: thin wrappers that take ids and call domain functions."""

from __future__ import annotations

from celery import shared_task


@shared_task
def ping() -> str:
    """Worker health check: answers "pong" once a worker has picked it up."""
    return "pong"
