"""The games where it is a player's move: the navigation bar's "Your turn"
list (correspondence and real time), and what its live refresh sends
(notify.live asks for it through the provider registered in GamesConfig.ready()).

Two queries whatever the number of games: the player's seats to move (the
position's ``to_move`` key read in SQL), then those games' other players.
"""

from __future__ import annotations

from django.db.models import F
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Coalesce

from games.models import Game, Seat
from notify.live import TurnJSON

# Enough for the menu; a player with more sees the count and the oldest waits first.
LIMIT = 50


def turns_json(user_id: int) -> list[TurnJSON]:
    """The running games where ``user_id``'s seat is to move, the longest
    waiting first: id, link, title, the other side's names (not a partner's,
    RH31), correspondence or not."""
    rows = list(Seat.objects.filter(user_id=user_id, game__status=Game.Status.RUNNING)
                .annotate(moving=KeyTextTransform("to_move", "game__position"))
                .filter(name=F("moving"))
                .order_by(Coalesce("game__turn_started_at", "game__created"), "game_id")
                .values("game_id", "name", "game__kind", "game__variant", "game__players",
                        "game__days_per_move")[:LIMIT])
    games = {row["game_id"]: Game(kind=row["game__kind"], variant=row["game__variant"], players=row["game__players"])
             for row in rows}
    against = {row["game_id"]: games[row["game_id"]].opponents_of(row["name"]) for row in rows}
    opponents: dict[int, list[str]] = {game_id: [] for game_id in games}
    for game_id, seat, name in (Seat.objects.filter(game_id__in=games).order_by("game_id", "number")
                                .values_list("game_id", "name", "user__username")):
        if seat in against[game_id]:
            opponents[game_id].append(name)
    return [{"id": row["game_id"], "url": f"/games/{row['game_id']}/", "title": games[row["game_id"]].title,
             "opponents": opponents[row["game_id"]], "correspondence": row["game__days_per_move"] is not None}
            for row in rows]
