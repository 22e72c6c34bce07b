"""A Swiss or round-robin tournament's results as plain values (no Django).

They are kept in the terms of FIDE's Tournament Report File (TRF-16), which
every pairing engine reads, so that the pairing, the tiebreaks and the TRF
download all speak of the same thing. TRF's "white" is Red, who moves first
(R6); "black" is Black.

A player's round is (opponent, colour, result code). The result codes are
TRF-16's:

    played, rated:     "1" win, "=" draw, "0" loss
    played, unrated:   "W" win, "D" draw, "L" loss
    forfeits:          "+" won by forfeit, "-" lost by forfeit
    byes:              "U" pairing-allocated bye (a win's points, as on lichess),
                       "F" full-point bye, "H" half-point bye,
                       "Z" zero-point bye, " " not paired (absent, withdrawn)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

Colour = Literal["w", "b"]
RED: Colour = "w"
BLACK: Colour = "b"

PLAYED = frozenset("1=0WDL")
FORFEITS = frozenset("+-")
BYES = frozenset("UFHZ ")
CODES = PLAYED | FORFEITS | BYES

_POINTS = {"1": 1.0, "W": 1.0, "+": 1.0, "U": 1.0, "F": 1.0,
           "=": 0.5, "D": 0.5, "H": 0.5,
           "0": 0.0, "L": 0.0, "-": 0.0, "Z": 0.0, " ": 0.0}


@dataclass(frozen=True)
class Round:
    """One player's round: whom they met, with which colour, and the result.

    ``opponent`` is the opponent's pairing number, or None for a bye or an
    unpaired round; ``colour`` is None when no game was played on the board
    (a bye; a forfeit keeps the colour it was paired with).
    """

    opponent: int | None
    colour: Colour | None
    result: str

    def __post_init__(self) -> None:
        if self.result not in CODES:
            raise ValueError(f"unknown TRF-16 result code {self.result!r}")
        if (self.opponent is None) != (self.result in BYES):
            raise ValueError("a bye or unpaired round has no opponent; a game or forfeit has one")

    @property
    def points(self) -> float:
        return _POINTS[self.result]

    @property
    def played(self) -> bool:
        """Whether a game was actually played over the board (C.07: forfeits and byes are unplayed)."""
        return self.result in PLAYED

    @property
    def paired(self) -> bool:
        """Whether the pairing set the player against an opponent (played or forfeited)."""
        return self.opponent is not None


@dataclass(frozen=True)
class Player:
    """A player of the tournament: pairing number (1-based, the starting
    rank), name, rating, and their rounds so far, first round first."""

    number: int
    name: str
    rating: int
    rounds: tuple[Round, ...] = ()

    @property
    def points(self) -> float:
        return sum(r.points for r in self.rounds)

    def opponents(self) -> list[int]:
        """Pairing numbers met so far, played or forfeited, in round order."""
        return [r.opponent for r in self.rounds if r.opponent is not None]

    def colours(self) -> list[Colour]:
        """Colours of the games actually played, in round order (FIDE counts only those)."""
        return [r.colour for r in self.rounds if r.played and r.colour is not None]

    def had_pairing_bye(self) -> bool:
        """Whether the player has had a bye or a win without playing (C.04.1 c: at most one)."""
        return any(r.result in "UF+" for r in self.rounds)


def by_number(players: Iterable[Player]) -> dict[int, Player]:
    return {p.number: p for p in players}


def check_symmetric(players: Sequence[Player]) -> None:
    """Raise ValueError unless every game appears on both players' records
    with opposite colours and results that add up (a TRF file's consistency)."""
    table = by_number(players)
    opposite = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+"}
    for player in players:
        for index, mine in enumerate(player.rounds):
            if mine.opponent is None:
                continue
            other = table.get(mine.opponent)
            theirs = other.rounds[index] if other is not None and index < len(other.rounds) else None
            if theirs is None or theirs.opponent != player.number:
                raise ValueError(f"round {index + 1}: {player.number} met {mine.opponent}, who has no such game")
            if mine.played and theirs.result != opposite[mine.result]:
                raise ValueError(f"round {index + 1}: results of {player.number} and {mine.opponent} do not agree")
            if mine.played and mine.colour == theirs.colour:
                raise ValueError(f"round {index + 1}: {player.number} and {mine.opponent} had the same colour")
