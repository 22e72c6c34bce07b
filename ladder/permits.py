"""Whether a player may start games with other people now (issue 22): the one
question the lobby, the pool, rematches and tournaments ask before anything is
written.

A playban (ladder/playban.py) is the ladder's own answer. A moderator's
restriction is moderation's: moderation acts on the ladder, so the ladder
imports nothing of it, and it registers its check here in
ModerationConfig.ready() (issue 36: the floors, dependencies down, events up).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from ladder import playban

Doing = Literal["rated", "seek", "challenge", "pool", "tournament"]
# ``check(user, doing, rated)``: None, or the notice that keeps ``user`` from it.
Check = Callable[[Any, Doing, bool], "str | None"]
_checks: list[Check] = []


def provide(check: Check) -> None:
    """Register a check (registering twice is harmless)."""
    if check not in _checks:
        _checks.append(check)


def refusal(user: Any, doing: Doing, *, rated: bool = False) -> str | None:
    """None if ``user`` may do ``doing`` (a rated one if ``rated``), else the
    notice for the user to read: what and until when, why, and how to appeal."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None  # the callers refuse anonymous users themselves
    if (banned := playban.refusal(user)) is not None:
        return banned
    for check in _checks:
        if (why := check(user, doing, rated)) is not None:
            return why
    return None


def check(user: Any, doing: Doing, *, rated: bool = False, error: type[Exception] = ValueError) -> None:
    """Raise ``error`` (the caller's refusal type) with ``refusal``'s message if there is one:
    one line at each place a restricted user is stopped."""
    if (why := refusal(user, doing, rated=rated)) is not None:
        raise error(why)


def may_rematch(user: Any, rated: bool) -> str | None:
    """games.starting's start check for rematches, which are challenges of a kind."""
    return refusal(user, "challenge", rated=rated)
