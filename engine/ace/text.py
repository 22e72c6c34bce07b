"""A position as a plain-text board, for terminals and logs of finished games."""
from __future__ import annotations

from .cards import FILES, POINTS, PAWN_INDEX, SEAT_NAMES, SEATS
from .rules import outcome
from .state import State


def board_text(s: State) -> str:
    """The board seen from Red's side (rank 8 at the top), captured areas at each end.

    >>> import engine
    >>> print(board_text(engine.new_game(1)).splitlines()[2])
     8  JC QC KC AC AS KS QS JS  8
    """
    board = s.board
    files = "    " + "  ".join(FILES)
    lines = [_captured_line(s, "black"), files]
    for rank in "87654321":
        cells = " ".join(board.get(f + rank, ". ").ljust(2) for f in FILES)
        lines.append(f" {rank}  {cells}  {rank}")
    lines += [files, _captured_line(s, "red"), _status(s)]
    return "\n".join(lines)


def _captured_line(s: State, seat: str) -> str:
    pawns = s.captured(seat)
    points = sum(POINTS[PAWN_INDEX[p]] for p in pawns)
    return f"{SEAT_NAMES[SEATS.index(seat)]} captured: {' '.join(pawns) or '-'} ({points})"


def _status(s: State) -> str:
    over = outcome(s)
    counts = f"hands {len(s.hands[0])}/{len(s.hands[1])}, decks {len(s.decks[0])}/{len(s.decks[1])}"
    if over is None:
        return f"{SEAT_NAMES[s.to_move]} to move, ply {s.ply}; {counts}"
    who = f"{over.winner.capitalize()} wins" if over.winner else "Draw"
    return f"{who} by {over.reason} ({over.score['red']}-{over.score['black']}), ply {s.ply}"
