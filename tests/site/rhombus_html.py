"""Reading rendered Rhombus boards (templates/games/_rhombus_board.html) back out of HTML."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class DrawnRhombus:
    label: str
    squares: list[str] = field(default_factory=list)  # in document order
    square_classes: dict[str, list[str]] = field(default_factory=dict)
    pieces: dict[str, str] = field(default_factory=dict)  # square -> seat


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.boards: list[DrawnRhombus] = []
        self.square: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        classes = a.get("class", "").split()
        if "rh-board" in classes:
            self.boards.append(DrawnRhombus(a.get("aria-label", "")))
        elif self.boards and "data-square" in a:
            self.square = a["data-square"]
            self.boards[-1].squares.append(self.square)
            self.boards[-1].square_classes[self.square] = classes
        elif self.boards and self.square and "data-piece" in a:
            self.boards[-1].pieces[self.square] = a["data-piece"]


def read_rhombus_boards(html: str) -> list[DrawnRhombus]:
    parser = _Parser()
    parser.feed(html)
    return parser.boards
