"""The words of a notice, made from its kind and public params in the reader's
language (activate it first: ``with preferences.languages.speaking(user)``).

A minimal version for web push and e-mail: h-notify's wording replaces it
(same ``describe(kind, params) -> (title, body)``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from notify.models import Kind


def describe(kind: str, params: dict[str, Any]) -> tuple[str, str]:
    """(title, body) of a notice of ``kind``; unknown params are ignored and a
    missing one leaves the body general, never a placeholder."""
    opponent = str(params.get("opponent", ""))
    game = str(params.get("game", ""))
    if kind == Kind.TURN:
        body = _("It is your move against %(opponent)s.") % {"opponent": opponent} if opponent else ""
        return _("Your turn"), body or game
    if kind == Kind.CLOCK:
        hours = int(params.get("hours", 0))
        body = (_("Less than an hour left for your move against %(opponent)s.") if hours <= 1
                else _("Less than a day left for your move against %(opponent)s."))
        return _("Your clock is running out"), body % {"opponent": opponent or "?"}
    return str(Kind(kind).label) if kind in Kind.values else kind, game
