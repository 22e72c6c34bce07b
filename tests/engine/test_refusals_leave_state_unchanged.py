"""Every refused action raises IllegalAction naming its rule, and changes nothing."""
from __future__ import annotations

from typing import Any

import pytest

import engine

BOARD = {
    "d4": "AH", "d5": "KH", "d7": "AS", "g1": "QH", "a1": "JD", "b1": "QD",
    "e8": "KS", "g8": "QS", "c3": "JC", "h1": "JH",
}


def position(hand: list[str], to_move: str = "red", black: list[str] | None = None,
             board: dict[str, str] | None = None,
             captured: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {
        "board": board if board is not None else BOARD,
        "captured": captured or {"red": ["AC"], "black": ["KD"]},
        "hands": {"red": hand, "black": black or ["QS", "7C", "2S"]},
        "decks": {"red": ["9H", "6D"], "black": ["5S"]},
        "to_move": to_move,
        "ply": 4,
        "discards": {"red": ["4H burn", "2D burn"], "black": ["3S burn", "8S burn"]},
    }


CASES: list[tuple[str, dict[str, Any], str, str, str]] = [
    # (name, position, action, rule, part of the message)
    ("wrong side", position(["3H", "KH", "8D"]), "7C c3-c4", "R7", "7C, a Black card, is not in Red's hand"),
    ("wrong side for black", position(["3H"], "black"), "3H d4-g4", "R7", "3H, a Red card, is not in Black's hand"),
    ("not in hand", position(["3H", "KH", "8D"]), "5H d4-d6", "R7", "5H is not in Red's hand"),
    ("drawn card not yet drawn", position(["3H", "KH", "8D"]), "9H d4-e7", "R7", "not in Red's hand"),
    ("slide too short", position(["3H", "KH", "8D"]), "3H d4-e4", "R10", "exactly 3 squares"),
    ("slide not straight", position(["3H", "KH", "8D"]), "3H d4-e7", "R10", "straight line"),
    ("slide through own pawn", position(["3H", "KH", "8D"]), "3H d4-d7", "R10", "blocked at d5"),
    ("slide through enemy pawn", position(["7H"], board={"d1": "AH", "d4": "JS"}),
     "7H d1-d8", "R10", "blocked at d4"),
    ("slide onto own pawn", position(["3H", "KH", "8D"]), "3H d4-g1", "R10", "g1 holds your own pawn QH"),
    ("slide from empty square", position(["3H", "KH", "8D"]), "3H e4-e7", "R10", "no pawn on e4"),
    ("wrong suit", position(["3H", "KH", "8D"]), "3H a1-a4", "R9", "3H moves only heart pawns"),
    ("opponent pawn", position(["3H", "KH", "8D"]), "3H d7-d4", "R9", "an opponent pawn"),
    ("leaper wrong shape", position(["3H", "KH", "8D"]), "8D b1-d3", "R11", "8 jumps 1 square"),
    ("leaper onto own pawn", position(["8H"], board={"d4": "AH", "e6": "KH"}),
     "8H d4-e6", "R11", "e6 holds your own pawn KH"),
    ("face card steps two", position(["3H", "KH", "8D"]), "KH d5-d7", "R12", "exactly one square"),
    ("face card moves another pawn", position(["3H", "KH", "8D"]), "KH d4-e4", "R12",
     "KH moves only the King of Hearts pawn"),
    ("face card steps onto own pawn", position(["3H", "KH", "8D"]), "KH d5-d4", "R12",
     "d4 holds your own pawn AH"),
    ("release of a pawn on the board", position(["3H", "KH", "8D"]), "KH @f1", "R12", "not captured"),
    ("release onto own pawn", position(["KD"], board={"c1": "AH"}), "KD @c1", "R12",
     "the home square c1 holds your own pawn AH"),
    ("step of a captured pawn", position(["KD"]), "KD c1-c2", "R12", "can only release it"),
    ("burn of a card with a move", position(["3H", "KH", "8D"]), "KH burn", "R13",
     "KH has a move, only a card without moves can be burned"),
    ("burn for black", position(["3H"], "black"), "QS burn", "R13", "QS has a move"),
    ("move while both aces are captured",
     position(["AH", "KH"], captured={"black": ["AH", "AD"]}, board={"d5": "KH"}),
     "KH d5-d6", "R15", "only legal action is releasing an Ace"),
    ("game over by aces",
     position(["AH", "KH"], captured={"black": ["AH", "AD"]}, board={"e1": "KH"}),
     "KH e1-e2", "R15", "the game is over"),
    ("game over on points", position([], board={"d4": "AH"}), "3H d4-d7", "R16", "the game is over"),
]
IDS = [case[0] for case in CASES]


@pytest.mark.parametrize("name, data, action, rule, words", CASES, ids=IDS)
def test_a_refusal_leaves_the_position_unchanged(
        name: str, data: dict[str, Any], action: str, rule: str, words: str) -> None:
    s = engine.from_json(data)
    before, legal_before = engine.to_json(s), engine.legal_actions(s)
    with pytest.raises(engine.IllegalAction):
        engine.apply(s, action)
    assert engine.to_json(s) == before
    assert engine.legal_actions(s) == legal_before
    assert s == engine.from_json(data)


@pytest.mark.parametrize("name, data, action, rule, words", CASES, ids=IDS)
def test_a_refusal_is_a_value_error_naming_its_rule(
        name: str, data: dict[str, Any], action: str, rule: str, words: str) -> None:
    s = engine.from_json(data)
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(s, action)
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.rule == rule
    assert str(error).endswith(f" ({rule})")
    assert words in str(error)


@pytest.mark.parametrize("name, data, action, rule, words", CASES, ids=IDS)
def test_a_refused_action_is_not_among_the_legal_ones(
        name: str, data: dict[str, Any], action: str, rule: str, words: str) -> None:
    s = engine.from_json(data)
    texts = {str(a) for a in engine.legal_actions(s)}
    parsed = engine.Action.parse(action)
    assert str(parsed) not in texts
    if parsed.kind != "burn":  # the same action with the other capture mark
        assert str(engine.Action(parsed.card, parsed.kind, parsed.from_square, parsed.to_square,
                                 not parsed.capture)) not in texts


PLAYABLE = [case for case in CASES if engine.outcome(engine.from_json(case[1])) is None]


@pytest.mark.parametrize("name, data, action, rule, words", PLAYABLE,
                         ids=[case[0] for case in PLAYABLE])
def test_the_same_state_still_plays_after_a_refusal(
        name: str, data: dict[str, Any], action: str, rule: str, words: str) -> None:
    s = engine.from_json(data)
    with pytest.raises(engine.IllegalAction):
        engine.apply(s, action)
    legal = engine.legal_actions(s)[0]
    after = engine.apply(s, legal)
    assert after.ply == s.ply + 1 and after.turn != s.turn
    assert engine.to_json(after)["discards"][s.turn][-1] == str(legal)
