"""Whether a moderator's restriction keeps a user from doing something:
registered with ladder.permits (ModerationConfig.ready), the one check the
lobby, the pool, rematches and tournaments call before anything is written."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext, gettext_lazy

from ladder import penalty_notices as notices
from ladder import playban
from ladder.permits import Doing
from moderation.models import Restriction

# The restriction scopes that forbid each thing; ``rated=True`` adds RATED.
_SCOPES: dict[str, tuple[str, ...]] = {
    "rated": (Restriction.Scope.RATED,),
    "seek": (Restriction.Scope.LOBBY,),
    "challenge": (Restriction.Scope.LOBBY,),
    "pool": (Restriction.Scope.LOBBY, Restriction.Scope.RATED),  # the pool is rated only
    "tournament": (Restriction.Scope.LOBBY,),
}
_WHAT = {"rated": gettext_lazy("play rated games"), "seek": gettext_lazy("create or accept seeks"),
         "challenge": gettext_lazy("challenge or accept challenges"), "pool": gettext_lazy("join quick pairing"),
         "tournament": gettext_lazy("enter tournaments")}
# What each scope stops, for the notice a restricted player sees on the lobby page.
_SCOPE_WHAT = {Restriction.Scope.RATED: _WHAT["rated"],
               Restriction.Scope.LOBBY: gettext_lazy("create or accept seeks and challenges, join quick pairing "
                                                     "or enter tournaments")}


def refusal(user: Any, doing: Doing, rated: bool = False) -> str | None:
    """None if no restriction keeps ``user`` from ``doing`` (a rated one if
    ``rated``), else the notice: what and until when, why, and how to appeal.
    A playban is the ladder's to say (ladder.permits asks it first)."""
    scopes = _SCOPES[doing] + ((Restriction.Scope.RATED,) if rated else ())
    found = active(user).filter(scope__in=scopes).order_by("ends").first()
    if found is None:
        return None
    what = _WHAT["rated"] if found.scope == Restriction.Scope.RATED else _WHAT[doing]
    return notices.notice(_sentence(str(what), found.ends), found.reason)


def in_force(user: Any) -> list[str]:
    """Every playban and restriction ``user`` is under now, each as a sentence
    with its reason: the standing notice of the lobby page."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    found = [notices.with_reason(*ban)] if (ban := playban.in_force(user)) is not None else []
    return found + [notices.with_reason(_sentence(str(_SCOPE_WHAT[r.scope]), r.ends), r.reason)
                    for r in active(user).order_by("scope", "ends")]


def _sentence(what: str, ends: datetime | None) -> str:
    if ends is None:
        until = gettext("until a moderator lifts it")
    else:
        until = gettext("until %(when)s UTC") % {"when": formats.date_format(ends.astimezone(UTC), "DATETIME_FORMAT")}
    return gettext("A moderator has restricted your account: you may not %(what)s %(until)s.") % {
        "what": what, "until": until}


def active(user: Any) -> Any:
    """The user's restrictions in force now."""
    now = timezone.now()
    return Restriction.objects.filter(user=user, lifted_at__isnull=True, starts__lte=now).filter(
        Q(ends__isnull=True) | Q(ends__gt=now))
