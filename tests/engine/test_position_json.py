"""The position format of the rules page ("Position format"): to_json and from_json."""
from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import PositionError, State, from_json, to_json
from engine.ace.cards import CAPTURED, HOME_NAMES, OUT_OF_PLAY, PAWN_INDEX

# The example position on the rules page, as written there.
RULES_EXAMPLE: dict[str, Any] = {
    "board": {"e1": "AH", "d8": "AC"},
    "captured": {"red": ["KS"], "black": ["QH"]},
    "hands": {"red": ["5H", "KD", "9H"], "black": ["2S", "QC", "10S"]},
    "decks": {"red": ["7D", "AD"], "black": ["JS"]},
    "to_move": "red",
}


def random_state(seed: int, turns: int) -> State:
    """The position after up to ``turns`` random turns of a game shuffled from ``seed``."""
    rng = random.Random(seed)
    s = engine.new_game(seed)
    for _ in range(turns):
        legal = engine.legal_actions(s)
        if not legal:
            break
        s = engine.apply(s, rng.choice(legal))
    return s


def example(**changes: Any) -> dict[str, Any]:
    """The rules page's example with some top-level keys replaced."""
    data = copy.deepcopy(RULES_EXAMPLE)
    data.update(changes)
    return data


# --- round trips ------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.integers(), st.integers(min_value=0, max_value=60))
def test_any_reachable_position_reads_back_from_its_json(seed: int, turns: int) -> None:
    s = random_state(seed, turns)
    data = to_json(s)
    assert from_json(data) == s
    assert to_json(from_json(json.loads(json.dumps(data)))) == data


def test_the_starting_position_is_written_in_the_rules_format() -> None:
    s = engine.new_game("position")
    data = to_json(s)
    assert set(data) == {"board", "captured", "hands", "decks", "to_move", "ply", "discards"}
    assert data["board"] == {square: pawn for pawn, square in HOME_NAMES.items()}
    assert data["captured"] == {"red": [], "black": []}
    assert [len(data["hands"][seat]) for seat in ("red", "black")] == [3, 3]
    assert [len(data["decks"][seat]) for seat in ("red", "black")] == [23, 23]
    assert (data["to_move"], data["ply"], data["discards"]) == ("red", 0, {"red": [], "black": []})


def test_discards_are_written_as_the_actions_played_in_order() -> None:
    s = engine.new_game(7)
    played = []
    for _ in range(4):
        a = engine.legal_actions(s)[0]
        played.append(str(a))
        s = engine.apply(s, a)
    assert to_json(s)["discards"] == {"red": played[0::2], "black": played[1::2]}
    assert to_json(s)["ply"] == 4


# --- what a reader must accept ----------------------------------------------

def test_the_rules_page_example_without_ply_or_discards_is_read() -> None:
    s = from_json(RULES_EXAMPLE)
    assert s.ply == 0
    assert s.discards == ((), ())
    assert s.board == {"e1": "AH", "d8": "AC"}
    assert s.captured("red") == ["KS"] and s.captured("black") == ["QH"]
    assert s.hand("red") == ["5H", "KD", "9H"] and s.hand("black") == ["2S", "QC", "10S"]
    assert s.deck("red") == ["7D", "AD"] and s.deck("black") == ["JS"]
    assert s.turn == "red"


def test_keys_may_come_in_any_order() -> None:
    reordered = dict(reversed(list(RULES_EXAMPLE.items())))
    assert from_json(reordered) == from_json(RULES_EXAMPLE)


def test_a_pawn_that_appears_nowhere_is_out_of_play() -> None:
    s = from_json(RULES_EXAMPLE)
    assert s.where[PAWN_INDEX["KH"]] == OUT_OF_PLAY
    assert s.where[PAWN_INDEX["KS"]] == CAPTURED
    assert sum(1 for w in s.where if w != OUT_OF_PLAY) == 4


def test_a_position_with_fewer_than_16_pawns_can_be_played_from() -> None:
    s = from_json(RULES_EXAMPLE)
    legal = [str(a) for a in engine.legal_actions(s)]
    assert "KD burn" in legal  # its pawn is out of play: no move (R13)
    assert "5H e1-e6" in legal


def test_missing_ply_is_counted_from_the_discards() -> None:
    s = from_json(example(discards={"red": ["8H c3-d5"], "black": ["9S burn"]}))
    assert s.ply == 2
    assert [str(a) for a in s.discards[0]] == ["8H c3-d5"]


def test_a_missing_captured_key_means_empty_captured_areas() -> None:
    data = example()
    del data["captured"]
    s = from_json(data)
    assert s.captured("red") == [] and s.captured("black") == []


# --- what a reader must refuse, and say why -----------------------------------

@pytest.mark.parametrize(
    ("data", "message"),
    [
        (example(board={"i9": "AH"}), r"'i9' is not a square"),
        (example(board={"E1": "AH"}), r"'E1' is not a square"),
        (example(board={"e1": "ZZ"}), r"'ZZ' is not a pawn"),
        (example(board={"e1": "5H"}), r"'5H' is not a pawn"),
        (example(captured={"red": ["XS"], "black": []}), r"'XS' is not a pawn"),
        (example(board={"e1": ["AH"]}), r"is not a pawn"),
        (example(captured={"red": [{"pawn": "KS"}], "black": []}), r"is not a pawn"),
        (example(hands={"red": [["5H"]], "black": []}), r"is not a card"),
        (example(board={"e1": "AH", "e2": "AH"}), r"AH appears twice"),
        (example(board={"e1": "AH"}, captured={"red": [], "black": ["AH"]}), r"AH appears twice"),
        (example(captured={"red": ["KS", "KS"], "black": []}), r"KS appears twice"),
        (example(board={"d8": "AC"}, captured={"red": ["AH"], "black": []}), r"R4"),
        (example(captured={"red": [], "black": ["AS"]}), r"R4"),
        (example(hands={"red": ["5S", "KD", "9H"], "black": ["2S"]}), r"5S.*R5"),
        (example(decks={"red": ["7D"], "black": ["AD"]}), r"AD.*R5"),
        (example(hands={"red": ["5H", "KD", "9H"], "black": ["2S", "QC", "10S"]},
                 decks={"red": ["5H"], "black": []}), r"card 5H is also in hands.red"),
        (example(hands={"red": ["5H", "5H"], "black": []}), r"card 5H"),
        (example(discards={"red": ["5H e1-e6"], "black": []}), r"card 5H"),
        (example(discards={"red": ["9S burn"], "black": []}), r"R5"),
        (example(hands={"red": ["11H"], "black": []}), r"'11H' is not a card"),
        (example(to_move="white"), r"to_move"),
        (example(to_move=None), r"to_move"),
        (example(to_move="Red"), r"to_move"),
        (example(to_move=0), r"to_move"),
        (example(ply=-1), r"ply"),
        (example(ply="3"), r"ply"),
        (example(ply=True), r"ply"),
        (example(board=[]), r"board"),
        (example(hands=["5H"]), r"hands"),
        (example(hands={"red": ["5H"]}), r"hands.black"),
        (example(decks=None), r"decks"),
        (example(captured={"red": "KS", "black": []}), r"captured.red"),
        (example(discards={"red": "5H e1-e6", "black": []}), r"discards.red"),
        (example(discards={"red": ["5H e1e6"], "black": []}), r"discards.red"),
    ],
)
def test_a_wrong_position_raises_a_position_error_saying_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        from_json(data)


def test_missing_to_move_raises_a_position_error() -> None:
    data = example()
    del data["to_move"]
    with pytest.raises(PositionError, match="to_move"):
        from_json(data)


@pytest.mark.parametrize("data", [None, [], "a position", 3, json.dumps(RULES_EXAMPLE), [RULES_EXAMPLE]])
def test_something_that_is_not_an_object_raises_a_position_error(data: Any) -> None:
    with pytest.raises(PositionError, match="a position is a JSON object"):
        from_json(data)


def test_position_error_is_a_value_error() -> None:
    assert issubclass(PositionError, ValueError)


# --- arbitrary input ------------------------------------------------------------

json_leaves = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4)
    | st.sampled_from(["AH", "KS", "5H", "10C", "e1", "d8", "red", "black"])
)
json_values = st.recursive(
    json_leaves,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=10,
)


def replace_somewhere(data: Any, path: list[int], value: Any) -> Any:
    """``data`` with the part that ``path`` leads to replaced by ``value``."""
    if not path or not isinstance(data, (dict, list)) or not data:
        return value
    keys = list(data) if isinstance(data, dict) else list(range(len(data)))
    key = keys[path[0] % len(keys)]
    out = copy.copy(data)
    out[key] = replace_somewhere(data[key], path[1:], value)
    return out


@settings(max_examples=500)
@given(json_values)
def test_any_json_either_reads_as_a_position_or_raises_a_position_error(data: Any) -> None:
    try:
        s = from_json(data)
    except PositionError:
        return
    assert isinstance(s, State)


@settings(max_examples=1000)
@given(st.lists(st.integers(min_value=0, max_value=10), min_size=1, max_size=4), json_values)
def test_a_valid_position_with_any_part_replaced_reads_or_raises_a_position_error(
        path: list[int], value: Any) -> None:
    data = replace_somewhere(json.loads(json.dumps(to_json(random_state(3, 20)))), path, value)
    try:
        s = from_json(data)
    except PositionError:
        return
    assert isinstance(s, State)
