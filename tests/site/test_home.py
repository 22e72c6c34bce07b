"""The home page: the site and both games, each with its starting board drawn."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.site.board_html import DrawnBoard, read_board
from tests.site.rhombus_html import DrawnRhombus, read_rhombus_boards

pytestmark = pytest.mark.django_db  # the page lists the games being played now

# R3, copied from the rules page rather than asked of the engine.
HOME_SQUARES = {
    "a1": "JD", "b1": "QD", "c1": "KD", "d1": "AD", "e1": "AH", "f1": "KH", "g1": "QH", "h1": "JH",
    "a8": "JC", "b8": "QC", "c8": "KC", "d8": "AC", "e8": "AS", "f8": "KS", "g8": "QS", "h8": "JS",
}
# RH4, copied from rhombus.md.
RHOMBUS_TWO = {"a1": "SW", "b1": "SW", "a2": "SW", "e5": "NE", "d5": "NE", "e4": "NE"}


@pytest.fixture
def page(client: Client) -> str:
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def board(page: str) -> DrawnBoard:
    """Ace in the Hole's board: the part of the page before the Rhombus section."""
    return read_board(page[page.index('id="ace-in-the-hole"'):page.index('id="rhombus"')])


@pytest.fixture
def rhombus(page: str) -> DrawnRhombus:
    two, _four = read_rhombus_boards(page)
    return two


def test_it_introduces_the_site_and_both_games(page: str) -> None:
    assert '<h2 id="ace-heading">Ace in the Hole</h2>' in page
    assert '<h2 id="rhombus-heading">Rhombus</h2>' in page
    assert "<title>Ace in the Hole and Rhombus · aceweb</title>" in page
    assert 'href="/admin/"' not in page  # a visitor is offered no admin (tests/site/test_nav_admin_link.py)


def test_each_game_has_a_play_link_to_the_lobby_and_a_rules_link(page: str) -> None:
    assert 'class="button button--primary" href="/lobby/?game=ace-in-the-hole"' in page
    assert 'class="button button--primary" href="/lobby/?game=rhombus"' in page
    assert 'href="/rules/ace-in-the-hole/"' in page
    assert 'href="/rules/rhombus/"' in page
    assert 'id="rules"' in page  # the nav's Rules link lands here


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/lobby/", "/rules/ace-in-the-hole/", "/rules/rhombus/"])
def test_its_links_lead_somewhere(client: Client, url: str) -> None:
    assert client.get(url).status_code == 200


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


def test_the_rhombus_board_shows_the_two_player_start(rhombus: DrawnRhombus) -> None:
    assert len(rhombus.squares) == 25
    assert rhombus.pieces == RHOMBUS_TWO  # RH4
    assert rhombus.squares[:5] == ["a5", "b5", "c5", "d5", "e5"]  # rank 5 at the top (RH1)
    assert rhombus.squares[-5:] == ["a1", "b1", "c1", "d1", "e1"]


def test_the_rhombus_board_is_chequered_with_grey_start_corners(rhombus: DrawnRhombus) -> None:
    dark = [sq for sq, classes in rhombus.square_classes.items() if "square--dark" in classes]
    assert len(dark) == 13  # RH2: 13 dark, corners included, and 12 white
    assert {"a1", "e1", "e5", "a5", "c3"} <= set(dark)
    assert "square--light" in rhombus.square_classes["b1"]
    starts = {sq for sq, classes in rhombus.square_classes.items() if "rh-square--start" in classes}
    assert starts == {"a1", "e1", "e5", "a5"}  # RH2-RH3
    assert "rh-square--start-NE" in rhombus.square_classes["e5"]


def test_the_team_game_start_is_drawn_too(page: str) -> None:
    _two, four = read_rhombus_boards(page)
    assert len(four.squares) == 25
    # RH32: two pieces on the white neighbours of each corner, start squares empty.
    assert four.pieces == {"b1": "SW", "a2": "SW", "d1": "SE", "e2": "SE",
                           "d5": "NE", "e4": "NE", "a4": "NW", "b5": "NW"}


def test_the_home_page_needs_no_script_for_its_boards(page: str) -> None:
    # Both starting boards are drawn by the server; the only scripts are the panel of
    # games being played now (static/js/live.js, its words, and the catalog tag it needs).
    scripts = re.findall(r"<script[^>]*>", page)
    assert scripts and all(any(name in tag for name in ("live", "jsi18n", "zone.js")) for tag in scripts), scripts
