"""What tournaments tell their players through notify (issue 26): a start
in 5 minutes, once, and each round's pairing. Public facts only: names,
round numbers, links."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction

from tournaments.models import Entry, Pairing, Tournament
from notify import notices
from notify.models import Kind

SOON = timedelta(minutes=5)


def key(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def tell_starting_soon(now: datetime) -> list[int]:
    """Every active entrant of each tournament starting within SOON hears it
    once (Celery beat runs this every few seconds: tasks.tell_starting_soon).
    Returns the ids of the tournaments told about."""
    due = Tournament.objects.filter(status=Tournament.Status.UPCOMING, soon_told_at__isnull=True,
                                    starts_at__gt=now, starts_at__lte=now + SOON).values_list("pk", "name")
    told = []
    for tournament_id, name in due:
        with transaction.atomic():
            # Claimed by an UPDATE: of two workers at once, one tells.
            if not Tournament.objects.filter(pk=tournament_id, soon_told_at__isnull=True).update(soon_told_at=now):
                continue
            entrants = Entry.objects.filter(tournament_id=tournament_id, withdrawn_at__isnull=True)
            for user_id in entrants.values_list("user_id", flat=True):
                notices.send(user_id, Kind.TOURNAMENT_SOON, key(tournament_id),
                             {"tournament": tournament_id, "name": name}, url=f"/tournaments/{tournament_id}/")
        told.append(tournament_id)
    return told


def tell_round(tournament: Tournament, number: int, pairings: list[Pairing]) -> None:
    """Each player with a board in round ``number`` hears it is paired, with a
    link to their game; a bye hears that too. A board forfeited before it
    started (an absent opponent) has no game to go to: nothing is sent."""
    base = {"tournament": tournament.pk, "name": tournament.name, "round": number}
    for pairing in pairings:
        if pairing.bye:
            notices.send(pairing.red.user_id, Kind.TOURNAMENT_ROUND, key(tournament.pk), {**base, "bye": True},
                         url=tournament.get_absolute_url())
            continue
        if pairing.game_id is None or pairing.black is None:
            continue
        for mine, theirs in ((pairing.red, pairing.black), (pairing.black, pairing.red)):
            notices.send(mine.user_id, Kind.TOURNAMENT_ROUND, key(tournament.pk),
                         {**base, "opponent": theirs.user.get_username(), "game": pairing.game_id},
                         url=f"/games/{pairing.game_id}/")
