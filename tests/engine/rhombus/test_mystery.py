"""Mystery: the 8 turns a table place into a hand place for the rest of the game (RH19, N4)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rhombus import Action, apply, to_json, view

from .positions import position, texts

BOARD = """
. . . . N
. . . . .
. . . . .
. . . . .
S . . . .
"""


def test_worked_example_6_mystery_from_the_table_rh19() -> None:
    s = position(BOARD, sw=(["8S", "QD"], ["KH"]))
    assert "8S mystery" in texts(s)
    after = apply(s, "8S mystery")
    top = to_json(s)["pile"][0]
    assert after.table("SW") == ["QD"]
    assert after.hand("SW") == ["KH", top]  # the emptied place is the new hand place, drawn unseen


def test_worked_example_6_mystery_from_the_hand_names_the_card_taken() -> None:
    """RH19, N4: the 8 was the hand card, so a table card goes to the hand and is named."""
    s = position(BOARD, sw=(["QD", "AH"], ["8S"]))
    t = texts(s)
    assert "8S mystery QD" in t and "8S mystery AH" in t and "8S mystery" not in t
    after = apply(s, "8S mystery QD")
    assert after.table("SW") == ["AH"]
    assert after.hand("SW")[0] == "QD" and len(after.hand("SW")) == 2


def test_rh19_the_card_taken_must_be_named_when_the_choice_exists() -> None:
    s = position(BOARD, sw=(["QD", "AH"], ["8S"]))
    with pytest.raises(IllegalAction, match=r"name the table card.*\(RH19\)"):
        apply(s, "8S mystery")
    with pytest.raises(IllegalAction, match=r"\(RH19\)"):
        apply(s, "8S mystery KH")


def test_rh19_no_card_is_named_when_a_table_card_left() -> None:
    s = position(BOARD, sw=(["8S", "QD"], ["KH"]))
    with pytest.raises(IllegalAction, match=r"\(RH19\)"):
        apply(s, "8S mystery QD")


def test_rh19_the_change_lasts_and_with_no_table_place_the_8_is_only_zero() -> None:
    s = position(BOARD, sw=(["8S", "QD"], ["KH"]))
    s = apply(s, "8S mystery")
    assert (len(s.table("SW")), len(s.hand("SW"))) == (1, 2)
    s = position(BOARD, sw=([], ["8S", "QD", "KH"]))
    after = apply(s, "8S mystery")
    assert (len(after.table("SW")), len(after.hand("SW"))) == (0, 3)


def test_rh29_a_card_taken_into_the_hand_shows_only_as_a_count() -> None:
    s = position(BOARD, sw=(["QD", "AH"], ["8S"]))
    after = apply(s, "8S mystery QD")
    seen = view(after, "NE").to_json()
    assert seen["seats"]["SW"]["hand_count"] == 2 and "hand" not in seen["seats"]["SW"]
    assert seen["seats"]["SW"]["table"] == ["AH"]


def test_n4_an_8_is_never_written_as_zero() -> None:
    s = position(BOARD, sw=(["8S", "QD"], ["KH"]))
    with pytest.raises(IllegalAction, match=r"\(RH19\)"):
        apply(s, "8S 0")
    assert Action.parse("8S mystery QD").to_json() == {"uses": [{"card": "8S", "mystery": "QD"}]}
    assert Action.parse("8S mystery").to_json() == {"uses": [{"card": "8S", "mystery": None}]}


def test_rh19_an_8_in_a_pair_with_a_hand_card_only_takes_a_table_card() -> None:
    # Table 1 place (QD), hand 8S 9S: the 8-9 pair plays no table card, so QD goes to the hand.
    s = position(BOARD, sw=(["QD"], ["8S", "9S"]))
    t = texts(s)
    assert "8S mystery QD, 9S 0" in t
    after = apply(s, "9S 0, 8S mystery QD")
    assert after.table("SW") == [] and after.hand("SW")[0] == "QD" and len(after.hand("SW")) == 3
