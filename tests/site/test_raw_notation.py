"""What the language walk (test_language_walk_browser.py) calls raw notation:
a text of cards, squares and action words only, as the Rhombus buttons once
read (issue 35, finding 3); a seat code alone, or notation among words, is not."""

from __future__ import annotations

import pytest

from tests.site.notation import card_codes, is_raw_notation


@pytest.mark.parametrize("text", [
    "7D 0", "8D mystery", "8S mystery QD", "QH+7H c2xc5", "9D @a1", "9D+10D @xa1", "b5", "e1-e6",
    "5H e1-e6", "KH @xf1", "9C burn", "elim 6S 7S 8S d1xa2", "discard 2H, 3S", "react 7D 8D",
    "entry 2H 3H 4H 5H @xa1", "SW 7D 0", "7D:", "12. 5H e1-e6", "A♥",
])
def test_notation_alone_is_raw(text: str) -> None:
    assert is_raw_notation(text)


@pytest.mark.parametrize("text", [
    "SW", "NE · NW", "A♥ von e1 nach e7 ziehen", "7D: Wähle den Zug.", "Ход SW", "5+3", "1500", "12:30",
    "R9", "RH21", "BOT", "Spiele 7D als Null", "♥", "3 in hand", "",
])
def test_words_or_codes_are_not_raw_notation(text: str) -> None:
    assert not is_raw_notation(text)


@pytest.mark.parametrize(("text", "codes"), [
    ("Step 4 of 4: Black 7S f8xf1", ["7S"]), ("7D: Wähle den Zug.", ["7D"]), ("Sent: QH+7H c2xc5", ["QH+7H"]),
    ("A♥ von e1 nach e7 ziehen", []), ("Ход 7 из 10", []), ("1d", []), ("10+5", []),
])
def test_card_codes_are_found_among_words(text: str, codes: list[str]) -> None:
    assert card_codes(text) == codes
