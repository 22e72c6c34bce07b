"""Taking a player out of everything they wait for in the lobby: their open
seeks, their seats at others' 4-player seeks, pending challenges both ways,
and their pool wait.

A moderator's restriction withdraws the rated ones (moderation.actions), a
closed account all of them (``account_closed``, connected to
games.signals.account_closed in LadderConfig.ready(): however the account was
closed, in the admin, by a moderator's act or in a shell).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from ladder import lobby_groups, matchmaking, seeks
from ladder.models import Challenge, PoolEntry, Seek


def withdraw_open_play(user: Any, *, rated_only: bool = False) -> str:
    """Cancel the user's open seeks and pending challenges (both ways, and 4-player
    ones they are invited to as an opponent), take
    them off others' 4-player seeks and end their pool wait: the rated ones
    only if ``rated_only``. Says what went."""
    rated = Q(rated=True) if rated_only else Q()
    cancelled = Seek.objects.filter(rated, creator=user, status=Seek.Status.OPEN).update(status=Seek.Status.CANCELLED)
    seated = list(Seek.objects.filter(rated, entries__user=user, status=Seek.Status.OPEN).exclude(creator=user)
                  .values_list("pk", flat=True))
    for seek_id in seated:
        seeks.leave_seek(seek_id, user)
    theirs = Q(challenger=user) | Q(challenged=user) | Q(invitees__user=user)  # a 4-player one's opponents too
    withdrawn = Challenge.objects.filter(pk__in=Challenge.objects.filter(
        rated, theirs, status=Challenge.Status.PENDING).values("pk")).update(status=Challenge.Status.CANCELLED)
    waits = PoolEntry.objects.filter(user=user, status=PoolEntry.Status.WAITING).exists()
    if waits:  # the pool is rated: any wait goes
        matchmaking.leave(user)
    if cancelled or withdrawn:
        lobby_groups.lobby_changed_on_commit()
    return (f"{cancelled} seek(s), {len(seated)} seat(s) at others' seeks, {withdrawn} challenge(s), "
            f"{int(waits)} pool wait(s)")


def account_closed(sender: Any, user: Any, **kwargs: Any) -> str:
    """games.signals.account_closed: a closed account waits for nothing in the
    lobby. Says what went (a moderator's act shows it)."""
    return f"withdrew {withdraw_open_play(user)}"
