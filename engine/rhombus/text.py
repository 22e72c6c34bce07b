"""A Rhombus position as plain text, for terminals and finished games' logs."""
from __future__ import annotations

from .position import to_json
from .rules import outcome
from .state import State

_MARKS = {"SW": "S", "NE": "N", "SE": "E", "NW": "W"}  # the page's diagrams: S and N


def board_text(s: State, players: dict[str, str] | None = None) -> str:
    """A Rhombus position as text: the board as the page draws it (rank 5 on top), then the cards.

    Written from the position format, so it shows everything, hidden cards
    included: for tools and finished games, never for a running game's players.

    >>> from engine import rhombus
    >>> print(board_text(rhombus.new_game("demo")).splitlines()[5])
      1  S S . . .  1
    """
    data = to_json(s)
    board = data.get("board", {})
    files = "     a b c d e"
    lines = [files]
    for rank in "54321":
        cells = " ".join(_MARKS.get(board.get(f + rank, ""), ".") for f in "abcde")
        lines.append(f"  {rank}  {cells}  {rank}")
    lines.append(files)
    for seat, held in data.get("seats", {}).items():
        name = f" {players[seat]}" if players and seat in players else ""
        out = ", out" if held["out"] else ""
        lines.append(f"{seat} ({_MARKS[seat]}){name}: table {' '.join(held['table']) or '-'}, "
                     f"hand {' '.join(held['hand']) or '-'}; reserve {held['reserve']}, "
                     f"eliminated {held['eliminated']}{out}")
    discard = data.get("discard", [])
    lines.append(f"pile {len(data.get('pile', []))}, discard {len(discard)} (top {discard[0] if discard else '-'}), "
                 f"reshuffles {data.get('reshuffles', 0)}; quiet {data.get('quiet', 0)}")
    lines.append(_status(s, data.get("ply", 0), data.get("dealer", "")))
    return "\n".join(lines)


def _status(s: State, ply: int, dealer: str) -> str:
    over = outcome(s)
    if over is None:
        return f"{s.turn} to move, ply {ply} (dealer {dealer})"
    who = f"{over.winner} wins" if over.winner else "Draw"
    return f"{who} by {over.reason}, ply {ply}"
