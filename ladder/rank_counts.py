"""How many players hold each rating under the leaderboard's filters: its ranks,
player count and page starts, without counting a million players a request.

On PostgreSQL the numbers come from ``RatingCount`` (kept by triggers, see
ladder.models): the rows of whole days inside the active window, plus the
players last active on the window's first, partial day, counted from the
standings' ``last_active`` index. Elsewhere the players are counted directly.
Both give the same exact figures (tests/ladder/test_rank_counts.py checks it).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cached_property
from datetime import date, datetime, time, timedelta, timezone
from itertools import accumulate
from typing import Any

from django.db import connection
from django.db.models import Count, QuerySet, Sum

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
    parts = [kept]
    if since is not None:
        first_day = since.astimezone(timezone.utc).date()
        parts = [kept.filter(day__gt=first_day),  # whole days; the first one from the players themselves
                 pool.filter(last_active__lt=_midnight_after(first_day)).values("rating").annotate(n=Count("*"))]
    parts[0] = parts[0].values("rating").annotate(n=Sum("n"))
    sqls, params = zip(*(part.order_by().query.sql_with_params() for part in parts))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT rating, SUM(n) FROM ({' UNION ALL '.join(sqls)}) AS c"
                       " GROUP BY rating HAVING SUM(n) <> 0", [p for part in params for p in part])
        return _counted(cursor.fetchall())


def _counted(rows: Any) -> Counts:
    pairs = sorted(((r["rating"], r["n"]) if isinstance(r, dict) else (r[0], r[1]) for r in rows), reverse=True)
    return Counts(tuple(rating for rating, _ in pairs), tuple(int(n) for _, n in pairs))


def _midnight_after(day: date) -> datetime:
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=timezone.utc)


def compact(keep_days_from: date) -> int:
    """Fold the count rows together, one per (ladder, bot, rating, day), days
    before ``keep_days_from`` into one row without a day; returns the rows
    written. Only the groups with more than one row, or an old day, are
    rewritten, in one statement: a reader sees them before or after, never both.
    Beat runs it every minute (ladder.tasks.compact_rank_counts)."""
    if connection.vendor != "postgresql":
        return 0
    table = RatingCount._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH folded AS (SELECT ladder, is_bot, rating, {_kept_day('day')} AS day FROM {table}"
            "  GROUP BY 1, 2, 3, 4 HAVING COUNT(*) > 1 OR bool_or(day < %(keep)s)),"
            f" gone AS (DELETE FROM {table} t USING folded f WHERE t.ladder = f.ladder AND t.is_bot = f.is_bot"
            f"  AND t.rating = f.rating AND {_kept_day('t.day')} = f.day"
            "  RETURNING t.ladder, t.is_bot, t.rating, t.day, t.n)"
            f" INSERT INTO {table} (ladder, is_bot, rating, day, n)"
            " SELECT ladder, is_bot, rating, NULLIF(day, DATE '0001-01-01'), SUM(n)"
            f" FROM (SELECT ladder, is_bot, rating, {_kept_day('day')} AS day, n FROM gone) AS g"
            " GROUP BY 1, 2, 3, 4 HAVING SUM(n) <> 0", {"keep": keep_days_from})
        return cursor.rowcount


def _kept_day(column: str) -> str:
    """SQL: the day a row is folded under, days before %(keep)s as the first day
    of the calendar (not NULL, so that groups and joins compare it as equal)."""
    return f"COALESCE(CASE WHEN {column} >= %(keep)s THEN {column} END, DATE '0001-01-01')"
