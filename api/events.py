"""What the account event stream hears that the lobby socket did not need
before: a game's end. Each player's ``user-<id>`` group gets ``game.finished``
once the result is committed (games.signals, subscribed in ApiConfig.ready)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Game
from games.signals import game_aborted, game_finished
from ladder import lobby_groups


def connect() -> None:
    game_finished.connect(_ended, dispatch_uid="api-game-finished")
    game_aborted.connect(_ended, dispatch_uid="api-game-aborted")


def _ended(sender: Any, game: Game, **kwargs: Any) -> None:
    message = {"type": "game.finished", "game": game.pk}
    notices = [(lobby_groups.user_group(user_id), message) for user_id in sorted({seat.user_id for seat in game.table})]
    transaction.on_commit(lambda: lobby_groups.send_to_groups(notices))
