"""Reading a rendered board back out of HTML, for the page tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class DrawnPawn:
    code: str
    classes: list[str]
    text: str = ""


@dataclass
class DrawnBoard:
    squares: list[str] = field(default_factory=list)  # in document order
    square_classes: dict[str, list[str]] = field(default_factory=dict)
    pawns: dict[str, DrawnPawn] = field(default_factory=dict)  # square -> pawn
    captured_places: dict[str, int] = field(default_factory=dict)  # side -> places
    captured_pawns: dict[str, list[str]] = field(default_factory=dict)  # side -> pawns

    @property
    def position(self) -> dict[str, str]:
        return {square: pawn.code for square, pawn in self.pawns.items()}


class _BoardParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.board = DrawnBoard()
        self.square: str | None = None
        self.side: str | None = None
        self.pawn: DrawnPawn | None = None
        self.pawn_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        classes = a.get("class", "").split()
        if self.pawn is not None:
            self.pawn_depth += 1
        elif "data-square" in a:
            self.square = a["data-square"]
            self.board.squares.append(self.square)
            self.board.square_classes[self.square] = classes
        elif "data-captured" in a:
            self.side, self.square = a["data-captured"], None
            self.board.captured_places[self.side] = 0
            self.board.captured_pawns[self.side] = []
        elif "captured__place" in classes and self.side:
            self.board.captured_places[self.side] += 1
        elif "data-pawn" in a:
            self.pawn = DrawnPawn(a["data-pawn"], classes)
            self.pawn_depth = 1
            if self.square:
                self.board.pawns[self.square] = self.pawn
            elif self.side:
                self.board.captured_pawns[self.side].append(self.pawn.code)

    def handle_endtag(self, tag: str) -> None:
        if self.pawn is not None:
            self.pawn_depth -= 1
            if self.pawn_depth == 0:
                self.pawn = None

    def handle_data(self, data: str) -> None:
        if self.pawn is not None:
            self.pawn.text += data.strip()


def read_board(html: str) -> DrawnBoard:
    parser = _BoardParser()
    parser.feed(html)
    return parser.board
