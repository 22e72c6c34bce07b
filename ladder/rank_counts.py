"""How many players hold each rating under the leaderboard's filters: its ranks,
player count and page starts, without counting a million players a request.

On PostgreSQL the numbers come from ``RatingCount`` (kept by triggers, see
ladder.models): the rows of whole days inside the active window, plus the
players last active on the window's first, partial day, counted from the
standings' ``last_active`` index. The whole days are read from the rows the
last compaction summed for that window start (one per rating) and the rows the
triggers added since; without such a sum (no compaction since the window last
moved), from the folded day rows. Elsewhere the players are counted directly.
All give the same exact figures (tests/ladder/test_rank_counts.py checks it).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cached_property
from datetime import date, datetime, time, timedelta, timezone
from itertools import accumulate
from typing import Any

from django.db import connection
from django.db.models import Count, Exists, QuerySet, Sum

from ladder.models import RatingCount


@dataclass(frozen=True)
class Counts:
    """Players by rating, highest first: ``sizes[i]`` hold ``ratings[i]``."""

    ratings: tuple[int, ...]
    sizes: tuple[int, ...]

    @property
    def total(self) -> int:
        return self._starts[-1]

    @cached_property
    def _starts(self) -> list[int]:
        """Players rated above ``ratings[i]``, for each i, then everyone."""
        return [0, *accumulate(self.sizes)]

    @cached_property
    def _keys(self) -> list[int]:
        return [-rating for rating in self.ratings]  # ascending, for bisect

    def above(self, rating: int) -> int:
        """Players rated higher than ``rating``: one less than its rank.

        >>> Counts((1800, 1600, 1500), (1, 2, 1)).above(1600), Counts((1600,), (2,)).above(1700)
        (1, 0)
        """
        return self._starts[bisect_left(self._keys, -rating)]

    def locate(self, offset: int) -> tuple[int, int]:
        """The rating of the player after ``offset`` others in rating order, and
        how many players of that rating come before them (offset < total).

        >>> Counts((1800, 1600, 1500), (1, 2, 1)).locate(2)
        (1600, 1)
        """
        index = bisect_right(self._starts, offset) - 1
        return self.ratings[index], offset - self._starts[index]


def counts(pool: QuerySet[Any], ladder: str, since: datetime | None, hide_bots: bool) -> Counts:
    """The ratings of ``pool``: the players of ``ladder`` with a rated game,
    active since ``since`` (None: ever), bots left out if ``hide_bots``. One query."""
    if connection.vendor != "postgresql":
        return _counted(pool.values("rating").annotate(n=Count("pk")).order_by())
    kept = RatingCount.objects.filter(ladder=ladder)
    if hide_bots:
        kept = kept.filter(is_bot=False)
    start = None if since is None else _first_whole_day(since)
    at_start = {"day__isnull": True} if start is None else {"day": start}
    days = {} if start is None else {"day__gte": start}
    summed = RatingCount.objects.filter(ladder=ladder, kind=RatingCount.Kind.SINCE, **at_start)
    parts = [kept.filter(kind=RatingCount.Kind.SINCE, **at_start),
             kept.filter(kind=RatingCount.Kind.FRESH, **days),
             kept.filter(~Exists(summed), kind=RatingCount.Kind.FOLDED, **days)]
    parts = [part.values("rating").annotate(n=Sum("n")) for part in parts]
    if start is not None:  # the window's first, partial day, from the players themselves
        parts.append(pool.filter(last_active__lt=_midnight(start)).values("rating").annotate(n=Count("*")))
    sqls, params = zip(*(part.order_by().query.sql_with_params() for part in parts))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT rating, SUM(n) FROM ({' UNION ALL '.join(sqls)}) AS c"
                       " GROUP BY rating HAVING SUM(n) <> 0", [p for part in params for p in part])
        return _counted(cursor.fetchall())


def _counted(rows: Any) -> Counts:
    pairs = sorted(((r["rating"], r["n"]) if isinstance(r, dict) else (r[0], r[1]) for r in rows), reverse=True)
    return Counts(tuple(rating for rating, _ in pairs), tuple(int(n) for _, n in pairs))


def _first_whole_day(since: datetime) -> date:
    """The first UTC day wholly inside a window that starts at ``since``."""
    return since.astimezone(timezone.utc).date() + timedelta(days=1)


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=timezone.utc)


def compact(now: datetime, window: timedelta) -> int:
    """Fold the count rows together, one per (ladder, bot, rating, day), days
    long before the active ``window`` into one row without a day, and sum them
    by rating for the window's start now and tomorrow, and for all days: the
    rows a reader reads. Returns the rows written. One statement: a reader sees
    the rows before or after, never both; rows the triggers add meanwhile stay
    as they are, and two compactions at once each sum only what they took.
    Beat runs it every minute (ladder.tasks.compact_rank_counts)."""
    if connection.vendor != "postgresql":
        return 0
    first = _first_whole_day(now - window)
    table = RatingCount._meta.db_table
    kinds = RatingCount.Kind
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH gone AS (DELETE FROM {table} RETURNING ladder, is_bot, rating, day, n, kind),"
            " folded AS (SELECT ladder, is_bot, rating, CASE WHEN day >= %(keep)s THEN day END AS day,"
            f"  SUM(n) AS n FROM gone WHERE kind <> '{kinds.SINCE}' GROUP BY 1, 2, 3, 4 HAVING SUM(n) <> 0),"
            " starts (day) AS (VALUES (%(first)s::date), (%(second)s::date), (NULL::date)),"
            " summed AS (SELECT f.ladder, f.is_bot, f.rating, s.day, SUM(f.n) AS n FROM folded f"
            "  JOIN starts s ON s.day IS NULL OR f.day >= s.day GROUP BY 1, 2, 3, 4 HAVING SUM(f.n) <> 0)"
            f" INSERT INTO {table} (ladder, is_bot, rating, day, n, kind)"
            f" SELECT ladder, is_bot, rating, day, n, '{kinds.FOLDED}' FROM folded"
            f" UNION ALL SELECT ladder, is_bot, rating, day, n, '{kinds.SINCE}' FROM summed",
            {"keep": first - timedelta(days=3), "first": first, "second": first + timedelta(days=1)})
        return cursor.rowcount
