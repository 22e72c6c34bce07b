"""Celery tasks for games: thin wrappers that take ids and call domain functions."""

from __future__ import annotations

from celery import Task, shared_task
from django.db import OperationalError, transaction
from django.utils import timezone

from games import botmoves, finishing, moving, notices, reminders
from games.models import Game


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
    for game_id in finishing.expired_game_ids(timezone.now()):
        if not finishing.claim_time(game_id).running:
            ended.append(game_id)
    return ended


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(OperationalError,), retry_backoff=1, max_retries=3)
def play_bot_move(self: Task, game_id: int, ply: int) -> str:
    """A bot's move in ``game_id`` at ``ply`` (games.botmoves.play_move).

    Acknowledged only once done, and requeued if the worker is lost, so a
    worker that dies mid-move leaves the move to another one; the ply check
    and the row lock in moving.submit make it happen once. The task id, the
    same on every delivery, bounds how often that may happen.
    """
    return botmoves.play_move(game_id, ply, task_id=self.request.id)


@shared_task
def requeue_bot_moves() -> list[int]:
    """Queue bot moves that were never queued (games.botmoves.requeue_lost_moves); run by beat."""
    return botmoves.requeue_lost_moves()


@shared_task
def send_turn_digests() -> int:
    """The daily correspondence digest by e-mail (games.reminders); hourly by beat, once a day per player."""
    return reminders.send_turn_digests(timezone.now())


@shared_task
def send_clock_warnings() -> int:
    """Correspondence clocks about to run out (games.reminders); every few minutes by beat."""
    return reminders.send_clock_warnings(timezone.now())


# As lila's push waits before telling a correspondence player it is their move:
# a player who answers at once (the page open, or another tab) is not told.
TURN_DELAY_SECONDS = 2


@shared_task(ignore_result=True)
def tell_turn(game_id: int, ply: int) -> bool:
    """The correspondence "your turn" notice (games.notices.tell_turn)."""
    return notices.tell_turn(game_id, ply)


def queue_turn_notice(game: Game) -> None:
    """After a move in a correspondence game (games.broadcast.listen_to_moves), ask
    for the turn notice in TURN_DELAY_SECONDS, once the move commits: the mover
    waits for nothing, and the notice goes only if the move is still awaited."""
    if game.days_per_move is None or not game.running:
        return
    game_id, ply = game.pk, game.ply
    transaction.on_commit(lambda: tell_turn.apply_async((game_id, ply), countdown=TURN_DELAY_SECONDS))
