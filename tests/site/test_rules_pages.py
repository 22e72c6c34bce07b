"""The rules in brief, one page per game, each beside its starting position."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.site.board_html import read_board
from tests.site.rhombus_html import read_rhombus_boards


def get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_ace_rules_keep_the_brief_and_the_board(client: Client) -> None:
    page = get(client, "/rules/ace-in-the-hole/")
    assert "<h1>Ace in the Hole</h1>" in page
    assert "Ace 40, King 20, Queen 10, Jack 5" in page  # R16 scoring
    board = read_board(page)
    assert len(board.squares) == 64 and len(board.pawns) == 16
    assert 'href="/lobby/"' in page


def test_rhombus_rules_show_both_starts(client: Client) -> None:
    page = get(client, "/rules/rhombus/")
    two, four = read_rhombus_boards(page)
    assert len(two.squares) == len(four.squares) == 25
    assert two.pieces == {"a1": "SW", "b1": "SW", "a2": "SW", "e5": "NE", "d5": "NE", "e4": "NE"}  # RH4
    # RH32: two pieces each on the white neighbours of the corner, start squares empty.
    assert four.pieces == {"b1": "SW", "a2": "SW", "d1": "SE", "e2": "SE",
                           "d5": "NE", "e4": "NE", "a4": "NW", "b5": "NW"}
    assert 'href="/lobby/"' in page


@pytest.mark.parametrize("sections", [["RH1&ndash;RH4", "RH6, RH12&ndash;RH19", "RH10&ndash;RH11",
                                       "RH20&ndash;RH23", "RH24", "RH25&ndash;RH27", "RH29&ndash;RH30",
                                       "RH31&ndash;RH37", "RH41&ndash;RH49"]])
def test_rhombus_rules_cite_their_rule_numbers(client: Client, sections: list[str]) -> None:
    page = get(client, "/rules/rhombus/")
    for ref in sections:
        assert f'<span class="rule-ref">{ref}</span>' in page


def test_every_rule_number_cited_exists_in_the_full_rules(client: Client) -> None:
    """A cited RH number outside RH1-RH49, or one of the free RH38-RH40, is a typo."""
    page = get(client, "/rules/rhombus/")
    cited = {int(n) for n in re.findall(r"RH(\d+)", page)}
    assert cited and all(1 <= n <= 49 and n not in (38, 39, 40) for n in cited)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/rules/ace-in-the-hole/", "/rules/rhombus/", "/lobby/"])
def test_the_footer_links_both_rules_pages(client: Client, url: str) -> None:
    page = get(client, url)
    footer = page[page.index('<footer'):]
    assert 'href="/rules/ace-in-the-hole/"' in footer and 'href="/rules/rhombus/"' in footer
