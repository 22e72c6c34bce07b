"""A line's text on its own (chat.text): one clean line, links, edit distance (issue 25)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chat import text


def levenshtein(a: str, b: str) -> int:
    """The plain full table, as the reference."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return table[len(a)][len(b)]


@pytest.mark.parametrize("raw, clean", [
    ("  good   game \n", "good game"),
    ("line one\nline two\r\nthree", "line one line two three"),
    ("g\u200bg", "gg"),  # zero-width space
    ("\u202egg wp", "gg wp"),  # right-to-left override
    ("bell\x07 and\x1b[31m escape", "bell and[31m escape"),
    ("\ufeffhello", "hello"),
    ("\u2028", ""),
])
def test_clean_leaves_one_line_of_visible_text(raw: str, clean: str) -> None:
    assert text.clean(raw) == clean


@given(st.text())
def test_clean_never_leaves_a_control_a_format_character_or_a_line_break(raw: str) -> None:
    cleaned = text.clean(raw)
    assert all(unicodedata.category(char) not in {"Cc", "Cf", "Co", "Cs", "Cn"} for char in cleaned)
    assert cleaned == cleaned.strip() and "  " not in cleaned and "\n" not in cleaned


@pytest.mark.parametrize("line", [
    "see https://example.com", "http://x.y", "www.example.org", "go to lichess.org now", "bit.ly/abc",
    "EXAMPLE.COM/path", "ftp://files", "сайт.рф",
])
def test_links_are_found(line: str) -> None:
    assert text.has_link(line)


@pytest.mark.parametrize("line", [
    "good game", "e.g. the queen", "3.5 points", "well... played", "Rd1.", "g1-g2 was strong", "a.b",
])
def test_plain_lines_are_not_links(line: str) -> None:
    assert not text.has_link(line)


@given(st.text(alphabet="abcde", max_size=12), st.text(alphabet="abcde", max_size=12), st.integers(1, 6))
def test_distance_below_agrees_with_the_full_table(a: str, b: str, limit: int) -> None:
    assert text.distance_below(a, b, limit) == (levenshtein(a, b) < limit)


@pytest.mark.parametrize("line, earlier, close", [
    ("good game", "good game", True),
    ("good game!", "good game", True),  # one edit, below max(2, 10 // 8)
    ("GOOD GAME", "good game", True),  # case is no change
    ("good game", "nice game", False),
    ("you played the opening very well indeed", "you played the opening very well, indeed", True),
    ("you played the opening very well indeed", "what a long and hard endgame that was", False),
])
def test_too_close_is_lichess_flood_rule(line: str, earlier: str, close: bool) -> None:
    assert text.too_close(line, earlier) is close
