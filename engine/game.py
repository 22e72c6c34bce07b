"""The interface the site uses to play a game, and the registry of games.

Two games are registered: Ace in the Hole (``shared/rules/ace-in-the-hole.md``)
and Rhombus (``shared/rules/rhombus.md``).  The site and the command line
reach the rules only through a :class:`Game`, found by name in :data:`GAMES`,
so adding a game means writing one more package that fits this shape and
registering it here.

What differs between games is data on the :class:`Game`, not special cases
in its callers: the seats for each player count, which seats play together
(sides), the variants, and the text of a seat or side.  Ace in the Hole has
one variant and two seats; Rhombus has two variants (RH41) and two or four
players in two sides (RH3, RH31).

>>> GAMES["rhombus"].seats_for(4)
('SW', 'SE', 'NE', 'NW')
>>> GAMES["rhombus"].sides(4)
(('SW', 'NE'), ('SE', 'NW'))
>>> GAMES["ace-in-the-hole"].start(7) == GAMES["ace-in-the-hole"].new_game(7)
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from . import ace, rhombus
from .ace.rules import score as ace_score
from .errors import EngineError
from .shuffle import Seed, commitment

RHOMBUS_SEATS = {2: ("SW", "NE"), 4: ("SW", "SE", "NE", "NW")}
"""Rhombus's seats in turn order: opposite corners (RH3), all four counter-clockwise (RH31)."""


def _ace_setup(seed: Seed, players: int, variant: str, dealer: str | None = None) -> Any:
    return ace.new_game(seed)  # one variant, two players, Red first (R6): start() has checked


def _rhombus_setup(seed: Seed, players: int, variant: str, dealer: str | None = None) -> Any:
    return rhombus.new_game(seed, players=players, variant=variant, dealer=dealer)


def _rhombus_next_dealer(state: Any, winner: str | None) -> str | None:
    seats = tuple(winner.split("+")) if winner else ()
    return rhombus.next_dealer(state, rhombus.Outcome(winner, seats, "series"))


def _ace_step(state: Any, action: Any) -> tuple[Any, str]:
    after = ace.apply(state, action)
    return after, str(after.discards[ace.SEATS.index(state.turn)][-1])  # with its capture mark


def _rhombus_step(state: Any, action: Any) -> tuple[Any, str]:
    after, played = rhombus.step(state, action)
    return after, played.text


def _rhombus_unlisted_view(state: Any, seat: str | None) -> Any:
    return rhombus.view(state, seat, listing=False)


def _ace_points(state: Any) -> dict[str, int]:
    return ace_score(state.where)


@dataclass(frozen=True)
class Game:
    """A game's rules as plain functions over its own immutable state type.

    ``seats`` are the seats of the default (first) player count, in turn
    order; :meth:`seats_for` gives them for any count the game allows.
    ``new_game`` takes only the seed and starts the default variant;
    :meth:`start` also takes the player count and variant. :meth:`play`
    applies an action and names it as a record writes it; ``points`` counts
    each seat's points where the rules keep a score (R16), for a game that
    ends otherwise than by the rules (a resignation, a clock).
    """

    name: str
    seats: tuple[str, ...]
    new_game: Callable[[Seed], Any]
    legal_actions: Callable[[Any], list[Any]]
    apply: Callable[[Any, Any], Any]
    outcome: Callable[[Any], Any]
    view: Callable[[Any, str | None], Any]
    parse_action: Callable[[str], Any]
    to_json: Callable[[Any], Any]
    from_json: Callable[[Any], Any]
    commitment: Callable[[Seed], str]
    title: str = ""
    variants: tuple[str, ...] = ("classic",)
    seats_by_players: dict[int, tuple[str, ...]] = field(default_factory=dict)
    setup: Callable[..., Any] | None = None
    action_from_json: Callable[[Any], Any] | None = None
    step: Callable[[Any, Any], tuple[Any, str]] | None = None
    points: Callable[[Any], dict[str, int]] | None = None
    next_dealer: Callable[[Any, str | None], str | None] | None = None
    unlisted_view: Callable[[Any, str | None], Any] | None = None

    def seat_view(self, state: Any, seat: str | None, *, listing: bool = True) -> Any:
        """``seat``'s view (None: a spectator's). With ``listing`` off, a game
        whose listing is dear (Rhombus: a Formation flush has tens of thousands
        of actions) leaves its legal list out and names the card sets that have
        an action instead (``sets``); a cheap one (Ace in the Hole) lists anyway.

        >>> s = GAMES["rhombus"].start("demo")
        >>> sorted(set(GAMES["rhombus"].seat_view(s, "SW", listing=False).to_json()) & {"legal", "sets"})
        ['sets']
        >>> "legal" in GAMES["ace-in-the-hole"].seat_view(GAMES["ace-in-the-hole"].start(7), "red", listing=False).to_json()
        True
        """
        if listing or self.unlisted_view is None:
            return self.view(state, seat)
        return self.unlisted_view(state, seat)

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players the rules allow, the default first."""
        return tuple(self.seats_by_players) or (len(self.seats),)

    def seats_for(self, players: int) -> tuple[str, ...]:
        """The seats of a game of ``players`` players, in turn order."""
        if players not in self.player_counts:
            counts = " or ".join(str(n) for n in self.player_counts)
            raise EngineError.coded("player-count", game=self.title or self.name, counts=counts, players=players)
        return self.seats_by_players.get(players, self.seats)

    def sides(self, players: int | None = None) -> tuple[tuple[str, ...], ...]:
        """The seats that win or lose together: seat i plays for side ``i % 2``.

        One seat a side with two players; partners sit opposite with four
        (Rhombus RH31), so the sides are every other seat in turn order.
        """
        seats = self.seats_for(self.player_counts[0] if players is None else players)
        return tuple(seats[first::2] for first in range(2))

    def start(self, seed: Seed, players: int | None = None, variant: str | None = None,
              dealer: str | None = None) -> Any:
        """A new game: its first position, shuffled from ``seed``.

        ``players`` and ``variant`` default to the game's first; others the
        rules do not know are refused with :class:`EngineError`. ``dealer``
        (Rhombus) is the seat that deals, the next one moving first (RH9).
        """
        players = self.player_counts[0] if players is None else players
        variant = self.variants[0] if variant is None else variant
        self.seats_for(players)
        if variant not in self.variants:
            raise EngineError.coded("variant", game=self.title or self.name, variants=", ".join(self.variants),
                                    variant=repr(variant))
        return (self.setup or _ace_setup)(seed, players, variant, dealer)

    def play(self, state: Any, action: Any) -> tuple[Any, str]:
        """The state after ``action`` (any text the rules accept), and the
        action's canonical text, as the record keeps it.

        >>> GAMES["rhombus"].play(GAMES["rhombus"].start("demo"), "KC  b1-b3")[1]
        'KC b1-b3'
        """
        if self.step is None:  # a game whose texts are canonical as written
            return self.apply(state, action), str(action)
        return self.step(state, action)

    def dealer_after(self, state: Any, winner: str | None) -> str | None:
        """Who deals the next game between the same players, where the rules
        say (Rhombus RH28, RH37: the winning side; after a draw, the next
        seat), given the last position and the winning side (None: a draw).

        >>> s = GAMES["rhombus"].start("demo", 4)
        >>> GAMES["rhombus"].dealer_after(s, "SE+NW"), GAMES["rhombus"].dealer_after(s, None)
        ('SE', 'SW')
        """
        return None if self.next_dealer is None else self.next_dealer(state, winner)

    def score(self, state: Any) -> dict[str, int] | None:
        """Each seat's points now, or None where the rules count none."""
        return None if self.points is None else self.points(state)

    def read_action(self, data: Any) -> Any:
        """An action from its text or its JSON form."""
        return (self.action_from_json or self.parse_action)(data)


ACE_IN_THE_HOLE = Game(
    name="ace-in-the-hole",
    seats=("red", "black"),
    new_game=ace.new_game,
    legal_actions=ace.legal_actions,
    apply=ace.apply,
    outcome=ace.outcome,
    view=ace.view,
    parse_action=ace.Action.parse,
    to_json=ace.to_json,
    from_json=ace.from_json,
    commitment=commitment,
    title="Ace in the Hole",
    setup=_ace_setup,
    action_from_json=ace.Action.from_json,
    step=_ace_step,
    points=_ace_points,
)

RHOMBUS = Game(
    name="rhombus",
    seats=RHOMBUS_SEATS[2],
    new_game=rhombus.new_game,
    legal_actions=rhombus.legal_actions,
    apply=rhombus.apply,
    outcome=rhombus.outcome,
    view=rhombus.view,
    parse_action=rhombus.Action.parse,
    to_json=rhombus.to_json,
    from_json=rhombus.from_json,
    commitment=rhombus.commitment,
    title="Rhombus",
    variants=("classic", "formation"),
    seats_by_players=RHOMBUS_SEATS,
    setup=_rhombus_setup,
    action_from_json=rhombus.Action.from_json,
    step=_rhombus_step,
    next_dealer=_rhombus_next_dealer,
    unlisted_view=_rhombus_unlisted_view,
)

GAMES: dict[str, Game] = {game.name: game for game in (ACE_IN_THE_HOLE, RHOMBUS)}
"""Every registered game by its name: ``ace-in-the-hole`` and ``rhombus``."""

__all__ = ["ACE_IN_THE_HOLE", "GAMES", "RHOMBUS", "RHOMBUS_SEATS", "Game"]
