"""templates/games/_board.html draws any position, not only the start."""

from __future__ import annotations

from django.template.loader import render_to_string

from games.boards import board_rows, captured_places
from tests.site.board_html import read_board


def test_rows_run_from_rank_8_down_with_files_a_to_h() -> None:
    rows = board_rows({"c3": "QD"})
    assert [row.rank for row in rows] == [8, 7, 6, 5, 4, 3, 2, 1]
    assert all(len(row.cells) == 8 for row in rows)
    third_rank = rows[5]
    assert [cell.square for cell in third_rank.cells][:3] == ["a3", "b3", "c3"]
    assert third_rank.cells[2].pawn is not None and third_rank.cells[2].pawn.label == "Q\u2666"
    assert sum(cell.pawn is not None for row in rows for cell in row.cells) == 1


def test_captured_places_fill_in_order_and_keep_eight() -> None:
    places = captured_places(["KS", "JC"])
    assert len(places) == 8
    assert [p.code if p else None for p in places[:3]] == ["KS", "JC", None]


def test_a_mid_game_position_shows_moved_and_captured_pawns() -> None:
    position = {"e6": "AH", "b8": "QC", "d1": "AD"}
    html = render_to_string(
        "games/_board.html",
        {"board": position, "captured": {"red": ["KS", "JC"], "black": ["QH"]}},
    )
    drawn = read_board(html)
    assert drawn.position == position
    assert drawn.captured_pawns == {"red": ["KS", "JC"], "black": ["QH"]}
    assert drawn.captured_places == {"red": 8, "black": 8}


def test_the_board_needs_no_captured_areas_to_render() -> None:
    drawn = read_board(render_to_string("games/_board.html", {"board": {"a1": "JD"}}))
    assert drawn.position == {"a1": "JD"}
    assert drawn.captured_pawns == {"red": [], "black": []}
