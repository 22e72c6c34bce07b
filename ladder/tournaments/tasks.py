"""Celery tasks for tournaments: thin wrappers around ladder.tournaments.running.

Beat runs ``advance_due`` every few seconds; a round's end also queues
``advance`` for the moment its pause is over. Either may arrive twice or on
two workers at once: ``running.advance`` locks the tournament row and does
only what is still due, so a round is paired once.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from ladder.tournaments import notices, running


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(OperationalError,), retry_backoff=1, max_retries=3)
def advance(tournament_id: int) -> str:
    """Start, pair the next round of, or finish one tournament, if due."""
    return running.advance(tournament_id)


@shared_task
def advance_due() -> list[int]:
    """Queue ``advance`` for every tournament with a transition due; run by beat."""
    due = running.due_tournament_ids(timezone.now())
    for tournament_id in due:
        advance.delay(tournament_id)
    return due


@shared_task
def tell_starting_soon() -> list[int]:
    """Tell the entrants of tournaments starting in 5 minutes; run by beat."""
    return notices.tell_starting_soon(timezone.now())
