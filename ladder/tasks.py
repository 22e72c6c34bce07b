"""Celery tasks for the ladder: thin wrappers around ladder.lobby, run by beat."""

from __future__ import annotations

from celery import shared_task

from ladder import lobby


@shared_task
def expire_challenges() -> int:
    """Mark lapsed challenges expired (both players are told); returns how many."""
    return lobby.expire_challenges()


@shared_task
def expire_seeks() -> int:
    """Take down real-time seeks left open too long; returns how many."""
    return lobby.expire_seeks()
