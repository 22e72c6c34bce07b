"""The notation and the action JSON of the rules page (Notation, N2-N5)."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine.rhombus
from engine.errors import NotationError
from engine.rhombus import Action

PAGE_JSON = [
    ({"uses": [{"card": "QH", "from": "b1", "to": "b4"}]}, "QH b1-b4"),
    ({"uses": [{"card": "QH", "kill": "7H", "from": "c2", "to": "c5"}]}, "QH+7H c2xc5"),
    ({"uses": [{"card": "KC", "from": "b1", "to": "b3"}, {"card": "QC", "from": "a2", "to": "d2"}]},
     "KC b1-b3, QC a2-d2"),
    ({"uses": [{"card": "9D", "kill": "10D", "enter": "a1"}]}, "9D+10D @xa1"),
    ({"uses": [{"card": "10C", "zero": True}]}, "10C 0"),
    ({"uses": [{"card": "8S", "mystery": "QD"}]}, "8S mystery QD"),
    ({"uses": [{"card": "8S", "mystery": None}]}, "8S mystery"),
    ({"eliminator": ["10C", "JC", "QC"], "from": "c2", "to": "c3"}, "elim 10C JC QC c2xc3"),
    ({"reactivate": ["AH", "AS", "AD"]}, "react AD AH AS"),
]


@pytest.mark.parametrize("data, text", PAGE_JSON)
def test_the_pages_json_forms_read_as_their_texts(data: dict[str, object], text: str) -> None:
    """Notation: the page's JSON examples and their texts are the same actions."""
    a = Action.from_json(data)
    assert str(a) == text
    assert str(Action.parse(text)) == text
    assert Action.from_json(a.to_json()) == a


def test_n5_card_lists_come_out_in_card_order() -> None:
    assert str(Action.parse("elim QC 10C JC c2xc3")) == "elim 10C JC QC c2xc3"
    assert str(Action.parse("REACT as ah ad")) == "react AD AH AS"


def test_n3_plus_and_x_go_together() -> None:
    with pytest.raises(NotationError, match="N3"):
        Action.parse("QH+7H c2-c5")
    with pytest.raises(NotationError, match="N3"):
        Action.parse("QH c2xc5")
    with pytest.raises(NotationError, match="N3"):
        Action.parse("9D @xa1")
    with pytest.raises(NotationError, match="N3"):
        Action.from_json({"uses": [{"card": "10C", "kill": "7C", "zero": True}]})


@pytest.mark.parametrize("text", ["QH b1-b6", "1H b1-b2", "QH", "QH b1 b2", "elim 10C JC c2xc3", "", "pass"])
def test_what_is_not_notation_is_refused(text: str) -> None:
    """Notation: anything else is a NotationError, not an illegal action."""
    with pytest.raises(NotationError):
        Action.parse(text)


def test_formation_forms_are_read_in_text_and_json() -> None:
    """RH46-RH48, N5: the Entryliminator's 9 first, then card order; a discard in card order."""
    entry = Action.from_json({"entryliminator": ["KS", "JS", "9S", "QS"], "to": "a1"})
    assert entry.text == "entry 9S JS QS KS @xa1" == Action.parse("entry 9s ks qs js @xA1").text
    assert entry.to_json() == {"entryliminator": ["9S", "JS", "QS", "KS"], "to": "a1"}
    discard = Action.parse("discard 7H, 6H")
    assert discard.text == "discard 6H, 7H" and discard.to_json() == {"discard": ["6H", "7H"]}
    assert Action.from_json({"discard": ["7H", "6H"]}) == discard


MODULES = sorted(name for _, name, _ in pkgutil.iter_modules(engine.rhombus.__path__, "engine.rhombus."))


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    """STYLE: the docstring examples of every engine.rhombus module run."""
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
