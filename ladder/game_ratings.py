"""What a finished rated game did to each player's rating, for the game page.

games.payloads puts it in the game JSON's ``ratings`` (docs/protocol.md) through the
provider that LadderConfig.ready() registers: games may not import the ladder,
so the ladder offers it this function instead.
"""

from __future__ import annotations

from games.models import Game
from games.payloads import RatingJSON
from ladder import elo, ratings
from ladder.models import RatingChange, ladder_of


def ratings_json(game: Game) -> dict[str, RatingJSON] | None:
    """{seat: {"before", "after", "change"}, ...} for every seat, or None when
    the game moved no ratings (not yet rated, or a moderator undid it)."""
    seats = {seat.user_id: seat.name for seat in game.table}
    changes = (RatingChange.objects.filter(game_id=game.pk, undone_at__isnull=True)
               .values_list("user_id", "before", "after"))
    ratings: dict[str, RatingJSON] = {
        seats[user_id]: {"before": before, "after": after, "change": after - before}
        for user_id, before, after in changes if user_id in seats}
    return ratings if len(ratings) == len(seats) else None


def snapshot_start_ratings(games: list[Game]) -> None:
    """Before new games are inserted (games.starting.provide_start_ratings): each
    seat's current rating on its game's ladder, and the game's mean, which the
    live list and TV sort by. One query per ladder among the games (a
    tournament round's many games included); a newcomer counts as elo.START."""
    wanted: dict[str, set[int]] = {}
    for game in games:
        wanted.setdefault(ladder_of(game.kind, game.players), set()).update(s.user.pk for s in game.table)
    known = {ladder: dict(ratings.standings(ladder).filter(user_id__in=ids).values_list("user_id", "rating"))
             for ladder, ids in wanted.items()}
    for game in games:
        by_user = known[ladder_of(game.kind, game.players)]
        for seat in game.table:
            seat.rating = by_user.get(seat.user.pk, elo.START)
        game.rating = round(sum(seat.rating for seat in game.table) / len(game.table))
