"""The action notation of the rules page ("Notation"): text and JSON, both ways."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Action, NotationError
from engine.ace.cards import CARD_NAMES, HOME_NAMES, SQUARE_NAMES

FACE_CARDS = [c for c in CARD_NAMES if c[0] in "AKQJ"]
NUMBER_CARDS = [c for c in CARD_NAMES if c[0] not in "AKQJ"]


# --- every form parses into its parts and writes back the same -------------

@pytest.mark.parametrize(
    ("text", "card", "kind", "frm", "to", "capture"),
    [
        ("5H e1-e6", "5H", "move", "e1", "e6", False),
        ("8D b1xc3", "8D", "move", "b1", "c3", True),
        ("KH @f1", "KH", "release", None, "f1", False),
        ("KH @xf1", "KH", "release", None, "f1", True),
        ("9C burn", "9C", "burn", None, None, False),
        ("10D b1-d4", "10D", "move", "b1", "d4", False),
        ("10S g8xe5", "10S", "move", "g8", "e5", True),
        ("10C burn", "10C", "burn", None, None, False),
        ("AS @e8", "AS", "release", None, "e8", False),
        ("JC @xa8", "JC", "release", None, "a8", True),
        ("QD c2-b1", "QD", "move", "c2", "b1", False),
    ],
)
def test_each_notation_form_parses_into_its_parts_and_writes_back_unchanged(
        text: str, card: str, kind: str, frm: str | None, to: str | None, capture: bool) -> None:
    a = Action.parse(text)
    assert (a.card, a.kind, a.from_square, a.to_square, a.capture) == (card, kind, frm, to, capture)
    assert str(a) == text
    assert Action.parse(str(a)) == a


def test_repr_is_python_that_rebuilds_the_action() -> None:
    a = Action.parse("10H a1xc4")
    assert repr(a) == "Action.parse('10H a1xc4')"
    assert eval(repr(a), {"Action": Action}) == a


def test_equal_actions_hash_equally_so_they_work_in_sets() -> None:
    assert {Action.parse("5H e1-e6"), Action.parse("5h E1-E6")} == {Action.parse("5H e1-e6")}


def test_a_capture_mark_makes_a_different_action_text() -> None:
    assert Action.parse("8D b1xc3") != Action.parse("8D b1-c3")


@pytest.mark.parametrize(
    ("written", "normalised"),
    [
        ("5h e1-e6", "5H e1-e6"),
        ("5H E1-E6", "5H e1-e6"),
        ("8d B1XC3", "8D b1xc3"),
        ("kh @F1", "KH @f1"),
        ("kh @XF1", "KH @xf1"),
        ("9c BURN", "9C burn"),
        ("10s Burn", "10S burn"),
        ("  5H   e1-e6  ", "5H e1-e6"),
        ("5H\te1-e6\n", "5H e1-e6"),
    ],
)
def test_lower_case_and_extra_spaces_are_read_and_written_in_the_standard_form(
        written: str, normalised: str) -> None:
    assert str(Action.parse(written)) == normalised
    assert Action.parse(written) == Action.parse(normalised)


# --- the JSON form ----------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("5H e1-e6", {"card": "5H", "from": "e1", "to": "e6"}),
        ("8D b1xc3", {"card": "8D", "from": "b1", "to": "c3", "capture": True}),
        ("KH @f1", {"card": "KH", "release": True}),
        ("KH @xf1", {"card": "KH", "release": True, "capture": True}),
        ("9C burn", {"card": "9C", "burn": True}),
        ("10C burn", {"card": "10C", "burn": True}),
    ],
)
def test_json_form_is_the_rules_page_form_and_reads_back(text: str, data: dict[str, Any]) -> None:
    a = Action.parse(text)
    assert a.to_json() == data
    assert Action.from_json(data) == a
    assert Action.from_json(text) == a


def test_json_form_accepts_lower_case_cards_and_upper_case_squares() -> None:
    assert Action.from_json({"card": "5h", "from": "E1", "to": "E6"}) == Action.parse("5H e1-e6")


# --- malformed text: a NotationError that says what is wrong ----------------

def test_notation_error_is_a_value_error() -> None:
    assert issubclass(NotationError, ValueError)


@pytest.mark.parametrize(
    "text",
    [
        "1H e1-e6", "11H e1-e6", "5X e1-e6", "ZH burn", "H5 e1-e6", "5 e1-e6", "0S burn",  # bad card
        "5H e1-e9", "5H i1-e6", "5H e0-e6", "5H e1-ee", "5H 1e-6e",  # bad square
        "", "   ", "5H", "e1-e6", "5H e1", "5H e1-", "5H -e6", "5H e1e6", "KH @", "KH f1",  # missing parts
        "5H e1 - e6", "5H e1-e6 e7", "5H e1-e6 burn", "burn 9C", "5H e1=e6", "KH @yf1", "9C burnt",
    ],
)
def test_malformed_text_raises_a_notation_error_that_shows_the_right_form(text: str) -> None:
    with pytest.raises(NotationError) as e:
        Action.parse(text)
    assert "5H e1-e6" in str(e.value)


@pytest.mark.parametrize("text", ["5H @e1", "10D @a1", "2C @xa8"])
def test_a_number_card_cannot_be_written_as_a_release(text: str) -> None:
    with pytest.raises(NotationError, match=r"R12"):
        Action.parse(text)


@pytest.mark.parametrize(
    ("text", "home"), [("KH @e1", "f1"), ("AS @xd8", "e8"), ("JD @h1", "a1"), ("QC @b1", "b8")],
)
def test_a_release_to_another_square_than_the_pawns_home_names_r3(text: str, home: str) -> None:
    with pytest.raises(NotationError, match=r"R3") as e:
        Action.parse(text)
    assert home in str(e.value)


@pytest.mark.parametrize("value", [None, 5, b"5H e1-e6", ["5H", "e1-e6"], {"card": "5H"}])
def test_parse_of_something_that_is_not_text_raises_a_notation_error(value: Any) -> None:
    with pytest.raises(NotationError):
        Action.parse(value)


@pytest.mark.parametrize(
    "data",
    [
        None, 5, [], ["5H", "e1", "e6"], {}, {"card": 5}, {"card": None, "burn": True},
        {"card": "5H"}, {"card": "5H", "from": "e1"}, {"card": "5H", "from": "e1", "to": 6},
        {"card": "5H", "from": "e1", "to": "e9"}, {"card": "QQ", "burn": True},
        {"card": "5H", "release": True}, {"card": "5H", "burn": "yes"}, "5H e1e6",
    ],
)
def test_malformed_json_raises_a_notation_error(data: Any) -> None:
    with pytest.raises(NotationError):
        Action.from_json(data)


def test_constructing_an_action_with_an_unknown_kind_raises_a_notation_error() -> None:
    with pytest.raises(NotationError):
        Action("5H", "jump", "e1", "e6")  # type: ignore[arg-type]


# --- properties ---------------------------------------------------------------

squares = st.sampled_from(SQUARE_NAMES)
moves = st.builds(
    lambda card, frm, to, capture: Action(card, "move", frm, to, capture),
    st.sampled_from(CARD_NAMES), squares, squares, st.booleans(),
)
releases = st.builds(
    lambda card, capture: Action(card, "release", capture=capture),
    st.sampled_from(FACE_CARDS), st.booleans(),
)
burns = st.builds(lambda card: Action(card, "burn"), st.sampled_from(CARD_NAMES))
actions = st.one_of(moves, releases, burns)


@given(actions)
def test_any_action_reads_back_from_its_text(a: Action) -> None:
    assert Action.parse(str(a)) == a
    assert str(Action.parse(str(a))) == str(a)


@given(actions)
def test_any_action_reads_back_from_its_json(a: Action) -> None:
    assert Action.from_json(a.to_json()) == a


@given(releases)
def test_any_release_is_written_to_its_pawns_home_square(a: Action) -> None:
    assert a.to_square == HOME_NAMES[a.card]


NOTATION_ALPHABET = "0123456789AJQKHDSCXahbcdefgxnur@-  \t\n\u00a0ßı"


@settings(max_examples=500)
@given(st.one_of(st.text(), st.text(alphabet=NOTATION_ALPHABET, max_size=12), actions.map(str)))
def test_any_text_either_parses_or_raises_a_notation_error(text: str) -> None:
    try:
        a = Action.parse(text)
    except NotationError:
        return
    assert isinstance(a, Action)
    assert Action.parse(str(a)) == a


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
    | st.sampled_from(CARD_NAMES + SQUARE_NAMES),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["card", "from", "to", "release", "burn", "capture", "x"]), children, max_size=4),
    max_leaves=8,
)


@settings(max_examples=500)
@given(st.one_of(json_values, actions.map(lambda a: a.to_json())))
def test_any_json_either_reads_as_an_action_or_raises_a_notation_error(data: Any) -> None:
    try:
        a = Action.from_json(data)
    except NotationError:
        return
    assert isinstance(a, Action)


@pytest.mark.parametrize(
    "args",
    [("9C", "burn", None, None, True), ("9C", "burn", None, "e8"), ("KH", "release", "e1")],
    ids=["burn-that-captures", "burn-with-a-square", "release-with-a-from-square"],
)
def test_it_refuses_to_build_an_action_no_text_can_spell(args: tuple[Any, ...]) -> None:
    with pytest.raises(NotationError):
        Action(*args)


def test_apply_takes_an_action_in_any_of_its_forms_and_refuses_other_things() -> None:
    import engine
    s = engine.new_game(42)
    action = engine.legal_actions(s)[0]
    after = engine.apply(s, action)
    assert engine.apply(s, str(action)) == after
    assert engine.apply(s, action.to_json()) == after
    for thing in (None, 42, ["QH g1-g2"], {"burn": True}):
        with pytest.raises(NotationError):
            engine.apply(s, thing)  # type: ignore[arg-type]
