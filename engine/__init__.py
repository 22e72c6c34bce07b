"""Ace in the Hole: the rules as a pure-Python library (no Django, stdlib only).

The rules are ``shared/rules/ace-in-the-hole.md`` (R1-R19); docstrings and
error messages cite them by number.

>>> import engine
>>> s = engine.new_game(42)
>>> a = engine.legal_actions(s)[0]
>>> str(a), engine.apply(s, a).turn
('10D a1-c4', 'black')
"""
from __future__ import annotations

from .actions import Action
from .cards import SEATS
from .errors import EngineError, IllegalAction, NotationError, PositionError, RecordError
from .game import GAMES, Game
from .position import from_json, to_json
from .rules import Outcome, apply, legal_actions, outcome
from .shuffle import commitment
from .state import State, new_game
from .view import View, view

__all__ = [
    "GAMES", "SEATS", "Action", "EngineError", "Game", "IllegalAction", "NotationError", "Outcome",
    "PositionError", "RecordError", "State", "View", "apply", "commitment", "from_json",
    "legal_actions", "new_game", "outcome", "to_json", "view",
]
