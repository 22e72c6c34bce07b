"""Entering and leaving a tournament: who may join, checking in, withdrawing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from ladder import permits, ratings
from ladder.models import Player as LadderPlayer
from tournaments.changes import Refusal, changed_on_commit, locked
from tournaments.models import Entry, Pairing, Tournament

WHY_LENGTH = Entry._meta.get_field("withdrawn_why").max_length


def entry_refusal(tournament: Tournament, user: Any, now: datetime) -> str | None:
    """Why ``user`` may not join ``tournament`` now, or None if they may: what
    ``join`` checks, and what the page's Join button is shown by."""
    if not tournament.registration_open:
        return gettext("registration is closed")
    if tournament.entries.filter(withdrawn_at__isnull=True).count() >= tournament.max_players:
        return ngettext("the tournament is full (%(count)s player)", "the tournament is full (%(count)s players)",
                        tournament.max_players) % {"count": tournament.max_players}
    if tournament.registration_closes_at and now >= tournament.registration_closes_at:
        return gettext("registration closed at %(time)s") % {
            "time": tournament.registration_closes_at.isoformat(timespec="minutes")}
    if tournament.format == Tournament.Format.SWISS and tournament.current_round * 2 >= (tournament.rounds or 0) \
            and tournament.status != Tournament.Status.UPCOMING:
        return gettext("late entry is open only while fewer than half the rounds have been paired")
    ladder = ratings.standing_of(user, tournament.ladder)
    rating = ladder.rating
    is_bot = bool(LadderPlayer.objects.filter(user=user, is_bot=True).exists())
    if is_bot and not tournament.bots_allowed:
        return gettext("bots may not enter this tournament")
    if (restricted := permits.refusal(user, "tournament", rated=tournament.rated)) is not None:
        return restricted[:1].lower() + restricted[1:]  # a clause like the others: "you cannot join: a moderator..."
    if tournament.min_rating is not None and rating < tournament.min_rating:
        return gettext("your rating %(rating)s is below the minimum %(minimum)s") % {
            "rating": rating, "minimum": tournament.min_rating}
    if tournament.max_rating is not None and rating > tournament.max_rating:
        return gettext("your rating %(rating)s is above the maximum %(maximum)s") % {
            "rating": rating, "maximum": tournament.max_rating}
    games = ladder.rated_games
    if not is_bot and games < tournament.min_rated_games:
        return ngettext("you have played %(games)s rated games; %(count)s is needed",
                        "you have played %(games)s rated games; %(count)s are needed",
                        tournament.min_rated_games) % {"games": games, "count": tournament.min_rated_games}
    age = (now - user.date_joined).days
    if not is_bot and age < tournament.min_account_days:
        return ngettext("your account is %(age)s days old; it must be %(count)s day old",
                        "your account is %(age)s days old; it must be %(count)s days old",
                        tournament.min_account_days) % {"age": age, "count": tournament.min_account_days}
    return None


def join(tournament_id: int, user: Any) -> Entry:
    """Enter ``user``; a Swiss that has started takes them as a late entry
    with the next pairing number and no points for the rounds missed."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        now = timezone.now()
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None and entry.active:
            raise Refusal(gettext("you have already joined"))
        if entry is not None and tournament.status != Tournament.Status.UPCOMING:
            raise Refusal(gettext("you withdrew: you cannot enter this tournament again"))
        if (why := entry_refusal(tournament, user, now)) is not None:
            raise Refusal(gettext("you cannot join: %(why)s") % {"why": why})
        entry = fill_new_entry(tournament, entry or Entry(tournament=tournament, user=user), now)
        entry.save()
        changed_on_commit(tournament)
    return entry


def fill_new_entry(tournament: Tournament, entry: Entry, now: datetime) -> Entry:
    """An entry as it is made, however it is made (join, invite, admin):
    the ladder's rating now; a late entry into a running Swiss gets the next
    pairing number and no points for the rounds missed."""
    entry.withdrawn_at, entry.withdrawn_why = None, ""
    entry.rating = ratings.standing_of(entry.user, tournament.ladder).rating
    if tournament.status != Tournament.Status.UPCOMING:
        entry.number = (tournament.entries.aggregate(top=Max("number"))["top"] or 0) + 1
        entry.checked_in_at = now
    return entry


def withdraw(tournament_id: int, user: Any) -> Entry:
    """``user`` leaves: before the start their entry is gone; after it they
    are not paired again, and their results stand (round robin: see ``leave``)."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        entry = _active_entry(tournament, user)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise Refusal(gettext("the tournament is over"))
        leave(tournament, entry, "withdrew")
        changed_on_commit(tournament)
    return entry


def check_in(tournament_id: int, user: Any) -> Entry:
    with transaction.atomic():
        tournament = locked(tournament_id)
        entry = _active_entry(tournament, user)
        opens = tournament.check_in_opens_at
        now = timezone.now()
        if opens is None:
            raise Refusal(gettext("this tournament has no check-in"))
        if tournament.status != Tournament.Status.UPCOMING:
            raise Refusal(gettext("check-in has closed: the tournament has started"))
        if now < opens:
            raise Refusal(gettext("check-in opens at %(time)s") % {"time": opens.isoformat(timespec="minutes")})
        entry.checked_in_at = now
        entry.save(update_fields=["checked_in_at"])
        changed_on_commit(tournament)
    return entry


def _active_entry(tournament: Tournament, user: Any) -> Entry:
    entry = Entry.objects.filter(tournament=tournament, user=user, withdrawn_at__isnull=True).first()
    if entry is None:
        raise Refusal(gettext("you are not in this tournament"))
    return entry


def leave(tournament: Tournament, entry: Entry, why: str) -> None:
    """Take ``entry`` out of the pairings from now on.

    Round robin (issue 11, as FIDE C.05 suggests): a player who leaves before
    playing half of their games has every result annulled; later, their
    remaining games are lost by forfeit.
    """
    if tournament.status == Tournament.Status.UPCOMING:
        entry.delete()
        return
    # Cut to the column: "removed by the organizer: " and the site's 80-character
    # reason overflowed it (PostgreSQL refuses the save; SQLite kept it whole).
    entry.withdrawn_at, entry.withdrawn_why = timezone.now(), why[:WHY_LENGTH]
    entry.withdrawn_after_round = tournament.current_round
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        entry.annulled = _games_played(entry) * 2 < _games_scheduled(tournament)
    entry.save()


def _games_played(entry: Entry) -> int:
    return Pairing.objects.filter(Q(red=entry) | Q(black=entry), black__isnull=False).exclude(result="").count()


def _games_scheduled(tournament: Tournament) -> int:
    """Games each player of a round robin plays (all of the field's others, once or twice)."""
    players = tournament.entries.filter(number__isnull=False).count()
    return (players - 1) * (2 if tournament.double_round_robin else 1)
