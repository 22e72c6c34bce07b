"""Chat boxes on pages (issue 25): a line's words in the reader's language, and
the preset phrases as buttons."""

from __future__ import annotations

from django import template

from chat import lines
from chat.models import TIMEOUT_MINUTES, ChatTimeout, Line

register = template.Library()


@register.filter
def said(line: Line) -> str:
    return lines.shown_text(line)


@register.simple_tag
def chat_presets() -> list[tuple[str, str]]:
    return [(key, str(words)) for key, words in lines.PRESETS.items()]


@register.simple_tag
def chat_timeout_choices() -> dict[str, list[tuple[object, str]]]:
    """A moderator's timeout from the page: its lengths and the reasons the player is shown."""
    return {"minutes": [(minutes, str(label)) for minutes, label in TIMEOUT_MINUTES],
            "reasons": [(value, str(label)) for value, label in ChatTimeout.Reason.choices]}
