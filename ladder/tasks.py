"""Celery tasks for the ladder: thin wrappers around ladder.seeks, ladder.challenges and
ladder.matchmaking."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from ladder import challenges, leaderboard, matchmaking, rank_counts, seeks


@shared_task
def expire_challenges() -> int:
    """Mark lapsed challenges expired (both players are told); returns how many."""
    return challenges.expire_challenges()


@shared_task
def expire_seeks() -> int:
    """Take down real-time seeks left open too long; returns how many."""
    return seeks.expire_seeks()


@shared_task
def match_pool() -> list[int]:
    """One matcher run over the rated pool; returns the ids of the games it started.

    Queued after every join (on commit) and run by beat every few seconds, so a
    window that has widened finds its pair without anyone joining.
    """
    return matchmaking.match()


@shared_task
def compact_rank_counts() -> int:
    """Fold the leaderboard's count rows together and sum them by rating for the
    active window (ladder/rank_counts.py); returns the rows written."""
    return rank_counts.compact(timezone.now(), timedelta(days=leaderboard.ACTIVE_DAYS))
