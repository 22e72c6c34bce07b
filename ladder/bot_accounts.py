"""Bot accounts, flagged ``is_bot`` on the ladder's Player row, of two kinds:

- the computer players: one user per engine level (``bot_level`` names it).
  games.bots plays them; it reads who they are through ``levels``, registered
  in LadderConfig.ready();
- BOT accounts (``bot_level`` empty): a person's program, playing through the
  public API (docs/api.md), as lichess's BOT accounts. A fresh account becomes
  one for ever (``make_api_bot``); the site's lobby and game pages refuse it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext

from games import bots, refusals
from games.models import Seat
from ladder.models import PoolEntry, Player, Rating, Seek, SeekEntry


def levels() -> dict[int, str]:
    """{user id: engine level} for every bot: "" for a BOT account (games.bots
    plays only those with a level)."""
    return dict(Player.objects.filter(is_bot=True).values_list("user_id", "bot_level"))


def is_api_bot(user: Any) -> bool:
    """Whether ``user`` is a BOT account played through the API. A query each
    time (not the cached ``levels``): it decides what a socket may do."""
    pk = getattr(user, "pk", None)
    return pk is not None and Player.objects.filter(user_id=pk, is_bot=True, bot_level="").exists()


def api_bot_ids(user_ids: set[int]) -> set[int]:
    """Which of ``user_ids`` are BOT accounts (to flag them on a page or payload)."""
    return set(Player.objects.filter(user_id__in=user_ids, is_bot=True, bot_level="")
               .values_list("user_id", flat=True))


def bots_among(user_ids: Iterable[int] | QuerySet[Any]) -> dict[int, str]:
    """{user id: level} for the bots among ``user_ids`` ("" for a BOT account),
    in one query, to flag them BOT on a page or payload. ``user_ids`` may be a
    ``values("user_id")`` queryset: it then runs as a subquery of this one.
    Not the cached ``levels``: a page shows who is a bot now."""
    return dict(Player.objects.filter(user_id__in=user_ids, is_bot=True).values_list("user_id", "bot_level"))


def make_api_bot(user: Any) -> None:
    """Turn ``user`` into a BOT account, for ever; refuses an account that has
    played (its games and rating were a person's) or is already a bot. Its open
    seeks, its seats at others' 4-player seeks and its pool waits end: a BOT
    account plays challenges, the computer and tournaments, never the lobby's
    seeks or the pool (as on lichess)."""
    with transaction.atomic():
        player, _ = Player.objects.select_for_update().get_or_create(user=user)
        if player.is_bot:
            raise refusals.Refusal(gettext("this account is a BOT account already"))
        if user.is_staff or user.is_superuser:
            raise refusals.Refusal(gettext("a staff account cannot become a BOT account"))
        if Seat.objects.filter(user=user).exists():
            raise refusals.Refusal(gettext("only an account that has never played a game can become a BOT account"))
        player.is_bot = True
        player.save(update_fields=["is_bot"])
        Rating.objects.filter(user=user).update(is_bot=True)
        Seek.objects.filter(creator=user, status=Seek.Status.OPEN).update(
            status=Seek.Status.CANCELLED)
        SeekEntry.objects.filter(user=user, seek__status=Seek.Status.OPEN).delete()
        PoolEntry.objects.filter(user=user, status=PoolEntry.Status.WAITING).update(status=PoolEntry.Status.LEFT)
    bots.forget_bot_levels()


def ensure_bot_accounts() -> list[tuple[Any, bool]]:
    """One user per engine level, flagged as a bot; (user, created) for each.

    Idempotent. A bot has an unusable password and no e-mail address, so it
    can neither sign in nor ask for a password reset: only workers play it.
    """
    accounts = []
    for level in bots.engine_bots().LEVELS:
        user, created = bot_user(bots.bot_username(level))
        Player.objects.update_or_create(user=user, defaults={"is_bot": True, "bot_level": level})
        accounts.append((user, created))
    bots.forget_bot_levels()
    return accounts


def bot_user(username: str) -> tuple[Any, bool]:
    """The user ``username``, made with an unusable password and no e-mail address
    if missing; (user, created). Safe when two callers race for the same name
    (issue 35, 12): get_or_create inserts in a savepoint and, when the other
    caller's row wins on the unique username, reads that row instead of failing."""
    return get_user_model().objects.get_or_create(
        username=username, defaults={"email": "", "password": make_password(None)})


# A team game against the computer needs three bots at one level, and a game
# needs different users: the level's account and two seat-mates of it.
TEAM_BOT_SUFFIXES = ("", "+2", "+3")  # "+": no level name has one (engine.bots.LEVELS)


def team_bots(level: str) -> list[Any]:
    """Three bot accounts playing ``level`` (``bot-greedy``, ``bot-greedy+2``,
    ``bot-greedy+3``), the two extra ones made on first need."""
    main = get_user_model().objects.filter(username=bots.bot_username(level)).first()
    if main is None or bots.level_of(main.pk) != level:
        raise refusals.Refusal(gettext("the %(level)s bot has no account yet: run manage.py seed_bots")
                               % {"level": bots.level_label(level)})
    accounts = [main]
    for suffix in TEAM_BOT_SUFFIXES[1:]:
        user, _ = bot_user(bots.bot_username(level) + suffix)
        # Flagged even when another caller made the user a moment ago and has
        # not flagged it yet: a game must not start with an unflagged bot seat.
        Player.objects.get_or_create(user=user, defaults={"is_bot": True, "bot_level": level})
        accounts.append(user)
    if any(bots.level_of(user.pk) != level for user in accounts):
        bots.forget_bot_levels()  # a new seat-mate: read the bots again
    if not all(user.is_active for user in accounts):  # a seat-mate switched off on its own
        raise refusals.Refusal(gettext("the computer player %(level)s is switched off: choose another level")
                               % {"level": bots.level_label(level)})
    return accounts
