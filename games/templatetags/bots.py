"""The bots' template tags and filters.

``{% bot_levels as levels %}``: the engine's bot levels on offer, weakest first, with their labels.

``{{ level|bot_badge }}``: the BOT badge written once for every page that
shows a username. ``level`` is the bot's engine level, "" for a BOT account
(a program playing through the API), None for a person (no badge), or a
payload's flag (games.bots.BotFlagJSON: the lobby's seeks and challenges). Pages
load who is a bot for all their names in one query ({user id: level},
ladder.bot_accounts.bots_among) and look each name up with ``bot_level``:
``{{ bots|bot_level:entry.user_id|bot_badge }}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games import bots

register = template.Library()


@register.simple_tag
def bot_levels() -> list[tuple[str, str]]:
    """The levels "Play the computer" offers: none whose computer player is switched off."""
    return [(level, bots.level_label(level)) for level in bots.offered_levels()]


Flag: TypeAlias = "str | bots.BotFlagJSON"


@register.filter
def bot_level(levels: Mapping[Any, Flag] | None, key: Any) -> Flag | None:
    """The level (or flag) ``key`` (a user id or a name) has in ``levels``; None for a person."""
    return levels.get(key) if levels else None


@register.filter
def bot_badge(level: Flag | None) -> SafeString | str:
    if level is None:
        return ""
    title = level["title"] if isinstance(level, dict) else bots.badge_title(level)
    return format_html(' <span class="badge badge--bot" title="{}">BOT</span>', title)
