"""Helpers for the e-mail tests: correspondence games, and choosing e-mail."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.core.mail import EmailMultiAlternatives

from games import starting
from games.models import Game
from games.timecontrols import TimeControl
from notify.models import Preference


def correspondence(*players: Any, days: int = 3, turn_started: datetime | None = None,
                   setup: starting.Setup = starting.Setup()) -> Game:
    """A running game of ``days`` a move; the first player is to move (R6, RH3)."""
    game = starting.start_game(*players, time_control=TimeControl.parse(f"{days}d"), setup=setup)
    if turn_started is not None:
        Game.objects.filter(pk=game.pk).update(turn_started_at=turn_started)
    return game


def choose(user: Any, kind: str, email: bool = False, confirmed: bool = True, **channels: bool) -> None:
    """``user``'s channels for ``kind``; choosing e-mail, as a player who has
    confirmed their address (unless ``confirmed=False``): no notification mail
    goes to an address its owner has not confirmed (issue 35, 14)."""
    defaults = {"site": True, "email": email, "push": True, **channels}
    Preference.objects.update_or_create(user=user, kind=kind, defaults=defaults)
    if email and confirmed:
        confirm_address(user)


def confirm_address(user: Any) -> None:
    """``user``'s address confirmed, as allauth records it once its link was followed."""
    EmailAddress.objects.update_or_create(user=user, email=user.email.lower(),
                                          defaults={"verified": True, "primary": True})


def links(message: EmailMultiAlternatives) -> list[str]:
    return re.findall(r"https?://\S+", str(message.body))


def game_links(message: EmailMultiAlternatives) -> list[str]:
    return [link for link in links(message) if "/games/" in link]


def at(day: int, hour: int, minute: int = 0) -> datetime:
    """A moment of November 2026, UTC."""
    return datetime(2026, 11, day, hour, minute, tzinfo=UTC)


def hours(n: float) -> timedelta:
    return timedelta(hours=n)
