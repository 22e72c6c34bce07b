"""Rows for the admin's lists, many at a time (bulk_create: no signals, no game
started through the rules): one factory per model registered in the admin, each
adding ``n`` more rows to its model's list. A model registered without a factory
here fails tests/site/test_admin_queries.py."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from api.models import ApiToken
from chat.models import ChatTimeout, Line, Mute, RoomLock
from games.models import Game, Move, Seat
from ladder.models import Ban, Challenge, PlaybanRecord, Player, PoolEntry, Rating, RatingChange, Seek
from moderation.models import ModerationAction, Report, Restriction
from notify.models import Notification, PushSubscription, Sent
from notify.models import Preference as NotifyPreference
from preferences.models import Preference
from relation.models import Follow
from tournaments.models import Entry, Pairing, Round, Tournament

_serial = itertools.count()


def users(n: int) -> list[Any]:
    User = get_user_model()
    return User.objects.bulk_create([User(username=f"user{next(_serial)}", email=f"u{next(_serial)}@example.org",
                                          password="!") for _ in range(n)])


def games(n: int) -> list[Game]:
    """Finished games, each with its two seats (and two players of its own, as the lists show names)."""
    now = timezone.now()
    made = Game.objects.bulk_create([Game(position={}, commitment="c", status=Game.Status.FINISHED, winner="red",
                                          reason=Game.Reason.RESIGNATION, finished=now) for _ in range(n)])
    players = users(2 * n)
    Seat.objects.bulk_create([Seat(game=game, number=number, name=name, user=players[2 * i + number])
                              for i, game in enumerate(made) for number, name in enumerate(("red", "black"))])
    return made


def moves(n: int) -> None:
    game = Game.objects.filter(seats__isnull=False).first() or games(1)[0]
    start = Move.objects.filter(game=game).count()
    Move.objects.bulk_create([Move(game=game, ply=start + i, seat="red", action="8D b1xc3") for i in range(n)])


def groups(n: int) -> None:
    Group.objects.bulk_create([Group(name=f"group{next(_serial)}") for _ in range(n)])


def email_addresses(n: int) -> None:
    EmailAddress.objects.bulk_create([EmailAddress(user=user, email=user.email, primary=True, verified=True)
                                      for user in users(n)])


def preferences(n: int) -> None:
    Preference.objects.bulk_create([Preference(user=user, language="de") for user in users(n)])


def notifications(n: int) -> None:
    Notification.objects.bulk_create([Notification(user=user, kind="turn", key=f"game:{i}")
                                      for i, user in enumerate(users(n))])


def notify_preferences(n: int) -> None:
    NotifyPreference.objects.bulk_create([NotifyPreference(user=user, kind="turn") for user in users(n)])


def push_subscriptions(n: int) -> None:
    PushSubscription.objects.bulk_create([
        PushSubscription(user=user, endpoint=f"https://push.example.org/{next(_serial)}", p256dh="k", auth="a")
        for user in users(n)])


def sent(n: int) -> None:
    Sent.objects.bulk_create([Sent(user=user, kind="turn", key="digest:2026-11-26") for user in users(n)])


def follows(n: int) -> None:
    people = users(n + 1)
    Follow.objects.bulk_create([Follow(follower=people[0], followed=user) for user in people[1:]])


def lines(n: int) -> None:
    Line.objects.bulk_create([Line(room=f"game:{i}", author=user, text="gg") for i, user in enumerate(users(n))])


def chat_timeouts(n: int) -> None:
    moderator, until = users(1)[0], timezone.now() + timedelta(minutes=15)
    ChatTimeout.objects.bulk_create([ChatTimeout(user=user, reason="spam", ends=until, moderator=moderator)
                                     for user in users(n)])


def mutes(n: int) -> None:
    people = users(n + 1)
    Mute.objects.bulk_create([Mute(user=people[0], muted=user) for user in people[1:]])


def api_tokens(n: int) -> None:
    """Half revoked by a moderator, so the list's "revoked by" column has names to show."""
    people, now = users(n + 1), timezone.now()
    ApiToken.objects.bulk_create([
        ApiToken(user=user, name="bot", digest=f"{next(_serial):064d}", hint="acew_abcd", scopes=["read"],
                 revoked=now if i % 2 else None, revoked_by=people[0] if i % 2 else None,
                 revoked_reason="leaked" if i % 2 else "") for i, user in enumerate(people[1:])])


def room_locks(n: int) -> None:
    moderator, until = users(1)[0], timezone.now() + timedelta(hours=1)
    RoomLock.objects.bulk_create([RoomLock(room=f"game:{next(_serial)}", ends=until, moderator=moderator)
                                  for _ in range(n)])


def seeks(n: int) -> None:
    Seek.objects.bulk_create([Seek(creator=user, time_control="5+3", status=Seek.Status.ACCEPTED, game=game)
                              for user, game in zip(users(n), games(n), strict=True)])


def challenges(n: int) -> None:
    people, until = users(n + 1), timezone.now() + timedelta(minutes=10)
    Challenge.objects.bulk_create([
        Challenge(challenger=people[0], challenged=user, time_control="5+3", status=Challenge.Status.ACCEPTED,
                  game=game, expires_at=until) for user, game in zip(people[1:], games(n), strict=True)])


def players(n: int) -> None:
    Player.objects.bulk_create([Player(user=user) for user in users(n)])


def ratings(n: int) -> None:
    Rating.objects.bulk_create([Rating(user=user, ladder="rhombus") for user in users(n)])


def pool_entries(n: int) -> None:
    now = timezone.now()
    PoolEntry.objects.bulk_create([PoolEntry(user=user, time_control="5+3", rating=1500, status=PoolEntry.Status.PAIRED,
                                             joined=now, game=game)
                                   for user, game in zip(users(n), games(n), strict=True)])


def playban_records(n: int) -> None:
    PlaybanRecord.objects.bulk_create([PlaybanRecord(user=user, outcomes=["good", "abort"]) for user in users(n)])


def bans(n: int) -> None:
    now = timezone.now()
    Ban.objects.bulk_create([Ban(user=user, started=now, ends=now + timedelta(hours=1), offence="abort", game=game)
                             for user, game in zip(users(n), games(n), strict=True)])


def rating_changes(n: int) -> None:
    RatingChange.objects.bulk_create([
        RatingChange(game=game, user=seat.user, opponent=other.user, before=1500, after=1510, opponent_rating=1500,
                     score=1, k=20)
        for game in games(n) for seat, other in [tuple(game.seats.all())]])


def tournaments(n: int) -> None:
    organizer, now = users(1)[0], timezone.now()
    Tournament.objects.bulk_create([Tournament(name=f"Cup {i}", organizer=organizer, starts_at=now)
                                    for i in range(n)])


def _entries(n: int) -> tuple[Tournament, list[Entry]]:
    tournament = Tournament.objects.create(name="Open", organizer=users(1)[0], starts_at=timezone.now())
    return tournament, Entry.objects.bulk_create([Entry(tournament=tournament, user=user, number=i + 1)
                                                  for i, user in enumerate(users(n))])


def entries(n: int) -> None:
    _entries(n)


def rounds(n: int) -> None:
    organizer, now = users(1)[0], timezone.now()
    made = Tournament.objects.bulk_create([Tournament(name=f"Cup {i}", organizer=organizer, starts_at=now)
                                           for i in range(n)])
    Round.objects.bulk_create([Round(tournament=tournament, number=1) for tournament in made])


def pairings(n: int) -> None:
    tournament, people = _entries(2 * n)
    round_ = Round.objects.create(tournament=tournament, number=1)
    Pairing.objects.bulk_create([Pairing(round=round_, board=i + 1, red=people[2 * i], black=people[2 * i + 1],
                                         game=game) for i, game in enumerate(games(n))])


def reports(n: int) -> None:
    people = users(n + 1)
    Report.objects.bulk_create([Report(reporter=people[0], reported=user, game=game, reason="cheating")
                                for user, game in zip(people[1:], games(n), strict=True)])


def moderation_actions(n: int) -> None:
    moderator = users(1)[0]
    ModerationAction.objects.bulk_create([
        ModerationAction(kind=ModerationAction.Kind.UNDO_RATING, moderator=moderator, user=user, game=game,
                         reason="test", outcome="done")
        for user, game in zip(users(n), games(n), strict=True)])


def restrictions(n: int) -> None:
    Restriction.objects.bulk_create([Restriction(user=user, scope="rated") for user in users(n)])


def users_list(n: int) -> None:
    users(n)


FACTORIES: dict[str, Callable[[int], Any]] = {
    "auth.group": groups, "auth.user": users_list, "account.emailaddress": email_addresses,
    "preferences.preference": preferences, "notify.notification": notifications,
    "notify.preference": notify_preferences, "notify.pushsubscription": push_subscriptions, "notify.sent": sent,
    "relation.follow": follows, "chat.line": lines, "chat.chattimeout": chat_timeouts, "chat.mute": mutes,
    "chat.roomlock": room_locks, "games.game": games, "games.move": moves, "ladder.seek": seeks,
    "ladder.challenge": challenges, "ladder.player": players, "ladder.rating": ratings,
    "ladder.poolentry": pool_entries, "ladder.playbanrecord": playban_records, "ladder.ban": bans,
    "ladder.ratingchange": rating_changes, "tournaments.tournament": tournaments, "tournaments.entry": entries,
    "tournaments.round": rounds, "tournaments.pairing": pairings, "moderation.report": reports,
    "moderation.moderationaction": moderation_actions, "moderation.restriction": restrictions,
    "api.apitoken": api_tokens,
}
