"""Celery tasks for tournaments: thin wrappers around tournaments.advancing.

Beat runs ``advance_due`` every few seconds; a round's end also queues
``advance`` for the moment its pause is over. Either may arrive twice or on
two workers at once: ``advancing.advance`` locks the tournament row and does
only what is still due, so a round is paired once.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from tournaments import advancing, notices

# The tasks keep the names they had while this app lived in ladder/ (issue 36):
# queued messages and the beat schedule name them so, and a rolling deploy
# must run what an older process queued.
OLD_PREFIX = "ladder.tournaments.tasks."


@shared_task(name=OLD_PREFIX + "advance", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(OperationalError,), retry_backoff=1, max_retries=3)
def advance(tournament_id: int) -> str:
    """Start, pair the next round of, or finish one tournament, if due."""
    return advancing.advance(tournament_id)


@shared_task(name=OLD_PREFIX + "advance_due")
def advance_due() -> list[int]:
    """Queue ``advance`` for every tournament with a transition due; run by beat."""
    due = advancing.due_tournament_ids(timezone.now())
    for tournament_id in due:
        advance.delay(tournament_id)
    return due


@shared_task(name=OLD_PREFIX + "tell_starting_soon")
def tell_starting_soon() -> list[int]:
    """Tell the entrants of tournaments starting in 5 minutes; run by beat."""
    return notices.tell_starting_soon(timezone.now())
