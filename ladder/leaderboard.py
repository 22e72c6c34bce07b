"""The leaderboard: players by rating, filtered, searched and paginated, with true ranks.

A rank is competition ranking ("1224") over the filtered set (active in the
last 30 days, bots shown or hidden), never over the search: searching a name
shows that player's real place. It costs a constant number of queries
whatever the page:

- the page itself, and the paginator's count;
- without a search, one count of players rated above the page's first row:
  every later row's rank follows from its place in the list (sorted by
  rating, so a row whose rating differs from the one above it has exactly
  "rows above it", on this page and before it, players rated higher);
- with a search (a case-insensitive prefix of the name, as lichess's), one
  count of players per rating above the lowest rating shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q, QuerySet
from django.utils.translation import pgettext

from ladder import elo
from ladder.models import ACE, Standing
from ladder.ratings import ladder_from, standings

PAGE_SIZE = 50
ACTIVE_DAYS = 30
ORDER = ("-rating", "user_id")


@dataclass(frozen=True)
class Filters:
    """What the viewer asked for; the defaults are the ladder's first view."""

    search: str = ""
    active_only: bool = True  # active in the last ACTIVE_DAYS days
    hide_bots: bool = False
    ladder: str = ACE  # which game's ladder (ladder.models.LADDERS)

    @classmethod
    def from_query(cls, query: Any) -> Filters:
        return cls(search=query.get("q", "").strip()[:150],
                   active_only=query.get("show", "active") != "all",
                   hide_bots=query.get("bots", "show") == "hide",
                   ladder=ladder_from(query))


@dataclass(frozen=True)
class Row:
    rank: int
    player: Standing

    @property
    def rating(self) -> str:
        return elo.display(self.player.rating, self.player.rated_games)

    @property
    def provisional(self) -> bool:
        return elo.provisional(self.player.rated_games)

    @property
    def streak(self) -> str:
        """"W3" for three wins in a row, "L2" for two losses, "" otherwise."""
        streak = self.player.streak
        if streak > 0:
            return pgettext("streak of wins", "W%(n)s") % {"n": streak}
        return pgettext("streak of losses", "L%(n)s") % {"n": -streak} if streak < 0 else ""


@dataclass(frozen=True)
class Board:
    rows: list[Row]
    page: Page  # type: ignore[type-arg]
    filters: Filters


def ranked(filters: Filters, now: datetime) -> QuerySet[Any]:
    """Everyone the ranks count: the filters without the search. Players who have
    never been active (no rated game yet) are not on the ladder, as on lichess."""
    players = standings(filters.ladder).filter(last_active__isnull=False)
    if filters.active_only:
        players = players.filter(last_active__gte=now - timedelta(days=ACTIVE_DAYS))
    if filters.hide_bots:
        players = players.filter(is_bot=False)
    return players


def board(filters: Filters, page_number: Any, now: datetime) -> Board:
    pool = ranked(filters, now)
    shown = pool.filter(user__username__istartswith=filters.search) if filters.search else pool
    # The page's keys first (an index-only scan however deep the page), then its rows.
    paginator = Paginator(shown.order_by(*ORDER).values_list("pk", flat=True), PAGE_SIZE)
    page = paginator.get_page(paginator.num_pages if page_number == "last" else page_number)
    keys = list(page.object_list)
    rows = standings(filters.ladder).select_related("user").in_bulk(keys)
    players = [rows[key] for key in keys]
    if filters.search:
        ranks = _ranks_of_search(pool, players)
    else:
        ranks = _ranks_in_order(pool, players, page.start_index() - 1)
    return Board([Row(rank, p) for rank, p in zip(ranks, players)], page, filters)


def _ranks_in_order(pool: QuerySet[Any], players: list[Any], offset: int) -> list[int]:
    """Ranks of a page that starts after OFFSET players of POOL."""
    if not players:
        return []
    ranks = [pool.filter(rating__gt=players[0].rating).count() + 1]
    for index in range(1, len(players)):
        same = players[index].rating == players[index - 1].rating
        ranks.append(ranks[-1] if same else offset + index + 1)
    return ranks


def _ranks_of_search(pool: QuerySet[Any], players: list[Any]) -> list[int]:
    """Ranks of players found by name: one count per rating above the lowest shown."""
    if not players:
        return []
    lowest = min(p.rating for p in players)
    counts = dict(pool.filter(rating__gt=lowest).order_by().values_list("rating").annotate(n=Count("pk")))
    return [sum(n for rating, n in counts.items() if rating > p.rating) + 1 for p in players]


def rank_of(player: Standing, filters: Filters, now: datetime) -> int | None:
    """``player``'s rank under ``filters``, or None if the filters leave them out. One query."""
    counts = ranked(filters, now).aggregate(me=Count("pk", filter=Q(pk=player.pk)),
                                           above=Count("pk", filter=Q(rating__gt=player.rating)))
    return counts["above"] + 1 if counts["me"] else None


def page_of(player: Standing, filters: Filters, now: datetime) -> int | None:
    """The leaderboard page (without a search) that shows ``player``, if any. One query."""
    before = Q(rating__gt=player.rating) | Q(rating=player.rating, user_id__lt=player.user_id)
    counts = ranked(filters, now).aggregate(me=Count("pk", filter=Q(pk=player.pk)),
                                           before=Count("pk", filter=before))
    return counts["before"] // PAGE_SIZE + 1 if counts["me"] else None
