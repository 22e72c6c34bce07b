"""Celery tasks for games: thin wrappers that take ids and call domain functions."""

from __future__ import annotations

from celery import Task, shared_task
from django.db import OperationalError
from django.utils import timezone

from games import bots, play, reminders


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


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(OperationalError,), retry_backoff=1, max_retries=3)
def play_bot_move(self: Task, game_id: int, ply: int) -> str:
    """A bot's move in ``game_id`` at ``ply`` (games.bots.play_move).

    Acknowledged only once done, and requeued if the worker is lost, so a
    worker that dies mid-move leaves the move to another one; the ply check
    and the row lock in play.submit make it happen once. The task id, the
    same on every delivery, bounds how often that may happen.
    """
    return bots.play_move(game_id, ply, task_id=self.request.id)


@shared_task
def requeue_bot_moves() -> list[int]:
    """Queue bot moves that were never queued (games.bots.requeue_lost_moves); run by beat."""
    return bots.requeue_lost_moves()


@shared_task
def send_turn_digests() -> int:
    """The daily correspondence digest by e-mail (games.reminders); hourly by beat, once a day per player."""
    return reminders.send_turn_digests(timezone.now())


@shared_task
def send_clock_warnings() -> int:
    """Correspondence clocks about to run out (games.reminders); every few minutes by beat."""
    return reminders.send_clock_warnings(timezone.now())
