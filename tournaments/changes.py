"""Changing a tournament: its row locked for the transaction, a refusal in the
user's words, and its open pages told after commit.

Every change locks the tournament's row for its transaction, so that two
Celery workers, a redelivered task and a game ending at the same moment see
one another's work: a round is paired once and each game started once.
Players and watchers are told after commit.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from games import refusals
from ladder import lobby_groups
from tournaments.models import Tournament


class Refusal(refusals.Refusal):
    """A tournament action the site will not take; the message is for the user."""


def group_name(tournament_id: int) -> str:
    """The Channels group of everyone watching one tournament's page."""
    return f"tournament-{tournament_id}"


def locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise Refusal(gettext("there is no tournament %(id)s") % {"id": tournament_id})
    return tournament


def changed_on_commit(tournament: Tournament) -> None:
    """Every open page of the tournament reloads its standings, pairings and
    bracket: the new version is counted in the transaction, sent after it."""
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    version = Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)
    group = group_name(tournament.pk)
    transaction.on_commit(lambda: lobby_groups.send_to_group(group, {"type": "tournament.changed", "version": version}))
