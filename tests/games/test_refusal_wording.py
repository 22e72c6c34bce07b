"""The engine's refusals as the site words them (games/refusals.py): one catalog
entry per code, with the engine's own placeholders, and the English the engine
has always written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

import engine
from engine.ace.actions import Action
from engine.errors import MESSAGES, WORDS, EngineError, RecordError
from engine.record import Record, replay
from engine.shuffle import commitment
from games.refusals import WORDINGS, describe
from tests.refusal_catalog import refusal_catalog  # noqa: F401  (a fixture)

ENGINE = Path(engine.__file__).parent
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")
# Every way the engine raises a coded error: .coded("code", ...), .of("code", ...), _refuse(action, "code", ...),
# and a code chosen in place ("a" if ... else "b").
RAISED = re.compile(r'(?:\.coded\(|\.of\(|_refuse\(action,\s*)\s*"([a-z0-9-]+)"'
                    r'|"([a-z]+-[a-z-]+)"\s+if\s|\selse\s+"([a-z]+-[a-z-]+)"')


def raised_codes() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        for match in RAISED.finditer(path.read_text()):
            found.add(match[1] or match[2] or match[3])
    return found


def test_every_code_the_engine_raises_has_an_english_template_and_a_site_wording() -> None:
    raised = raised_codes()
    assert len(raised) > 100
    assert raised == set(MESSAGES)  # no code without its template, no template left over
    assert set(WORDINGS) == set(MESSAGES)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_the_site_wording_has_the_engines_placeholders_and_english(code: str) -> None:
    with translation.override("en"):
        assert str(WORDINGS[code]) == MESSAGES[code]
    assert set(PLACEHOLDER.findall(str(WORDINGS[code]))) == set(PLACEHOLDER.findall(MESSAGES[code]))


def refusals_of(state: Any, rules: Any, actions: list[str]) -> list[EngineError]:
    errors = []
    for text in actions:
        try:
            rules.play(state, text)
        except EngineError as error:
            errors.append(error)
    return errors


def test_in_english_the_site_says_exactly_what_the_engine_says() -> None:
    ace, rhombus = engine.GAMES["ace-in-the-hole"], engine.GAMES["rhombus"]
    squares = ["e1", "e2", "e5", "h1", "a8", "d4"]
    tries = [f"{card} {a}-{b}" for card in ("5H", "8S", "JH", "AH", "9C", "KD") for a in squares for b in squares]
    tries += ["5H burn", "KH @f1", "XX e1-e2", "5H", "JH @e1"]
    errors = refusals_of(ace.start("tests-game-seed"), ace, tries)
    errors += refusals_of(rhombus.start("tests-game-seed"), rhombus,
                          ["KC b1-b3", "QH b1-b4", "6C 7C", "elim 10C JC QC c2xc3", "react AD AH AS", "QH+6H c2xc5",
                           "discard 6H", "9D @a1", "8S mystery", "10C 0", "7H b1-b2"])
    assert len({error.code for error in errors}) >= 10
    with translation.override("en"):
        for error in errors:
            assert error.code in MESSAGES, str(error)
            assert describe(error) == str(error)
            assert set(error.params) == set(PLACEHOLDER.findall(MESSAGES[error.code]))


def test_a_word_parameter_holds_a_code_and_is_worded_in_the_language(refusal_catalog: None) -> None:
    error = engine.GAMES["ace-in-the-hole"].play
    state = engine.GAMES["ace-in-the-hole"].start("tests-game-seed")
    with pytest.raises(EngineError) as refused:
        error(state, "JH e1-e2")
    assert refused.value.params["pawn_word"] == "JH" and "pawn_word" in WORDS
    assert str(refused.value) == "JH e1-e2: JH moves only the Jack of Hearts pawn, which is on h1 (R12)"
    with translation.override("de"):
        assert describe(refused.value) == "JH e1-e2: JH zieht nur den Bauern Herz-Bube, und der steht auf h1 (R12)"
    with translation.override("ru"):
        assert describe(refused.value) == "JH e1-e2: JH ходит только пешкой «валет червей», а она стоит на h1 (R12)"


def test_an_error_without_a_known_code_is_said_as_raised() -> None:
    assert describe(EngineError("a record is at most 64 kB")) == "a record is at most 64 kB"
    assert describe(ValueError("plain")) == "plain"


def test_a_record_that_does_not_replay_words_the_refused_action_inside_it_too(refusal_catalog: None) -> None:
    seed = "tests-game-seed"
    record = Record(commitment=commitment(seed), seed=seed, actions=(Action.parse("8S e8-f6"),))
    with pytest.raises(RecordError) as refused:
        replay(record)
    assert str(refused.value) == "action 1 (Red's 1st turn): 8S e8-f6: 8S, a Black card, is not in Red's hand (R7)"
    with translation.override("en"):
        assert describe(refused.value) == str(refused.value)
    with translation.override("de"):
        assert describe(refused.value) == ("Zug 1 (1. Zug von Rot): "
                                           "8S e8-f6: 8S, eine Karte von Schwarz, ist nicht in der Hand von Rot (R7)")
    with translation.override("ru"):
        assert describe(refused.value).startswith("ход 1 (1-й ход стороны «Красные»): 8S e8-f6: 8S — карта стороны")
