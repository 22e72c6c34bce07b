"""The computer players' accounts: one user per engine level, flagged as a bot
on the ladder's Player row. games.bots plays them; it reads who is a bot
through ``levels``, registered in LadderConfig.ready()."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games import bots, play
from ladder.models import Player


def levels() -> dict[int, str]:
    """{user id: engine level} for every bot account."""
    return dict(Player.objects.filter(is_bot=True).values_list("user_id", "bot_level"))


def ensure_bot_accounts() -> list[tuple[Any, bool]]:
    """One user per engine level, flagged as a bot; (user, created) for each.

    Idempotent. A bot has an unusable password and no e-mail address, so it
    can neither sign in nor ask for a password reset: only workers play it.
    """
    users = get_user_model().objects
    accounts = []
    for level in bots.engine_bots().LEVELS:
        user = users.filter(username=bots.bot_username(level)).first()
        created = user is None
        if user is None:
            user = users.create_user(bots.bot_username(level), email="", password=None)  # unusable
        Player.objects.update_or_create(user=user, defaults={"is_bot": True, "bot_level": level})
        accounts.append((user, created))
    bots.forget_bot_levels()
    return accounts


# A team game against the computer needs three bots at one level, and a game
# needs different users: the level's account and two seat-mates of it.
TEAM_BOT_SUFFIXES = ("", "+2", "+3")  # "+": no level name has one (engine.bots.LEVELS)


def team_bots(level: str) -> list[Any]:
    """Three bot accounts playing ``level`` (``bot-greedy``, ``bot-greedy+2``,
    ``bot-greedy+3``), the two extra ones made on first need."""
    users = get_user_model().objects
    main = users.filter(username=bots.bot_username(level)).first()
    if main is None or bots.level_of(main.pk) != level:
        raise play.Refusal(f"the {bots.level_label(level)} bot has no account yet: run manage.py seed_bots")
    accounts = [main]
    for suffix in TEAM_BOT_SUFFIXES[1:]:
        user = users.filter(username=bots.bot_username(level) + suffix).first()
        if user is None:
            user = users.create_user(bots.bot_username(level) + suffix, email="", password=None)  # unusable
            Player.objects.update_or_create(user=user, defaults={"is_bot": True, "bot_level": level})
        accounts.append(user)
    if any(bots.level_of(user.pk) != level for user in accounts):
        bots.forget_bot_levels()  # a new seat-mate: read the bots again
    return accounts
