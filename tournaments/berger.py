"""FIDE's Berger tables for round-robin tournaments (Handbook C.05, Annex 1).

Plain values, no Django: a round is a list of boards, a board is a pair
``(red, black)`` of 1-based pairing numbers, Red (TRF's "white", who moves
first) listed first, as in ``results.py``. An odd field gets a dummy player
n + 1, as FIDE's tables do ("if there is an odd number of players, the highest
number counts as a bye"); a game against the dummy is a bye, ``(player, None)``.

FIDE publishes the tables rather than a formula, and arbiters check pairings
against the printed pages, so the board order and the colours here are the
printed ones, not merely some valid round robin. They come from Berger's
rotation:

- the highest number ``n`` stays on board 1 and alternates colours, Black in
  odd rounds and Red in even ones;
- the other ``n - 1`` players sit in a ring read down the left-hand (Red)
  column from board 1 and back up the right-hand (Black) column; each round
  the ring turns by ``n / 2`` places.

>>> round_of(4, 1)
[(1, 4), (2, 3)]
>>> round_of(4, 2)
[(4, 3), (1, 2)]
>>> round_of(3, 3)
[(2, None), (3, 1)]
"""

from __future__ import annotations

Board = tuple[int, int | None]
Pairing = list[Board]


def table_size(players: int) -> int:
    """The even size of the Berger table that seats ``players`` (odd fields add a dummy)."""
    if players < 2:
        raise ValueError(f"a round robin needs at least 2 players, not {players}")
    return players + players % 2


def cycle_length(players: int) -> int:
    """Rounds in one cycle: everyone meets everyone once."""
    return table_size(players) - 1


def _ring(size: int, round_number: int) -> list[int]:
    """The ``size - 1`` rotating players in ring order for this round.

    The ring turns by ``size / 2`` places a round; that is the step that
    makes player 1's neighbour in round 1 (``2``) his opponent in round 2 and
    reproduces the printed tables board for board.
    """
    ring = size - 1
    offset = (round_number - 1) * (size // 2) % ring
    return [(index + offset) % ring + 1 for index in range(ring)]


def _table_round(size: int, round_number: int) -> list[tuple[int, int]]:
    """One round of the even Berger table of ``size``, dummy included."""
    ring = _ring(size, round_number)
    # The fixed player takes alternate colours so that he, too, never has the
    # same colour twice running.
    first = (ring[0], size) if round_number % 2 == 1 else (size, ring[0])
    # Left column going down faces the right column coming up.
    rest = [(ring[board], ring[-board]) for board in range(1, size // 2)]
    return [first, *rest]


def _without_dummy(board: tuple[int, int], players: int) -> Board:
    """A game against the dummy player ``players + 1`` becomes a bye for the other."""
    red, black = board
    if red > players:
        return (black, None)
    if black > players:
        return (red, None)
    return board


def round_of(players: int, round_number: int, double: bool = False) -> Pairing:
    """The pairings of one round (1-based) of a single or double round robin.

    Round ``k`` of the second cycle is round ``k`` of the table with the
    colours reversed (C.05 Annex 1); a bye has no colour to reverse. In a
    double round robin the first cycle plays the table's last two rounds in
    the other order, as FIDE recommends: otherwise players 1 and n/2 + 1 would
    have one colour three times running across the change of cycle.

    >>> round_of(8, 2)
    [(8, 5), (6, 4), (7, 3), (1, 2)]
    >>> round_of(8, 9, double=True)
    [(5, 8), (4, 6), (3, 7), (2, 1)]
    """
    length = cycle_length(players)
    total = length * (2 if double else 1)
    if not 1 <= round_number <= total:
        raise ValueError(f"round {round_number} is not among rounds 1..{total}")
    second_cycle = round_number > length
    in_cycle = round_number - length if second_cycle else round_number
    if double and not second_cycle and length >= 3 and in_cycle >= length - 1:
        in_cycle = 2 * length - 1 - in_cycle  # the last two rounds swapped
    boards = [_without_dummy(board, players) for board in _table_round(table_size(players), in_cycle)]
    return [_reversed(board) for board in boards] if second_cycle else boards


def _reversed(board: Board) -> Board:
    red, black = board
    return board if black is None else (black, red)


def rounds(players: int, double: bool = False) -> list[Pairing]:
    """Every round's pairings for entrants 1..``players``, in FIDE's Berger order.

    >>> rounds(3)
    [[(1, None), (2, 3)], [(3, None), (1, 2)], [(2, None), (3, 1)]]
    """
    total = cycle_length(players) * (2 if double else 1)
    return [round_of(players, number, double) for number in range(1, total + 1)]
