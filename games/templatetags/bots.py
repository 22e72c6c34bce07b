"""{% bot_levels as levels %}: the engine's bot levels, weakest first, with their labels."""

from __future__ import annotations

from django import template

from games import bots

register = template.Library()


@register.simple_tag
def bot_levels() -> list[tuple[str, str]]:
    return [(level, bots.level_label(level)) for level in bots.engine_bots().LEVELS]
