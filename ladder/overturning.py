"""A finished game's result replaced after the fact: a moderator's adjudication
(moderation.actions.overturn) or a tournament's correction
(tournaments.corrections.correct_result).

The game keeps its moves and score; its public result becomes the corrector's
(a side wins, or a draw), its reason adjudication with the written note, and it
is unrated: its rating effect is undone first (ratings.undo_game). The game is
not finished again (games.signals.game_finished is not sent), so nothing
reacts to it as to a new result; its open pages reload.
"""

from __future__ import annotations

from games import broadcast
from games.models import Game
from ladder import ratings


def overturn(game: Game, winner: str | None, note: str) -> int:
    """Give the locked, finished ``game`` the result ``winner`` (one of its
    seats, whose side wins; None: a draw); the number of rating changes undone.
    The caller checks who may, and that ``winner`` is one of the game's seats."""
    undone = ratings.undo_game(game.pk)
    game.winner = game.side_name(winner) if winner else ""
    game.reason, game.rated, game.adjudication_note = Game.Reason.ADJUDICATION, False, note.strip()
    game.save(update_fields=["winner", "reason", "rated", "adjudication_note"])
    broadcast.notify_on_commit(game)
    return undone
