"""The games' rules as a pure-Python library (no Django, stdlib only).

Each game is a package: :mod:`engine.ace` for Ace in the Hole
(``shared/rules/ace-in-the-hole.md``, R1-R19) and :mod:`engine.rhombus` for
Rhombus (``shared/rules/rhombus.md``, RH1-RH49); docstrings and error
messages cite the rules by number.  What both share stays here: the
:class:`Game` interface and registry (:mod:`engine.game`), seeds, shuffles
and commitments (:mod:`engine.shuffle`), records (:mod:`engine.record`),
errors, the bots and the arena, and the command line.  Ace in the Hole's
public API is also this package's, as it was before Rhombus came:

>>> import engine
>>> s = engine.new_game(42)
>>> a = engine.legal_actions(s)[0]
>>> str(a), engine.apply(s, a).turn
('10D a1-c4', 'black')
"""
from __future__ import annotations

from .ace import (
    SEATS, Action, Outcome, State, View, apply, from_json, legal_actions, new_game, outcome, to_json,
    view,
)
from .errors import EngineError, IllegalAction, NotationError, PositionError, RecordError
from .game import GAMES, Game
from .shuffle import commitment

__all__ = [
    "GAMES", "SEATS", "Action", "EngineError", "Game", "IllegalAction", "NotationError", "Outcome",
    "PositionError", "RecordError", "State", "View", "apply", "commitment", "from_json",
    "legal_actions", "new_game", "outcome", "to_json", "view",
]
