"""What a finished rated game did to each player's rating, for the game page.

games.play puts it in the game JSON's ``ratings`` (docs/protocol.md) through the
provider that LadderConfig.ready() registers: games may not import the ladder,
so the ladder offers it this function instead.
"""

from __future__ import annotations

from games.models import Game
from games.play import RatingJSON
from ladder.models import RatingChange


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
