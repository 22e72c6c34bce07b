"""What the Dutch pairing (tournaments.swiss) knows of each player, worked out
once: score, colours and the colour preference they give (C.04.3 A.6), floats
(A.4); and the colour rules of a pair: whether two players may meet at all
(C.04.1 f, g) and who gets red (C.04.3 E).

Plain values, no Django, as tournaments.swiss.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tournaments.results import BLACK, RED, Colour, Player

Float = Literal["up", "down"] | None

NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


@dataclass(frozen=True)
class Entrant:
    """What the pairing needs to know of one player, worked out once."""

    number: int
    score: int  # in half points, so that scores compare exactly
    colours: tuple[Colour, ...]
    preference: Colour | None
    strength: int
    last_float: Float
    float_before: Float
    can_have_bye: bool
    met: frozenset[int]

    @property
    def absolute(self) -> bool:
        return self.strength == ABSOLUTE


def colour_preference(colours: Sequence[Colour]) -> tuple[Colour | None, int]:
    """The colour a player should get next, and how strongly (C.04.3 A.6).

    >>> colour_preference(["w", "w"])
    ('b', 3)
    >>> colour_preference(["w", "b", "w"])
    ('b', 2)
    >>> colour_preference(["w", "b"])
    ('w', 1)
    """
    if not colours:
        return None, NONE
    difference = colours.count(RED) - colours.count(BLACK)
    last = colours[-1]
    other = BLACK if last == RED else RED
    if difference > 1:
        return BLACK, ABSOLUTE
    if difference < -1:
        return RED, ABSOLUTE
    if len(colours) >= 2 and colours[-2] == last:
        return other, ABSOLUTE
    if difference == 1:
        return BLACK, STRONG
    if difference == -1:
        return RED, STRONG
    return other, MILD


def _score_before(player: Player, index: int) -> int:
    return round(2 * sum(r.points for r in player.rounds[:index]))


def _float_in(player: Player, index: int, table: dict[int, Player]) -> Float:
    """The float of a player's round (A.4): a point without playing is a downfloat;
    a game against someone of another score floats the higher down and the lower up."""
    if index < 0 or index >= len(player.rounds):
        return None
    played = player.rounds[index]
    if played.result in "UF+":
        return "down"
    if not played.played or played.opponent not in table:
        return None
    mine = _score_before(player, index)
    theirs = _score_before(table[played.opponent], index)
    if mine == theirs:
        return None
    return "down" if mine > theirs else "up"


def entrant(player: Player, table: dict[int, Player]) -> Entrant:
    colours = tuple(player.colours())
    preference, strength = colour_preference(colours)
    last = len(player.rounds) - 1
    return Entrant(player.number, round(2 * player.points), colours, preference, strength,
                   _float_in(player, last, table), _float_in(player, last - 1, table),
                   not player.had_pairing_bye(), frozenset(player.opponents()))


def colours_compatible(a: Entrant, b: Entrant) -> bool:
    """Whether some colour allocation keeps both players within C.04.1 f and g."""
    return not (a.absolute and b.absolute and a.preference == b.preference)


def allocate(higher: Entrant, lower: Entrant, initial: Colour = RED) -> tuple[int, int]:
    """(red, black) for a pair by C.04.3 E; ``higher`` is the higher ranked player."""
    colour = _colour_of_higher(higher, lower, initial)
    return (higher.number, lower.number) if colour == RED else (lower.number, higher.number)


def _colour_of_higher(higher: Entrant, lower: Entrant, initial: Colour) -> Colour:
    wanted, other = higher.preference, lower.preference
    if wanted is not None and wanted != other:
        return wanted  # E.1: both granted, or the other has no preference
    if wanted is None and other is not None:
        return BLACK if other == RED else RED  # E.1
    if wanted is not None and higher.strength != lower.strength:
        stronger_wants_it = higher.strength > lower.strength  # E.2
        return wanted if stronger_wants_it else (BLACK if wanted == RED else RED)
    for mine, theirs in zip(reversed(higher.colours), reversed(lower.colours)):
        if mine != theirs:  # E.3: alternate from the last round they differed
            return BLACK if mine == RED else RED
    if wanted is not None:
        return wanted  # E.4
    odd = higher.number % 2 == 1  # E.5
    return initial if odd else (BLACK if initial == RED else RED)
