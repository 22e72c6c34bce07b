"""The leaderboard: players by rating, filtered, searched and paginated, with true ranks.

A rank is competition ranking ("1224") over the filtered set (active in the
last 30 days, bots shown or hidden), never over the search: searching a name
shows that player's real place. However many players and whatever the page,
it costs the same few queries (issue 24: a million players):

- how many players hold each rating under the filters (ladder/rank_counts.py,
  from a small table of counts): the player count, every row's rank (one more
  than the players rated higher) and where a page starts;
- the page's keys, from the rating its first row holds (no long OFFSET), then
  its rows;
- with a search (a case-insensitive prefix of the name, as lichess's), the
  paginator's count of the players found instead of the first;
- for the viewer's own page, the players of their rating before them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import F, QuerySet
from django.utils.translation import pgettext

from ladder import elo, rank_counts
from ladder.models import ACE, Standing
from ladder.ratings import ladder_from, standings

PAGE_SIZE = 50
ACTIVE_DAYS = 30
ORDER = ("-rating", "user_id")
# The same order, written so that PostgreSQL finds a search's players by the
# name index and sorts them, instead of walking the rating index checking each
# name, which for a rare name reads the whole ladder.
FOUND_ORDER = ((F("rating") + 0).desc(), "user_id")


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
    counts: rank_counts.Counts  # players by rating under the filters (for page_of)


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
    counts = counts_of(filters, now, pool)
    if filters.search:
        found = named(pool, filters.search).order_by(*FOUND_ORDER).values_list("pk", flat=True)
        paginator = Paginator(found, PAGE_SIZE)
    else:
        paginator = Paginator(_InOrder(pool, counts), PAGE_SIZE)
    page = paginator.get_page(paginator.num_pages if page_number == "last" else page_number)
    keys = list(page.object_list)
    rows = standings(filters.ladder).select_related("user").in_bulk(keys)
    players = [rows[key] for key in keys]
    return Board([Row(counts.above(p.rating) + 1, p) for p in players], page, filters, counts)


def named(pool: QuerySet[Any], search: str) -> QuerySet[Any]:
    """The players of ``pool`` whose name starts with ``search``, in any case. On
    PostgreSQL each row carries its user's name (ladder.models.Standing.name)."""
    if connection.vendor == "postgresql":
        return pool.filter(name__istartswith=search)
    return pool.filter(user__username__istartswith=search)


def counts_of(filters: Filters, now: datetime, pool: QuerySet[Any] | None = None) -> rank_counts.Counts:
    """How many players hold each rating under ``filters`` (the search aside). One query."""
    since = now - timedelta(days=ACTIVE_DAYS) if filters.active_only else None
    return rank_counts.counts(ranked(filters, now) if pool is None else pool, filters.ladder, since,
                              filters.hide_bots)


class _InOrder:
    """The pool in rating order for the Paginator: its length from the counts,
    a page from the first row's rating on, skipping only the players of that
    rating before it (an index range however deep the page)."""

    def __init__(self, pool: QuerySet[Any], counts: rank_counts.Counts) -> None:
        self.pool, self.counts = pool, counts

    def count(self) -> int:
        return self.counts.total

    def __getitem__(self, page: slice) -> list[int]:
        start, stop = page.start or 0, min(page.stop, self.counts.total)
        if start >= stop:
            return []
        rating, skip = self.counts.locate(start)
        keys = self.pool.filter(rating__lte=rating).order_by(*ORDER).values_list("pk", flat=True)
        return list(keys[skip:skip + stop - start])


def _is_ranked(player: Standing, filters: Filters, now: datetime) -> bool:
    """Whether the filters (the search aside) keep ``player``, from the row itself."""
    if player.pk is None or player.last_active is None or (filters.hide_bots and player.is_bot):
        return False
    return not filters.active_only or player.last_active >= now - timedelta(days=ACTIVE_DAYS)


def rank_of(player: Standing, filters: Filters, now: datetime) -> int | None:
    """``player``'s rank under ``filters``, or None if the filters leave them out. One query."""
    return counts_of(filters, now).above(player.rating) + 1 if _is_ranked(player, filters, now) else None


def page_of(player: Standing, filters: Filters, now: datetime,
            counts: rank_counts.Counts | None = None) -> int | None:
    """The leaderboard page (without a search) that shows ``player``, if any: one
    query given the board's ``counts``, two without."""
    if not _is_ranked(player, filters, now):
        return None
    counts = counts_of(filters, now) if counts is None else counts
    tied_before = ranked(filters, now).filter(rating=player.rating, user_id__lt=player.user_id).count()
    return (counts.above(player.rating) + tied_before) // PAGE_SIZE + 1
