"""What games tell their players through notify (issue 26): "your turn" in a
correspondence game, and "your game ended". Only public facts go in a notice:
names, the game's title, the result; never a card.

games.tasks.queue_turn_notice listens to every move (games.broadcast.listen_to_moves)
and runs :func:`tell_turn` 2 s later; :func:`game_finished` listens to
games.signals.game_finished. Both are connected in GamesConfig.ready().
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games import payloads, starting, store
from games.models import Game
from notify import notices
from notify.models import Kind

def game_key(game_id: int) -> str:
    return f"game:{game_id}"


def params_for(game: Game, seat: str) -> dict[str, Any]:
    """What a notice to ``seat``'s player may say about the game: the other
    side's names (not a partner's), the game's name and player count."""
    # The game's name is a proper name, the same in every language; notify.texts
    # words the player count in the reader's.
    return {"game": game.pk, "title": starting.Setup(game.kind, game.variant).title, "players": game.players,
            "opponents": [payloads.player_name(game, other) for other in game.opponents_of(seat)]}


# --- Your turn ---------------------------------------------------------------


def tell_turn(game_id: int, ply: int) -> bool:
    """Tell the player to move in ``game_id`` that it is their turn, if the
    game still waits at ``ply`` for them and they are not on its page.
    Returns whether they were told."""
    game = store.load(game_id)
    if game is None or not game.running or game.ply != ply or game.days_per_move is None:
        return False
    seat = game.to_move
    if game.present(seat, timezone.now()):
        return False
    notices.send(game.user_id_at(seat), Kind.TURN, game_key(game_id), params_for(game, seat),
                 url=play_url(game_id))
    return True


def play_url(game_id: int) -> str:
    return f"/games/{game_id}/"


# --- Game over ---------------------------------------------------------------


def game_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    """Each player not on the game's page hears how it ended, once the result
    commits (games.signals.game_finished is sent inside that transaction)."""
    now = timezone.now()
    told = [(seat.user_id, {**params_for(game, seat.name), "result": _result(game, seat.name)})
            for seat in game.table if not seat.present(now)]
    if not told:
        return
    key, url = game_key(game.pk), play_url(game.pk)

    def send() -> None:
        for user_id, params in told:
            notices.send(user_id, Kind.GAME_END, key, params, url=url)

    transaction.on_commit(send)


def _result(game: Game, seat: str) -> str:
    won = game.won(seat)
    return "draw" if won is None else ("won" if won else "lost")
