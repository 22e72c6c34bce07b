"""Celery tasks for games: thin wrappers that take ids and call domain functions."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from games import play


@shared_task
def ping() -> str:
    """Worker health check: answers "pong" once a worker has picked it up."""
    return "pong"


@shared_task
def claim_timeouts() -> list[int]:
    """End every running game whose player to move has run out of time.

    Run by Celery beat every few seconds (CELERY_BEAT_SCHEDULE), so a game ends
    on time even when nobody is connected. Returns the ids of the games ended.
    """
    ended = []
    for game_id in play.expired_game_ids(timezone.now()):
        if not play.claim_time(game_id).running:
            ended.append(game_id)
    return ended
