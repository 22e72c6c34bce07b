"""The home page: the game explained, with the starting board drawn."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.site.board_html import DrawnBoard, read_board

# R3, copied from the rules page rather than asked of the engine.
HOME_SQUARES = {
    "a1": "JD", "b1": "QD", "c1": "KD", "d1": "AD", "e1": "AH", "f1": "KH", "g1": "QH", "h1": "JH",
    "a8": "JC", "b8": "QC", "c8": "KC", "d8": "AC", "e8": "AS", "f8": "KS", "g8": "QS", "h8": "JS",
}


@pytest.fixture
def page(client: Client) -> str:
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def board(page: str) -> DrawnBoard:
    return read_board(page)


def test_it_explains_the_game_and_links_the_admin(page: str) -> None:
    assert "<h1>Ace in the Hole</h1>" in page
    assert 'id="rules"' in page
    assert "Ace 40, King 20, Queen 10, Jack 5" in page  # R16 scoring
    assert 'href="/admin/"' in page


def test_every_pawn_starts_on_its_home_square(board: DrawnBoard) -> None:
    assert len(board.squares) == 64
    assert board.position == HOME_SQUARES


@pytest.mark.parametrize(
    ("square", "text", "side"),
    [("e1", "A\u2665", "red"), ("a1", "J\u2666", "red"), ("f8", "K\u2660", "black"),
     ("d8", "A\u2663", "black")],
)
def test_pawns_show_rank_and_suit_in_their_side_colour(
    board: DrawnBoard, square: str, text: str, side: str
) -> None:
    pawn = board.pawns[square]
    assert pawn.text == text
    assert f"pawn--{side}" in pawn.classes


def test_the_board_is_drawn_as_red_sees_it(board: DrawnBoard) -> None:
    assert board.squares[:8] == ["a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"]
    assert board.squares[-8:] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    assert "square--dark" in board.square_classes["a1"]  # R1
    assert "square--light" in board.square_classes["h1"]
    assert "square--light" in board.square_classes["a8"]


def test_both_captured_areas_start_empty_with_eight_places(board: DrawnBoard) -> None:
    assert board.captured_places == {"black": 8, "red": 8}
    assert board.captured_pawns == {"black": [], "red": []}
