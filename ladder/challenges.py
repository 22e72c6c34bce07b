"""Direct challenges: one player names another (or, for 4 players, a partner and
two opponents), who accepts or declines before it lapses.

Synchronous domain functions, called by the lobby socket (through
database_sync_to_async), by the form views, by Celery tasks and by tests. Every
change runs in one transaction with the challenge row locked; a refusal raises
:class:`~ladder.inputs.LobbyRefusal` before anything is written. The players'
sockets are told after commit and only by id (``challenge.changed``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from chat import lines as chat_lines
from games import bots, starting
from games.models import Game
from ids.rows import row_id
from ladder import lobby_groups, permits, seating
from ladder.inputs import (ACE, LobbyRefusal, NotFound, NotYours, checked_colour, checked_players, checked_rated,
                           checked_rules, logged_in, named_player, offered_time_control, refuse_partners, setup)
from ladder.lobby_json import ChallengeJSON, challenge_json
from ladder.models import Challenge, ChallengeInvitee, challenge_life
from notify import notices
from notify.models import Kind as NoticeKind


def create_challenge(user: Any, username: Any, time_control: Any, *, rated: Any = True,
                     colour: Any = "random", rules: Any = ACE, now: datetime | None = None) -> Challenge:
    """Challenge the player called ``username``; it lapses if unanswered."""
    logged_in(user, lambda: gettext("log in to challenge a player"))
    tc = offered_time_control(time_control)
    rated, colour, chosen = checked_rated(rated), checked_colour(colour), checked_rules(rules)
    permits.check(user, "challenge", rated=rated, error=LobbyRefusal)
    opponent = named_player(username)
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
    logged_in(user, lambda: gettext("log in to challenge players"))
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
    found = [named_player(name) for name in names]
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
    logged_in(user, lambda: gettext("log in to accept a challenge"))
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, now)
        if challenge.players == 4:
            return _accept_team(challenge, user)
        if challenge.challenged_id != user.pk:
            raise NotYours(gettext("only the challenged player can accept a challenge"))
        permits.check(user, "challenge", rated=challenge.rated, error=LobbyRefusal)
        game = seating.start_sides([challenge.challenger], [user], challenge.colour, challenge.rated, challenge.tc,
                                   setup(challenge))
        challenge.status, challenge.game = Challenge.Status.ACCEPTED, game
        challenge.save(update_fields=["status", "game"])
        _challenge_changed_on_commit(challenge)
    return game


def _accept_team(challenge: Challenge, user: Any) -> Game | Challenge:
    invitees = list(challenge.invitees.select_related("user"))
    mine = next((invitee for invitee in invitees if invitee.user_id == user.pk), None)
    if mine is None:
        raise NotYours(gettext("only an invited player can accept a challenge"))
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
    game = seating.start_sides(ours, theirs, challenge.colour, challenge.rated, challenge.tc, setup(challenge))
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
    logged_in(user, lambda: gettext("log in to answer a challenge"))
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, now)
        if not may(challenge, user.pk):
            raise NotYours(refusal())
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
        raise NotFound(gettext("there is no challenge %(challenge)s") % {"challenge": challenge_id})
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
            lobby_groups.send_to_group(lobby_groups.user_group(pk), message)

    transaction.on_commit(send)
