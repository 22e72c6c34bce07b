"""Template helpers behind templates/games/_board.html."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django import template

from games import boards

register = template.Library()


@register.simple_tag
def board_rows(board: Mapping[str, str]) -> list[boards.Row]:
    """{% board_rows board as rows %}: 8 rows of 8 cells, rank 8 first."""
    return boards.board_rows(board)


@register.simple_tag
def captured_places(pawns: Sequence[str] | None) -> list[boards.Pawn | None]:
    """{% captured_places captured.red as places %}: the area's 8 places."""
    return boards.captured_places(pawns or [])


@register.simple_tag
def faces(codes: Sequence[str] | None) -> list[boards.Pawn]:
    """{% faces hands.red as cards %}: cards by code ("8S"), to draw as faces with their names."""
    return [boards.Pawn(code) for code in codes or []]


@register.simple_tag
def file_letters() -> str:
    return boards.FILES
