"""What a restricted or playbanned player reads (issue 22): sentences that say
what they may not do and until when, the reason, and how to appeal.

The playbans (ladder/playban.py) and the moderators' restrictions
(moderation/restrictions.py) write their notices here, so that every place that
refuses a player (lobby, pool, rematches, tournaments) says it the same way. On
the ladder's floor, below moderation, which uses it: the appeal page is named by
its URL only.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext


def appeal_hint() -> str:
    """Where to appeal: the page where the player writes to the moderators."""
    return gettext("To appeal, write to the moderators at %(url)s") % {"url": reverse("moderation:appeal")}


def with_reason(sentence: str, reason: str) -> str:
    """``sentence`` and then the reason, as a sentence of its own (none if empty)."""
    reason = reason.strip().rstrip(".")
    if not reason:
        return sentence
    return f"{sentence} " + gettext("Reason: %(reason)s.") % {"reason": reason}


def notice(sentence: str, reason: str) -> str:
    """The whole notice of a refusal: what, until when, why, and how to appeal."""
    return f"{with_reason(sentence, reason)} {appeal_hint()}"
