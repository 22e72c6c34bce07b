"""The interface the site uses to play a game, so a second game can slot in.

Ace in the Hole is the only game today; Rhombus (``shared/seeds/rhombus.de.txt``)
is planned.  The site reaches the rules only through a :class:`Game`, found
by name in :data:`GAMES`, so adding a game means writing one more module that
fits this shape and registering it here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import position, rules, state, view
from .actions import Action
from .shuffle import commitment


@dataclass(frozen=True)
class Game:
    """A game's rules as plain functions over its own immutable state type."""

    name: str
    seats: tuple[str, ...]
    new_game: Callable[[int | str | bytes], Any]
    legal_actions: Callable[[Any], list[Any]]
    apply: Callable[[Any, Any], Any]
    outcome: Callable[[Any], Any]
    view: Callable[[Any, str | None], Any]
    parse_action: Callable[[str], Any]
    to_json: Callable[[Any], Any]
    from_json: Callable[[Any], Any]
    commitment: Callable[[int | str | bytes], str]


ACE_IN_THE_HOLE = Game(
    name="ace-in-the-hole",
    seats=("red", "black"),
    new_game=state.new_game,
    legal_actions=rules.legal_actions,
    apply=rules.apply,
    outcome=rules.outcome,
    view=view.view,
    parse_action=Action.parse,
    to_json=position.to_json,
    from_json=position.from_json,
    commitment=commitment,
)

GAMES: dict[str, Game] = {ACE_IN_THE_HOLE.name: ACE_IN_THE_HOLE}
