"""Rhombus: the rules as a pure-Python library (standard library only).

The rules are ``shared/rules/rhombus.md`` (RH1-RH49, notation N1-N14);
docstrings and error messages cite them by number.

Done (stage 1 of issue 12): the **2-player classic game**, RH1-RH30: board,
set-up and deal from a seeded shuffle with commitment (RH30), every action
form (singles, pairs, flushes with free kill pairings, Entry-Kill, Mystery,
Eliminator, reactivation), exact walks with the no-revisit rule across the
whole action (RH13), the J through blockades (RH14), blockade protection
(RH17), discard, refill and reshuffle (RH24), and the endings RH25, RH26 and
the quiet-rule draw RH27; legal actions listed once per outcome with their
canonical text (N1-N14); the position format; per-seat views (RH29).

Done (stage 2): the **4-player team game**, RH31-RH37, with
``new_game(seed, players=4)``: seats ``SW SE NE NW`` in counter-clockwise
turn order, teams ``SW+NE`` and ``SE+NW`` (side ``i % 2``, partner
``(i + 2) % 4``), 2 pieces on the white neighbours and 2 in the reserve,
``NW`` deals by default so ``SW`` starts (RH9, RH31, RH32); partners'
pieces friendly: never killed, they block walks and the ``9``'s start
square, and blockades may mix both partners (RH17, RH33); out players
(RH34): after any action a player with no own piece on the board is out,
the reserve is lost (counted as eliminated), and from then on they move the
partner's pieces, bring in the partner's reserve on the partner's start
square and reactivate the partner's pieces (:func:`plays_for`); the team
as ``outcome``'s winner (``"SE+NW"``, RH35); views hide the partner's hand
too (RH29, RH36); 4-player positions, whose ``out`` must agree with the
board; RH28/RH37's next dealer (:func:`next_dealer`).  The page has no
worked example for the team game; the tests count golden positions by hand.

Done (stage 3): **Formation** for 2 and 4 players, RH41-RH49, with
``new_game(seed, players, variant="formation")``: two packs dealt 3 table
cards then 1 hand card a player (the deal shuffles the double pack in card
order, copies side by side, RH42); card sets are multisets, and of two
identical cards an action takes the table copy (N6); identical pairs,
4-card flushes, any three of four cards of a suit as a flush, three of a
kind used (RH45), the Eliminator from any three of the four cards, the
Entryliminator ``entry 9S JS QS KS @xa1`` (RH46), Mystery with T + H = 4
and several 8s taking several table cards, in card order on the first 8s
(N4); killed pieces go back to their owner's reserve, so no eliminated
pieces, no out players and no RH25 (RH44); with no own piece on the board
only bring-ins and discards ``discard 6H, 7H`` (RH47, N10), and with
pieces but nothing legal a one-card discard (RH48); the Formation win
(RH43, checked before the quiet rule, N12), for a team with both
partners' pieces (RH49); Formation positions (4 cards a seat, the double
pack) and views.

Not done yet: Formation's fast playout code, if any is wanted, and
determinization for the bots (the double pack).  RH36's "no chat" is the
site's.  RH9's first seat draw is :func:`seating` (``seating(seed, 4)`` for four).

>>> from engine import rhombus
>>> s = rhombus.new_game("demo")
>>> [str(a) for a in rhombus.legal_actions(s)][:4]
['10S 0', '8D mystery', 'KC a2-a4', 'KC a2-b3']
>>> rhombus.apply(s, "KC b1-b3").pieces()["b3"]
'SW'
"""
from __future__ import annotations

from ..shuffle import commitment, seating
from .actions import Action, Use
from .position import from_json, to_json
from .rules import Outcome, apply, legal_actions, next_dealer, outcome, step, walk
from .state import State, new_game, plays_for
from .view import View, view

__all__ = [
    "Action", "Outcome", "State", "Use", "View", "apply", "commitment", "step", "from_json", "legal_actions",
    "new_game", "next_dealer", "outcome", "plays_for", "seating", "to_json", "view", "walk",
]
