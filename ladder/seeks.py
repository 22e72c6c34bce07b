"""Seeks: a game offered in the lobby, which another player accepts (2 players)
or three others join seat by seat (4 players, Rhombus teams; issue 13).

Synchronous domain functions, called by the lobby socket (through
database_sync_to_async), by the form views, by Celery tasks and by tests. Every
change runs in one transaction with the seek row locked; a refusal raises
:class:`~ladder.inputs.LobbyRefusal` before anything is written. The sockets
are told after commit and only by id (ladder.lobby_groups).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import bots
from games.models import Game
from games.timecontrols import TimeControl
from ids.rows import row_id
from ladder import lobby_groups, permits, seating
from ladder.inputs import (ACE, LobbyRefusal, NotFound, NotYours, checked_colour, checked_partner, checked_players,
                           checked_rated, checked_rules, logged_in, offered_time_control, refuse_api_bot,
                           refuse_partners, setup)
from ladder.lobby_json import SeekJSON, seek_json
from ladder.models import REAL_TIME_SEEK_LIFE, Seek, SeekEntry, ladder_of

MAX_SEEKS_SHOWN = 200


def create_seek(user: Any, time_control: Any, *, rated: Any = True, colour: Any = "random",
                rules: Any = ACE, players: Any = 2, partner: Any = None) -> Seek:
    """Put an open seek in the lobby: one per user, game and time control.

    A 4-player seek (Rhombus) seats its creator at once and waits for three
    more (``join_seek``); ``partner`` names who will sit opposite the creator."""
    logged_in(user, lambda: gettext("log in to create a game"))
    refuse_api_bot(user, "seeks")
    tc = offered_time_control(time_control)
    rated, colour, chosen = checked_rated(rated), checked_colour(colour), checked_rules(rules)
    permits.check(user, "seek", rated=rated, error=LobbyRefusal)
    players = checked_players(players, chosen)
    partner = checked_partner(partner, players, user)
    if partner is not None:
        refuse_partners([user, partner])
    if players == 4:
        _not_seated_elsewhere(user, tc)
    already = LobbyRefusal(gettext("you already have an open %(game)s %(control)s seek: cancel it first")
                           % {"game": chosen.title, "control": tc.key})
    if Seek.objects.filter(creator=user, time_control=tc.key, kind=chosen.kind, variant=chosen.variant,
                           status=Seek.Status.OPEN).exists():
        raise already
    try:
        with transaction.atomic():
            seek = Seek.objects.create(creator=user, time_control=tc.key, rated=rated, colour=colour,
                                       kind=chosen.kind, variant=chosen.variant, players=players,
                                       partner=partner)
            if players == 4:
                SeekEntry.objects.create(seek=seek, user=user)
            lobby_groups.lobby_changed_on_commit()
    except IntegrityError:  # a second tab won the race; the constraint holds the rule
        raise already from None
    return seek


def cancel_seek(seek_id: Any, user: Any) -> Seek:
    """The creator takes their open seek back."""
    logged_in(user, lambda: gettext("log in to cancel a seek"))
    with transaction.atomic():
        seek = _locked_seek(seek_id)
        if seek.creator_id != user.pk:
            raise NotYours(gettext("only its creator can cancel a seek"))
        seek.status = Seek.Status.CANCELLED
        seek.save(update_fields=["status"])
        lobby_groups.lobby_changed_on_commit()
    return seek


def accept_seek(seek_id: Any, user: Any) -> Game | Seek:
    """Accept someone else's open seek: the game starts at once for both.

    A 4-player seek is joined instead (``join_seek``): the Seek comes back
    until the fourth player's join starts the Game."""
    logged_in(user, lambda: gettext("log in to accept a seek"))
    refuse_api_bot(user, "seeks")
    with transaction.atomic():
        seek = _locked_seek(seek_id)  # the lock makes a second acceptor wait, then see "accepted"
        if seek.players == 4:
            return _join(seek, user)
        if seek.creator_id == user.pk:
            raise LobbyRefusal(gettext("that is your own seek: wait for someone to accept it"))
        permits.check(user, "seek", rated=seek.rated, error=LobbyRefusal)
        game = seating.start_sides([seek.creator], [user], seek.colour, seek.rated, seek.tc, setup(seek))
        seek.status, seek.game = Seek.Status.ACCEPTED, game
        seek.save(update_fields=["status", "game"])
        lobby_groups.lobby_changed_on_commit()
    return game


# --- 4-player seeks (issue 13): filling seat by seat ------------------------


def join_seek(seek_id: Any, user: Any) -> Game | Seek:
    """Take a seat at an open 4-player seek; the fourth seat starts the game.

    The seek row's lock orders every join, leave and cancel of one seek, so two
    players racing for the last seat start one game: the second waits, then
    finds the seek accepted."""
    logged_in(user, lambda: gettext("log in to join a seek"))
    refuse_api_bot(user, "seeks")
    with transaction.atomic():
        return _join(_locked_seek(seek_id), user)


def _join(seek: Seek, user: Any) -> Game | Seek:
    if seek.players != 4:
        raise LobbyRefusal(gettext("that seek is for 2 players: accept it to play"))
    permits.check(user, "seek", rated=seek.rated, error=LobbyRefusal)
    seated = list(seek.entries.select_related("user"))
    if seek.creator_id == user.pk:
        raise LobbyRefusal(gettext("that is your own seek: you already sit at it; wait for three more players"))
    if any(entry.user_id == user.pk for entry in seated):
        raise LobbyRefusal(gettext("you have already joined that seek: wait for it to fill"))
    if bots.is_bot(user):
        raise LobbyRefusal(gettext("a bot cannot join seeks"))
    held = seek.partner_id is not None and all(entry.user_id != seek.partner_id for entry in seated)
    if held and user.pk != seek.partner_id and len(seated) == 3:
        raise LobbyRefusal(gettext("the last seat is held for %(name)s, the creator's partner")
                           % {"name": seek.partner.get_username()})
    _not_seated_elsewhere(user, seek.tc)
    refuse_partners([*(entry.user for entry in seated), user])
    SeekEntry.objects.create(seek=seek, user=user)
    lobby_groups.lobby_changed_on_commit()
    if len(seated) + 1 < 4:
        return seek
    game = _start_team_game(seek, [entry.user for entry in seated] + [user])
    seek.status, seek.game = Seek.Status.ACCEPTED, game
    seek.save(update_fields=["status", "game"])
    return game


def leave_seek(seek_id: Any, user: Any) -> Seek:
    """Give up one's seat at a 4-player seek before it fills; the creator cancels instead."""
    logged_in(user, lambda: gettext("log in to leave a seek"))
    with transaction.atomic():
        seek = _locked_seek(seek_id)
        if seek.creator_id == user.pk:
            raise LobbyRefusal(gettext("you created that seek: cancel it to close it for everyone"))
        left, _ = SeekEntry.objects.filter(seek=seek, user=user).delete()
        if not left:
            raise NotYours(gettext("you have not joined that seek"))
        lobby_groups.lobby_changed_on_commit()
    return seek


def _not_seated_elsewhere(user: Any, tc: TimeControl) -> None:
    """One open 4-player seek per player and time control: one game from one wait."""
    elsewhere = (SeekEntry.objects.filter(user=user, seek__status=Seek.Status.OPEN, seek__time_control=tc.key)
                 .select_related("seek").first())
    if elsewhere is not None:
        raise LobbyRefusal(gettext("you are already at an open 4-player %(control)s seek (seek %(seek)s): "
                                   "leave it first")
                           % {"control": tc.key, "seek": elsewhere.seek_id})


def _start_team_game(seek: Seek, users: list[Any]) -> Game:
    """Seat the four by teams (``teams``) and start the game."""
    ours, theirs = teams(seek, users)
    return seating.start_sides(ours, theirs, seek.colour, seek.rated, seek.tc, setup(seek))


def teams(seek: Seek, users: list[Any]) -> tuple[list[Any], list[Any]]:
    """(the creator's team, the other), the creator first: with the named
    partner, or else as balanced as the team ladder allows (strongest and
    weakest against the middle two)."""
    creator = next(user for user in users if user.pk == seek.creator_id)
    if seek.partner_id is not None:
        partner = next(user for user in users if user.pk == seek.partner_id)
        return [creator, partner], [user for user in users if user.pk not in (creator.pk, partner.pk)]
    pair, rest = seating.balanced_teams(users, ladder_of(seek.kind, 4))
    ours, theirs = (pair, rest) if creator in pair else (rest, pair)
    ours.sort(key=lambda user: user.pk != creator.pk)  # the creator first
    return ours, theirs


# --- Finding and listing seeks ------------------------------------------


def _locked_seek(seek_id: Any) -> Seek:
    """The open seek, locked for this transaction, or a refusal."""
    if not isinstance(seek_id, int) or isinstance(seek_id, bool):
        raise LobbyRefusal(gettext('"seek" must be a seek id (an integer)'))
    seek = (Seek.objects.select_for_update(of=("self",)).select_related("creator").filter(pk=seek_id).first()
            if row_id(seek_id) else None)  # a number past bigint names no seek (issue 35, 11)
    if seek is None:
        raise NotFound(gettext("there is no seek %(seek)s") % {"seek": seek_id})
    if seek.status != Seek.Status.OPEN:
        raise LobbyRefusal(gettext("that seek is no longer open (%(status)s)") % {"status": seek.status})
    return seek


def open_seeks(user: Any = None) -> list[SeekJSON]:
    """The lobby's list, oldest first, as one socket's user sees it."""
    seeks = (Seek.objects.filter(status=Seek.Status.OPEN)
             .select_related("creator", "creator__player", "partner").prefetch_related("entries__user"))
    return [seek_json(seek, user) for seek in seeks[:MAX_SEEKS_SHOWN]]


def expire_seeks(now: datetime | None = None) -> int:
    """Cancel real-time seeks nobody has taken for a long while: their creator has gone."""
    cutoff = (now or timezone.now()) - REAL_TIME_SEEK_LIFE
    old = Seek.objects.filter(status=Seek.Status.OPEN, created__lte=cutoff)
    stale = [seek.pk for seek in old if not seek.tc.correspondence]
    with transaction.atomic():
        count = (Seek.objects.filter(pk__in=stale, status=Seek.Status.OPEN)
                 .update(status=Seek.Status.CANCELLED))
        if count:
            lobby_groups.lobby_changed_on_commit()
    return count
