"""Test helpers for games' seats: who sits where, and moving presence stamps.

A game's players are Seat rows (games.models.Seat); these keep the tests'
own lines about red and black short.
"""

from __future__ import annotations

import re
from typing import Any

from games.models import Game, Seat

_STAMP = re.compile(r"(?P<seat>[A-Za-z]+)_(?P<field>seen_at|left_at)")


def set_game(game: Game | int, **fields: Any) -> Game:
    """Update a game's columns, and its seats' presence where a field names
    one (``red_seen_at=...`` sets the red seat's ``seen_at``); the game reloaded."""
    game_id = game if isinstance(game, int) else game.pk
    columns = {}
    for name, value in fields.items():
        stamp = _STAMP.fullmatch(name)
        if stamp:
            Seat.objects.filter(game_id=game_id, name=stamp["seat"]).update(**{stamp["field"]: value})
        else:
            columns[name] = value
    if columns:
        Game.objects.filter(pk=game_id).update(**columns)
    return Game.objects.get(pk=game_id)


def seated(game: Game) -> Game:
    """``game`` with its seats and their users loaded, for code that reads
    them where queries are not allowed (an async test)."""
    game.table  # noqa: B018 - loads and caches the seats
    return game
