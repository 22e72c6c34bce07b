"""The BOT badge in pages' HTML, and bots to show it for (imported as tests.badges)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games import bots
from ladder.bot_accounts import make_api_bot
from ladder.models import Player

COMPUTER_TITLE = "Computer player: Level 2 (greedy, one move ahead)"
ACCOUNT_TITLE = "BOT account: a program playing through the API"


@pytest.fixture(autouse=True)
def bot_cache_forgotten() -> Iterator[None]:
    """Who is a bot is cached per process (games.bots.bot_levels); a test's bots'
    ids come round again as other tests' people, who must not stay bots.
    Autouse in every module that imports it."""
    bots.forget_bot_levels()
    yield
    bots.forget_bot_levels()


def computer_player(username: str, level: str = "greedy", rating: int = 1500) -> Any:
    """A computer player of ``level``, as seed_bots makes them (no usable password)."""
    user = get_user_model().objects.create_user(username, email="", password=None)
    Player.objects.create(user=user, is_bot=True, bot_level=level, rating=rating, rated_games=20)
    bots.forget_bot_levels()
    return user


def api_bot(username: str, rating: int = 1500) -> Any:
    """A BOT account: a fresh account turned into one (ladder.bot_accounts.make_api_bot)."""
    user = get_user_model().objects.create_user(username, email=f"{username}@example.org")
    Player.objects.create(user=user, rating=rating, rated_games=20)
    make_api_bot(user)
    return user


def badge_titles(html: str, name: str) -> list[str]:
    """The titles of the BOT badges written right after each time ``name`` is shown
    (as a link, a span or text); [] when none follows it."""
    pattern = (rf'(?<![\w.@+-]){re.escape(name)}(?:</a>|</span>)? '
               r'<span class="badge badge--bot" title="([^"]*)">BOT</span>')
    return re.findall(pattern, html)


def shown(html: str, name: str) -> int:
    """How many times ``name`` is shown as a whole element text."""
    return len(re.findall(rf">\s*{re.escape(name)}(?:</a>|</span>)?[ <(]", html))
