"""A closed account leaves the tournaments it is in that are not over
(games.signals.account_closed, connected in TournamentsConfig.ready()).

It leaves as the player's own "Withdraw" would (entering.leave): before the
start the entry is gone; in a running or paused tournament it is not paired
again and its results stand (a round robin's are annulled or forfeited as
the rules of leaving say). A game of the current round already started is
not touched: its clock runs as for any player who left. Finished and
cancelled tournaments keep the entry as it was.
"""

from __future__ import annotations

from typing import Any

from tournaments.changes import changed_on_commit, locked
from tournaments.entering import leave
from tournaments.models import Entry, Tournament

NOT_OVER = (Tournament.Status.UPCOMING, Tournament.Status.RUNNING, Tournament.Status.PAUSED)
WHY = "account closed"  # Entry.withdrawn_why, as "withdrew" is for the player's own withdrawal


def account_closed(sender: Any, user: Any, **kwargs: Any) -> str:
    """Withdraw ``user`` from every tournament not over; says how many."""
    tournament_ids = list(Entry.objects.filter(user=user, withdrawn_at__isnull=True,
                                               tournament__status__in=NOT_OVER)
                          .order_by("tournament_id").values_list("tournament_id", flat=True))
    left = 0
    for tournament_id in tournament_ids:  # each locked as the player's own withdrawal locks it
        tournament = locked(tournament_id)
        entry = Entry.objects.filter(tournament=tournament, user=user, withdrawn_at__isnull=True).first()
        if entry is None or tournament.status not in NOT_OVER:
            continue
        leave(tournament, entry, WHY)
        changed_on_commit(tournament)
        left += 1
    return f"withdrew from {left} tournament(s) not over"
