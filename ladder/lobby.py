"""The lobby and direct challenges: offering a game, accepting it, and starting it.

Synchronous domain functions, called by the lobby socket (through
database_sync_to_async), by the form views, by Celery tasks and by tests. Every
change runs in one transaction with the seek or challenge row locked; a refusal
raises :class:`LobbyRefusal` before anything is written. The sockets are told
after commit and only by id (``lobby.changed``, ``challenge.changed``,
``game.started``): each socket then loads what its own user may see.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

import engine
from chat import lines as chat_lines
from games import bots, partners, refusals, starting
from games.models import Game
from games.timecontrols import OFFERED, TimeControl
from ids.rows import row_id
from ladder import bot_accounts, permits, ratings
from ladder.models import (REAL_TIME_SEEK_LIFE, Challenge, ChallengeInvitee, Colour, Seek, SeekEntry, challenge_life,
                           ladder_of)
from notify import live as notify_live
from notify import notices
from notify.models import Kind as NoticeKind

ACE = starting.ACE
LOBBY_GROUP = "lobby"
MAX_SEEKS_SHOWN = 200


class LobbyRefusal(ValueError):
    """Something the lobby will not do; the message is meant for the player."""


class TimeControlJSON(TypedDict):
    key: str
    label: str
    speed: str


class RulesJSON(TypedDict):
    key: str  # games.starting.Setup.key: "ace-in-the-hole", "rhombus", "rhombus-formation"
    title: str


class SeekJSON(TypedDict):
    id: int
    rules: RulesJSON
    creator: str
    rating: str  # as shown: "1512", or "1512?" while provisional (ladder.elo.display)
    time_control: TimeControlJSON
    rated: bool
    colour: str
    mine: bool
    players: int  # 2, or 4 for a Rhombus team game filling seat by seat
    joined: list[str]  # who sits at it so far, in the order they joined, the creator first
    partner: str | None  # the creator's named partner (4 players), joined or not
    held: bool  # a seat is held for that partner, who has not joined yet
    joined_me: bool  # the socket's user sits at this seek (and may leave it)
    bots: dict[str, bots.BotFlagJSON]  # the bots among the names above, to flag them BOT


class ChallengeJSON(TypedDict):
    id: int
    rules: RulesJSON
    challenger: str
    challenged: str
    time_control: TimeControlJSON
    rated: bool
    colour: str  # the challenger's wish
    status: str
    expires_at: str
    direction: str  # "incoming" or "outgoing", seen from the socket's user
    game: int | None
    url: str | None
    players: int  # 2, or 4: then ``challenged`` is the partner
    partner: str | None  # 4 players: the challenger's partner
    opponents: list[str]  # 4 players: the two named to play against them
    accepted: list[str]  # 4 players: who has accepted so far
    declined_by: str | None  # 4 players: who declined, closing it for all
    answered: bool  # the socket's user is an invitee who has accepted already
    bots: dict[str, bots.BotFlagJSON]  # the bots among the names above, to flag them BOT


def game_url(game_id: int) -> str:
    """The game page (built by the games app) for a game id."""
    return f"/games/{game_id}/"


def user_group(user_id: int) -> str:
    """The Channels group of every lobby socket of one user (tabs, devices):
    notify's, which its notices and "your turn" changes reach too."""
    return notify_live.user_group(user_id)


# --- Checking what a player asks for --------------------------------------


def offered_time_control(key: Any) -> TimeControl:
    """The offered control named by ``key`` ("5+3", "3d"), or a refusal."""
    offered = ", ".join(tc.key for tc in OFFERED)
    tc = TimeControl.from_request(key)
    if tc not in OFFERED:
        raise LobbyRefusal(gettext("%(key)s is not an offered time control: choose one of %(offered)s")
                           % {"key": repr(key), "offered": offered})
    return tc


def checked_colour(colour: Any) -> str:
    if colour not in Colour.values:
        raise LobbyRefusal(gettext('"colour" must be red, black or random'))
    return str(colour)


def checked_rules(key: Any) -> starting.Setup:
    """The game a seek or challenge is for, by its key ("rhombus-formation")."""
    try:
        return starting.setup_of(key)
    except refusals.Refusal as refusal:
        raise LobbyRefusal(str(refusal)) from None


def setup(row: Seek | Challenge) -> starting.Setup:
    return starting.Setup(row.kind, row.variant)


def rules_json(row: Seek | Challenge) -> RulesJSON:
    return {"key": setup(row).key, "title": setup(row).title}


def checked_rated(rated: Any) -> bool:
    if not isinstance(rated, bool):
        raise LobbyRefusal(gettext('"rated" must be true or false'))
    return rated


def _logged_in(user: Any, refusal: Callable[[], str]) -> None:
    """Refuse a visitor with ``refusal()`` ("log in to ..."), worded only when needed."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise LobbyRefusal(refusal())


_NOT_FOR_BOTS: dict[str, Callable[[], str]] = {
    "seeks": lambda: gettext("BOT accounts play challenges, the computer and tournaments, not seeks"),
    "the pool": lambda: gettext("BOT accounts play challenges, the computer and tournaments, not the pool"),
}


def refuse_api_bot(user: Any, where: str, error: type[LobbyRefusal] = LobbyRefusal) -> None:
    """A BOT account (ladder.bot_accounts) never waits for a stranger: as on
    lichess, it plays challenges, the computer and tournaments, not ``where``."""
    if bot_accounts.is_api_bot(user):
        raise error(_NOT_FOR_BOTS[where]())


def refuse_api_bot_on_site(user: Any) -> None:
    """The site's lobby (its forms and socket) is for people: a BOT account
    does everything through the API, which calls this module directly."""
    if bot_accounts.is_api_bot(user):
        raise LobbyRefusal(gettext("BOT accounts play through the API (see /api/docs)"))


# --- Seeks ----------------------------------------------------------------


def checked_players(players: Any, chosen: starting.Setup) -> int:
    """2 or 4, as the rules allow (Ace in the Hole: 2; Rhombus: 2 or 4, RH31)."""
    if players not in (2, 4) or isinstance(players, bool):
        raise LobbyRefusal(gettext('"players" must be 2 or 4'))
    try:
        engine.GAMES[chosen.kind].seats_for(players)
    except engine.EngineError as error:  # "Ace in the Hole is played by 2 players, not 4"
        raise LobbyRefusal(str(error)) from None
    return int(players)


def checked_partner(partner: Any, players: int, user: Any) -> Any:
    """The named partner's account, or None when the site is to pair the teams."""
    if partner is None or (isinstance(partner, str) and not partner.strip()):
        return None
    if players != 4:
        raise LobbyRefusal(gettext("only a 4-player seek has a partner: choose 4 players or leave the partner empty"))
    if not isinstance(partner, str):
        raise LobbyRefusal(gettext('"partner" must be a username'))
    found = _player(partner)
    if found.pk == user.pk:
        raise LobbyRefusal(gettext("you cannot be your own partner: name another player or leave it empty"))
    if bots.is_bot(found):
        raise LobbyRefusal(gettext("%(name)s is a computer player: choose it under Play the computer in the lobby")
                           % {"name": found.get_username()})
    return found


def refuse_partners(users: Sequence[Any]) -> None:
    """No game, seek or challenge seating two partners of a running team game
    together (RH36: no hints between partners; games.partners)."""
    why = partners.refusal(users)
    if why is not None:
        raise LobbyRefusal(why)


def create_seek(user: Any, time_control: Any, *, rated: Any = True, colour: Any = "random",
                rules: Any = ACE, players: Any = 2, partner: Any = None) -> Seek:
    """Put an open seek in the lobby: one per user, game and time control.

    A 4-player seek (Rhombus) seats its creator at once and waits for three
    more (``join_seek``); ``partner`` names who will sit opposite the creator."""
    _logged_in(user, lambda: gettext("log in to create a game"))
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
            lobby_changed_on_commit()
    except IntegrityError:  # a second tab won the race; the constraint holds the rule
        raise already from None
    return seek


def cancel_seek(seek_id: Any, user: Any) -> Seek:
    """The creator takes their open seek back."""
    _logged_in(user, lambda: gettext("log in to cancel a seek"))
    with transaction.atomic():
        seek = _locked_seek(seek_id)
        if seek.creator_id != user.pk:
            raise LobbyRefusal(gettext("only its creator can cancel a seek"))
        seek.status = Seek.Status.CANCELLED
        seek.save(update_fields=["status"])
        lobby_changed_on_commit()
    return seek


def accept_seek(seek_id: Any, user: Any) -> Game | Seek:
    """Accept someone else's open seek: the game starts at once for both.

    A 4-player seek is joined instead (``join_seek``): the Seek comes back
    until the fourth player's join starts the Game."""
    _logged_in(user, lambda: gettext("log in to accept a seek"))
    refuse_api_bot(user, "seeks")
    with transaction.atomic():
        seek = _locked_seek(seek_id)  # the lock makes a second acceptor wait, then see "accepted"
        if seek.players == 4:
            return _join(seek, user)
        if seek.creator_id == user.pk:
            raise LobbyRefusal(gettext("that is your own seek: wait for someone to accept it"))
        permits.check(user, "seek", rated=seek.rated, error=LobbyRefusal)
        game = _start([seek.creator], [user], seek.colour, seek.rated, seek.tc, setup(seek))
        seek.status, seek.game = Seek.Status.ACCEPTED, game
        seek.save(update_fields=["status", "game"])
        lobby_changed_on_commit()
    return game


# --- 4-player seeks (issue 13): filling seat by seat ------------------------


def join_seek(seek_id: Any, user: Any) -> Game | Seek:
    """Take a seat at an open 4-player seek; the fourth seat starts the game.

    The seek row's lock orders every join, leave and cancel of one seek, so two
    players racing for the last seat start one game: the second waits, then
    finds the seek accepted."""
    _logged_in(user, lambda: gettext("log in to join a seek"))
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
    lobby_changed_on_commit()
    if len(seated) + 1 < 4:
        return seek
    game = _start_team_game(seek, [entry.user for entry in seated] + [user])
    seek.status, seek.game = Seek.Status.ACCEPTED, game
    seek.save(update_fields=["status", "game"])
    return game


def leave_seek(seek_id: Any, user: Any) -> Seek:
    """Give up one's seat at a 4-player seek before it fills; the creator cancels instead."""
    _logged_in(user, lambda: gettext("log in to leave a seek"))
    with transaction.atomic():
        seek = _locked_seek(seek_id)
        if seek.creator_id == user.pk:
            raise LobbyRefusal(gettext("you created that seek: cancel it to close it for everyone"))
        left, _ = SeekEntry.objects.filter(seek=seek, user=user).delete()
        if not left:
            raise LobbyRefusal(gettext("you have not joined that seek"))
        lobby_changed_on_commit()
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
    return _start(ours, theirs, seek.colour, seek.rated, seek.tc, setup(seek))


def teams(seek: Seek, users: list[Any]) -> tuple[list[Any], list[Any]]:
    """(the creator's team, the other), the creator first: with the named
    partner, or else as balanced as the team ladder allows (strongest and
    weakest against the middle two)."""
    creator = next(user for user in users if user.pk == seek.creator_id)
    if seek.partner_id is not None:
        partner = next(user for user in users if user.pk == seek.partner_id)
        return [creator, partner], [user for user in users if user.pk not in (creator.pk, partner.pk)]
    pair, rest = balanced_teams(users, ladder_of(seek.kind, 4))
    ours, theirs = (pair, rest) if creator in pair else (rest, pair)
    ours.sort(key=lambda user: user.pk != creator.pk)  # the creator first
    return ours, theirs


def balanced_teams(users: Sequence[Any], ladder: str) -> tuple[list[Any], list[Any]]:
    """Four players as two teams as even as ``ladder``'s ratings allow: the
    strongest and the weakest against the middle two (seeks and the pool)."""
    # Stable order on ties: the given order, so equal ratings pair the first with the last.
    by_rating = sorted(users, key=lambda user: -ratings.standing_of(user, ladder).rating)
    return [by_rating[0], by_rating[3]], [by_rating[1], by_rating[2]]


def team_seats(first: Sequence[Any], second: Sequence[Any]) -> tuple[Any, ...]:
    """Seat order for two sides of one or two players, ``first`` taking the
    first seat (Red; SW, who moves first, RH9): with teams, partners sit
    opposite, so the turn order SW, SE, NE, NW alternates the teams (RH31)."""
    return tuple(player for pair in zip(first, second, strict=True) for player in pair)


def _locked_seek(seek_id: Any) -> Seek:
    """The open seek, locked for this transaction, or a refusal."""
    if not isinstance(seek_id, int) or isinstance(seek_id, bool):
        raise LobbyRefusal(gettext('"seek" must be a seek id (an integer)'))
    seek = (Seek.objects.select_for_update(of=("self",)).select_related("creator").filter(pk=seek_id).first()
            if row_id(seek_id) else None)  # a number past bigint names no seek (issue 35, 11)
    if seek is None:
        raise LobbyRefusal(gettext("there is no seek %(seek)s") % {"seek": seek_id})
    if seek.status != Seek.Status.OPEN:
        raise LobbyRefusal(gettext("that seek is no longer open (%(status)s)") % {"status": seek.status})
    return seek


def open_seeks(user: Any = None) -> list[SeekJSON]:
    """The lobby's list, oldest first, as one socket's user sees it."""
    seeks = (Seek.objects.filter(status=Seek.Status.OPEN)
             .select_related("creator", "creator__player", "partner").prefetch_related("entries__user"))
    return [seek_json(seek, user) for seek in seeks[:MAX_SEEKS_SHOWN]]


def _seated(seek: Seek) -> list[Any]:
    return [entry.user for entry in seek.entries.all()] if seek.players == 4 else [seek.creator]


def _named_at(seek: Seek) -> list[Any]:
    """Everyone a seek names: who sits at it and the partner it holds a seat for."""
    return _seated(seek) + ([seek.partner] if seek.partner_id is not None else [])


def bot_flags(named: Sequence[Any]) -> dict[str, bots.BotFlagJSON]:
    """{name: flag} for the bots among the users ``named``, from the cached bot
    list (games.bots.bot_levels): every lobby socket rebuilds these lists at
    every lobby change, so no query for them."""
    levels = bots.bot_levels()
    return {user.get_username(): bots.flag_json(levels[user.pk]) for user in named if user.pk in levels}


def seek_json(seek: Seek, user: Any = None) -> SeekJSON:
    """One seek as ``user`` sees it."""
    me = getattr(user, "pk", None)
    seated = _seated(seek)
    partner = seek.partner.get_username() if seek.partner_id is not None else None
    return {
        "id": seek.pk,
        "rules": rules_json(seek),
        "creator": seek.creator.get_username(),
        "rating": ratings.display_of(seek.creator),
        "time_control": time_control_json(seek.tc),
        "rated": seek.rated,
        "colour": seek.colour,
        "mine": user is not None and seek.creator_id == me,
        "players": seek.players,
        "joined": [seated_user.get_username() for seated_user in seated],
        "partner": partner,
        "held": partner is not None and all(seated_user.pk != seek.partner_id for seated_user in seated),
        "joined_me": me is not None and any(seated_user.pk == me for seated_user in seated),
        "bots": bot_flags(_named_at(seek)),
    }


def time_control_json(tc: TimeControl) -> TimeControlJSON:
    return {"key": tc.key, "label": tc.label, "speed": tc.speed}


def expire_seeks(now: datetime | None = None) -> int:
    """Cancel real-time seeks nobody has taken for a long while: their creator has gone."""
    cutoff = (now or timezone.now()) - REAL_TIME_SEEK_LIFE
    old = Seek.objects.filter(status=Seek.Status.OPEN, created__lte=cutoff)
    stale = [seek.pk for seek in old if not seek.tc.correspondence]
    with transaction.atomic():
        count = (Seek.objects.filter(pk__in=stale, status=Seek.Status.OPEN)
                 .update(status=Seek.Status.CANCELLED))
        if count:
            lobby_changed_on_commit()
    return count


# --- Challenges -----------------------------------------------------------


def create_challenge(user: Any, username: Any, time_control: Any, *, rated: Any = True,
                     colour: Any = "random", rules: Any = ACE, now: datetime | None = None) -> Challenge:
    """Challenge the player called ``username``; it lapses if unanswered."""
    _logged_in(user, lambda: gettext("log in to challenge a player"))
    tc = offered_time_control(time_control)
    rated, colour, chosen = checked_rated(rated), checked_colour(colour), checked_rules(rules)
    permits.check(user, "challenge", rated=rated, error=LobbyRefusal)
    opponent = _player(username)
    if opponent.pk == user.pk:
        raise LobbyRefusal(gettext("you cannot challenge yourself"))
    if bots.is_bot(opponent):  # bots play only through "Play the computer" (games/bots.py)
        raise LobbyRefusal(gettext("%(name)s is a computer player: choose it under Play the computer in the lobby")
                           % {"name": opponent.get_username()})
    refuse_partners([user, opponent])
    now = now or timezone.now()
    if _pending(user, opponent, now).exists():
        raise LobbyRefusal(gettext("you have already challenged %(name)s: wait for an answer")
                           % {"name": opponent.get_username()})
    try:
        with transaction.atomic():
            # A lapsed one the task has not reached yet must not block a new one.
            Challenge.objects.filter(challenger=user, challenged=opponent, status=Challenge.Status.PENDING,
                                     expires_at__lte=now).update(status=Challenge.Status.EXPIRED)
            challenge = Challenge.objects.create(
                challenger=user, challenged=opponent, time_control=tc.key, rated=rated, colour=colour,
                kind=chosen.kind, variant=chosen.variant, expires_at=now + challenge_life(tc))
            quietly = _declined_if_muted(challenge, [opponent])
            _challenge_changed_on_commit(challenge, quietly=quietly)
            if not quietly:
                _tell_challenged(challenge, [opponent.pk])
    except IntegrityError:
        name = opponent.get_username()
        raise LobbyRefusal(gettext("you have already challenged %(name)s: wait for an answer")
                           % {"name": name}) from None
    return challenge


def create_team_challenge(user: Any, partner: Any, opponents: Any, time_control: Any, *, rated: Any = True,
                          colour: Any = "random", rules: Any = "rhombus",
                          now: datetime | None = None) -> Challenge:
    """Challenge three named players to a 4-player game (Rhombus teams, RH31):
    the user and ``partner`` against the two ``opponents``. Each invitee
    accepts or declines; the game starts when all three have accepted."""
    _logged_in(user, lambda: gettext("log in to challenge players"))
    tc = offered_time_control(time_control)
    rated, colour, chosen = checked_rated(rated), checked_colour(colour), checked_rules(rules)
    permits.check(user, "challenge", rated=rated, error=LobbyRefusal)
    checked_players(4, chosen)  # "Ace in the Hole is played by 2 players, not 4"
    mate, rivals = _invitees(user, partner, opponents)
    refuse_partners([user, mate, *rivals])
    now = now or timezone.now()
    already = LobbyRefusal(gettext("you already have a challenge pending with %(name)s as the challenged player or "
                                   "partner: wait for an answer or cancel it") % {"name": mate.get_username()})
    if _pending(user, mate, now).exists():
        raise already
    try:
        with transaction.atomic():
            Challenge.objects.filter(challenger=user, challenged=mate, status=Challenge.Status.PENDING,
                                     expires_at__lte=now).update(status=Challenge.Status.EXPIRED)
            challenge = Challenge.objects.create(
                challenger=user, challenged=mate, players=4, time_control=tc.key, rated=rated, colour=colour,
                kind=chosen.kind, variant=chosen.variant, expires_at=now + challenge_life(tc))
            ChallengeInvitee.objects.bulk_create(
                [ChallengeInvitee(challenge=challenge, user=mate, role=ChallengeInvitee.Role.PARTNER)]
                + [ChallengeInvitee(challenge=challenge, user=rival, role=ChallengeInvitee.Role.OPPONENT)
                   for rival in rivals])
            quietly = _declined_if_muted(challenge, [mate, *rivals])
            _challenge_changed_on_commit(challenge, quietly=quietly)
            if not quietly:
                _tell_challenged(challenge, [mate.pk, *(rival.pk for rival in rivals)])
    except IntegrityError:
        raise already from None
    return challenge


def _tell_challenged(challenge: Challenge, user_ids: list[int]) -> None:
    """The bell's notice of a new challenge (the toast with Accept and Decline
    comes through the challenge's own messages)."""
    params = {"challenger": challenge.challenger.get_username(), "time_control": challenge.time_control,
              "rated": challenge.rated, "players": challenge.players,
              "title": starting.Setup(challenge.kind, challenge.variant).title}
    for user_id in user_ids:
        notices.send(user_id, NoticeKind.CHALLENGE, challenge_key(challenge.pk), params, url=reverse("ladder:lobby"))


def challenge_key(challenge_id: int) -> str:
    return f"challenge:{challenge_id}"


def _declined_if_muted(challenge: Challenge, invited: list[Any]) -> bool:
    """A player who muted the challenger (chat.lines.mute) never sees their
    challenges: it is declined at once, as if by them (issue 25)."""
    muting = [invitee for invitee in invited if chat_lines.mutes(invitee, challenge.challenger)]
    if not muting:
        return False
    challenge.invitees.filter(user__in=muting).update(answer=ChallengeInvitee.Answer.DECLINED)
    challenge.status = Challenge.Status.DECLINED
    challenge.save(update_fields=["status"])
    return True


def _invitees(user: Any, partner: Any, opponents: Any) -> tuple[Any, list[Any]]:
    """The partner's and the two opponents' accounts, or a refusal naming the fault."""
    if not isinstance(opponents, (list, tuple)) or len(opponents) != 2:
        raise LobbyRefusal(gettext("a 4-player challenge names two opponents"))
    if not isinstance(partner, str) or not partner.strip():
        raise LobbyRefusal(gettext("a 4-player challenge names your partner"))
    names = [partner, *opponents]
    if not all(isinstance(name, str) and name.strip() for name in names):
        raise LobbyRefusal(gettext("name both opponents"))
    found = [_player(name) for name in names]
    for invitee in found:
        if invitee.pk == user.pk:
            raise LobbyRefusal(gettext("you cannot challenge yourself: name three other players"))
        if bots.is_bot(invitee):  # bots play only through "Play the computer" (games/bots.py)
            raise LobbyRefusal(gettext("%(name)s is a computer player: play the computer with 4 players in the lobby "
                                       "instead") % {"name": invitee.get_username()})
    if len({invitee.pk for invitee in found}) != 3:
        raise LobbyRefusal(gettext("name three different players: a partner and two opponents"))
    return found[0], found[1:]


def accept_challenge(challenge_id: Any, user: Any, now: datetime | None = None) -> Game | Challenge:
    """The challenged player says yes: the game starts for both.

    In a 4-player challenge each invitee says yes in turn: the Challenge comes
    back until the third acceptance starts the Game. The challenge row's lock
    orders the answers, so the last two racing start one game."""
    _logged_in(user, lambda: gettext("log in to accept a challenge"))
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, now)
        if challenge.players == 4:
            return _accept_team(challenge, user)
        if challenge.challenged_id != user.pk:
            raise LobbyRefusal(gettext("only the challenged player can accept a challenge"))
        permits.check(user, "challenge", rated=challenge.rated, error=LobbyRefusal)
        game = _start([challenge.challenger], [user], challenge.colour, challenge.rated, challenge.tc,
                      setup(challenge))
        challenge.status, challenge.game = Challenge.Status.ACCEPTED, game
        challenge.save(update_fields=["status", "game"])
        _challenge_changed_on_commit(challenge)
    return game


def _accept_team(challenge: Challenge, user: Any) -> Game | Challenge:
    invitees = list(challenge.invitees.select_related("user"))
    mine = next((invitee for invitee in invitees if invitee.user_id == user.pk), None)
    if mine is None:
        raise LobbyRefusal(gettext("only an invited player can accept a challenge"))
    if mine.answer == ChallengeInvitee.Answer.ACCEPTED:
        raise LobbyRefusal(gettext("you have already accepted that challenge: wait for the others"))
    permits.check(user, "challenge", rated=challenge.rated, error=LobbyRefusal)
    refuse_partners([challenge.challenger, *(invitee.user for invitee in invitees)])
    mine.answer = ChallengeInvitee.Answer.ACCEPTED
    mine.save(update_fields=["answer"])
    _challenge_changed_on_commit(challenge)
    if any(invitee.answer != ChallengeInvitee.Answer.ACCEPTED for invitee in invitees):
        return challenge
    partner = next(invitee.user for invitee in invitees if invitee.role == ChallengeInvitee.Role.PARTNER)
    ours = [challenge.challenger, partner]
    theirs = [invitee.user for invitee in invitees if invitee.role == ChallengeInvitee.Role.OPPONENT]
    game = _start(ours, theirs, challenge.colour, challenge.rated, challenge.tc, setup(challenge))
    challenge.status, challenge.game = Challenge.Status.ACCEPTED, game
    challenge.save(update_fields=["status", "game"])
    return game


def decline_challenge(challenge_id: Any, user: Any, now: datetime | None = None) -> Challenge:
    """The challenged player says no (any invitee of a 4-player challenge: it closes for all)."""
    return _close(challenge_id, user, now, _invited, Challenge.Status.DECLINED,
                  lambda: gettext("only the challenged player can decline a challenge"))


def cancel_challenge(challenge_id: Any, user: Any, now: datetime | None = None) -> Challenge:
    """The challenger withdraws."""
    return _close(challenge_id, user, now, lambda c, pk: c.challenger_id == pk, Challenge.Status.CANCELLED,
                  lambda: gettext("only the challenger can cancel a challenge"))


def _invited(challenge: Challenge, user_id: int) -> bool:
    if challenge.players != 4:
        return bool(challenge.challenged_id == user_id)
    return bool(challenge.invitees.filter(user_id=user_id).exists())


def _close(challenge_id: Any, user: Any, now: datetime | None, may: Callable[[Challenge, int], bool],
           status: str, refusal: Callable[[], str]) -> Challenge:
    _logged_in(user, lambda: gettext("log in to answer a challenge"))
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, now)
        if not may(challenge, user.pk):
            raise LobbyRefusal(refusal())
        if status == Challenge.Status.DECLINED:  # kept so the others are told who closed it (4 players)
            challenge.invitees.filter(user_id=user.pk).update(answer=ChallengeInvitee.Answer.DECLINED)
        challenge.status = status
        challenge.save(update_fields=["status"])
        _challenge_changed_on_commit(challenge)
    return challenge


def expire_challenges(now: datetime | None = None) -> int:
    """Mark every lapsed pending challenge expired and tell both players; for a periodic task."""
    now = now or timezone.now()
    with transaction.atomic():
        lapsed = list(Challenge.objects.select_for_update(skip_locked=True)
                      .filter(status=Challenge.Status.PENDING, expires_at__lte=now))
        for challenge in lapsed:
            challenge.status = Challenge.Status.EXPIRED
            challenge.save(update_fields=["status"])
            _challenge_changed_on_commit(challenge)
    return len(lapsed)


def _player(username: Any) -> Any:
    if not isinstance(username, str) or not username.strip():
        raise LobbyRefusal(gettext("name the player to challenge"))
    name = username.strip()
    opponent = None
    if could_be_username(name):
        opponent = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
    if opponent is None:
        raise LobbyRefusal(gettext("there is no player called %(name)s") % {"name": repr(name)})
    return opponent


def could_be_username(name: str) -> bool:
    """Whether some account could be called NAME: it passes the username field's own
    validators (letters, digits and @.+-_, at most 150). Anything else is nobody,
    without a query: a client's text may hold what PostgreSQL cannot take (NUL, a
    lone surrogate from a JSON "\\ud800" escape)."""
    field = get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD)
    try:
        field.run_validators(name)
    except ValidationError:
        return False
    return True


def _pending(user: Any, opponent: Any, now: datetime) -> Any:
    return Challenge.objects.filter(challenger=user, challenged=opponent, status=Challenge.Status.PENDING,
                                    expires_at__gt=now)


def _locked_challenge(challenge_id: Any, now: datetime | None) -> Challenge:
    """The pending, unlapsed challenge, locked, or a refusal (the row is left as it is)."""
    if not isinstance(challenge_id, int) or isinstance(challenge_id, bool):
        raise LobbyRefusal(gettext('"challenge" must be a challenge id (an integer)'))
    challenge = (Challenge.objects.select_for_update(of=("self",)).select_related("challenger", "challenged")
                 .filter(pk=challenge_id).first() if row_id(challenge_id) else None)  # issue 35, 11
    if challenge is None:
        raise LobbyRefusal(gettext("there is no challenge %(challenge)s") % {"challenge": challenge_id})
    if challenge.status == Challenge.Status.PENDING and challenge.lapsed(now or timezone.now()):
        raise LobbyRefusal(gettext("that challenge has expired"))
    if challenge.status != Challenge.Status.PENDING:
        raise LobbyRefusal(gettext("that challenge is no longer open (%(status)s)") % {"status": challenge.status})
    return challenge


def pending_challenges(user: Any, now: datetime | None = None) -> list[ChallengeJSON]:
    """The user's open challenges, both ways, oldest first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    now = now or timezone.now()
    mine = (Challenge.objects.filter(pk__in=_challenges_of(user).values("pk"))
            .filter(status=Challenge.Status.PENDING, expires_at__gt=now)
            .select_related("challenger", "challenged").prefetch_related("invitees__user"))
    return [challenge_json(c, user) for c in mine]


def challenge_for(challenge_id: int, user: Any) -> ChallengeJSON | None:
    """One challenge as ``user`` sees it, if they are one of its players."""
    challenge = (Challenge.objects.select_related("challenger", "challenged").prefetch_related("invitees__user")
                 .filter(pk__in=_challenges_of(user).filter(pk=challenge_id).values("pk")).first())
    return None if challenge is None else challenge_json(challenge, user)


def _challenges_of(user: Any) -> Any:
    """Every challenge ``user`` sent, received, or is invited to (4 players)."""
    return Challenge.objects.filter(Q(challenger=user) | Q(challenged=user) | Q(invitees__user=user))


def _named_in(challenge: Challenge) -> list[Any]:
    """Everyone a challenge names: its challenger, the challenged and (4 players) the invitees."""
    invitees = [invitee.user for invitee in challenge.invitees.all()] if challenge.players == 4 else []
    return [challenge.challenger, challenge.challenged, *invitees]


def challenge_json(challenge: Challenge, user: Any) -> ChallengeJSON:
    """One challenge as ``user`` sees it."""
    me = getattr(user, "pk", None)
    invitees = list(challenge.invitees.all()) if challenge.players == 4 else []
    named = {invitee.role: invitee.user.get_username() for invitee in invitees}  # the partner's name
    return {
        "id": challenge.pk,
        "rules": rules_json(challenge),
        "challenger": challenge.challenger.get_username(),
        "challenged": challenge.challenged.get_username(),
        "time_control": time_control_json(challenge.tc),
        "rated": challenge.rated,
        "colour": challenge.colour,
        "status": challenge.status,
        "expires_at": challenge.expires_at.isoformat(),
        "direction": "outgoing" if challenge.challenger_id == getattr(user, "pk", None) else "incoming",
        "game": challenge.game_id,
        "url": game_url(challenge.game_id) if challenge.game_id else None,
        "players": challenge.players,
        "partner": named.get(ChallengeInvitee.Role.PARTNER),
        "opponents": [i.user.get_username() for i in invitees if i.role == ChallengeInvitee.Role.OPPONENT],
        "accepted": [i.user.get_username() for i in invitees if i.answer == ChallengeInvitee.Answer.ACCEPTED],
        "declined_by": next((i.user.get_username() for i in invitees
                             if i.answer == ChallengeInvitee.Answer.DECLINED), None),
        "answered": any(i.user_id == me and i.answer == ChallengeInvitee.Answer.ACCEPTED for i in invitees),
        "bots": bot_flags(_named_in(challenge)),
    }


# --- Starting the game ----------------------------------------------------


def _start(ours: Sequence[Any], theirs: Sequence[Any], colour: str, rated: bool, tc: TimeControl,
           chosen: starting.Setup) -> Game:
    """Seat two sides (a player each, or a team each, ours' creator first) by
    the creator's wish (random by `secrets`) and start the game. "Red" is the
    side of the first seat of any game (Rhombus: SW, who moves first, RH9)."""
    if colour == Colour.RANDOM:
        colour = secrets.choice([Colour.RED, Colour.BLACK])
    first, second = (ours, theirs) if colour == Colour.RED else (theirs, ours)
    return _start_seated(team_seats(first, second), rated, tc, chosen)


def _start_seated(seated: Sequence[Any], rated: bool, tc: TimeControl, chosen: starting.Setup) -> Game:
    """Start the game with the users in seat order, take them out of the pool and
    other real-time seeks, and send each to it after commit."""
    if not tc.correspondence:
        from ladder import matchmaking  # lazy: matchmaking builds on this module

        matchmaking.take_out_of_pool(*seated)
    try:
        game = starting.start_game(*seated, rated=rated, time_control=tc, setup=chosen)
    except refusals.Refusal as refusal:
        raise LobbyRefusal(str(refusal)) from None
    if not tc.correspondence:
        withdraw_real_time_seeks(*seated)
    game_id, players = game.pk, tuple(user.pk for user in seated)
    transaction.on_commit(lambda: send_game_started(game_id, players))
    return game


def play_computer_team(user: Any, level: Any, tc: TimeControl, *, rated: bool = False,
                       rules: Any = "rhombus") -> Game:
    """Play the computer with 4 players (Rhombus): the user at SW, who moves
    first (RH9, RH31), with a bot partner at NE, against two bots of the same level."""
    _logged_in(user, lambda: gettext("log in to play the computer"))
    if bots.is_bot(user):
        raise LobbyRefusal(gettext("a bot cannot start games"))
    chosen = checked_rules(rules)
    checked_players(4, chosen)
    if not isinstance(level, str) or level not in bots.engine_bots().LEVELS:
        raise LobbyRefusal(gettext("%(level)s is not a bot level: choose one of %(levels)s")
                           % {"level": repr(level), "levels": ", ".join(bots.engine_bots().LEVELS)})
    try:
        partner, left, right = bot_accounts.team_bots(level)
        # Turn order SW, SE, NE, NW: the partner opposite, at NE.
        return starting.start_game(user, left, partner, right, rated=rated, time_control=tc, setup=chosen)
    except refusals.Refusal as refusal:
        raise LobbyRefusal(str(refusal)) from None


def withdraw_real_time_seeks(*players: Any) -> bool:
    """Someone sitting down to a real-time game is not waiting for another one:
    their open real-time seeks close and they leave the 4-player ones they joined.

    ``players`` are users or their ids; True if any seek was withdrawn or left.
    """
    ids = [getattr(player, "pk", player) for player in players]
    stale = [seek.pk for seek in Seek.objects.filter(creator_id__in=ids, status=Seek.Status.OPEN)
             if not seek.tc.correspondence]
    closed = bool(stale) and Seek.objects.filter(pk__in=stale).update(status=Seek.Status.CANCELLED) > 0
    seats = [entry.pk for entry in SeekEntry.objects.filter(user_id__in=ids, seek__status=Seek.Status.OPEN)
             .exclude(seek__creator_id__in=ids).select_related("seek") if not entry.seek.tc.correspondence]
    left = bool(seats) and SeekEntry.objects.filter(pk__in=seats).delete()[0] > 0
    return closed or left


# --- Telling the sockets --------------------------------------------------


def send_to_group(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    send: Callable[[str, dict[str, Any]], Any] = async_to_sync(layer.group_send)
    send(group, message)


def send_to_groups(messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """Many group messages in one trip to the event loop: async_to_sync costs a
    thread hand-off each time, which for a tournament round's thousand
    notices was most of the round's start (bench/tournaments.py)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    async_to_sync(send_all)()


def lobby_changed_on_commit() -> None:
    transaction.on_commit(lambda: send_to_group(LOBBY_GROUP, {"type": "lobby.changed"}))


def _challenge_changed_on_commit(challenge: Challenge, *, quietly: bool = False) -> None:
    """Every player's sockets reload the challenge; the message holds only its id.
    Quietly: only the challenger's (a challenge declined for a player who muted them)."""
    message = {"type": "challenge.changed", "challenge": challenge.pk}
    players = {challenge.challenger_id} if quietly else {challenge.challenger_id, challenge.challenged_id}
    if challenge.players == 4 and not quietly:
        players.update(challenge.invitees.values_list("user_id", flat=True))
    if challenge.status != Challenge.Status.PENDING:  # answered or lapsed: its notice is no news any more
        notices.mark_key_read(sorted(players - {challenge.challenger_id}), NoticeKind.CHALLENGE,
                              challenge_key(challenge.pk))

    def send() -> None:
        for pk in players:
            send_to_group(user_group(pk), message)

    transaction.on_commit(send)


def send_game_started(game_id: int, players: tuple[int, ...]) -> None:
    send_games_started([(game_id, players)])


def send_games_started(games: Sequence[tuple[int, tuple[int, ...]]]) -> None:
    """Each player of each game is sent to it, on whatever page they are."""
    send_to_groups(games_started_messages(games))


def games_started_messages(games: Sequence[tuple[int, tuple[int, ...]]]) -> list[tuple[str, dict[str, Any]]]:
    return [(user_group(pk), {"type": "game.started", "game": game_id})
            for game_id, players in games for pk in players]
