"""Ace in the Hole: the rules as a pure-Python library (standard library only).

The rules are ``shared/rules/ace-in-the-hole.md`` (R1-R19); docstrings and
error messages cite them by number.  The modules: squares, cards and pawns
as integers (:mod:`.cards`, :mod:`.geometry`), the state (:mod:`.state`),
actions and their notation (:mod:`.actions`), move tables (:mod:`.moves`),
the rules (:mod:`.rules`, with :mod:`.explain` naming the rule a refused
action breaks), the position JSON (:mod:`.position`), per-seat views
(:mod:`.view`), the text board (:mod:`.text`), and for the bots the sampler
of unseen cards (:mod:`.determinize`) and the rules on plain integers for
fast playouts (:mod:`.fastplay`).  The shuffle and the commitment are
:mod:`engine.shuffle`, shared with Rhombus.

>>> from engine import ace
>>> s = ace.new_game(42)
>>> a = ace.legal_actions(s)[0]
>>> str(a), ace.apply(s, a).turn
('10D a1-c4', 'black')
"""
from __future__ import annotations

from ..shuffle import commitment
from .actions import Action
from .cards import SEATS
from .position import from_json, to_json
from .rules import Outcome, apply, legal_actions, outcome
from .state import State, new_game
from .view import View, view

__all__ = [
    "SEATS", "Action", "Outcome", "State", "View", "apply", "commitment", "from_json",
    "legal_actions", "new_game", "outcome", "to_json", "view",
]
