"""``python -m engine``: the command line that tools and external checks rely on."""
from __future__ import annotations

import dataclasses
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.record import Record, replay
from engine.text import board_text

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin,
        capture_output=True, text=True, timeout=60,
    )


def answers(command: str, *lines: Any) -> list[dict[str, Any]]:
    """The JSON lines that ``command`` writes for ``lines`` (objects are sent as JSON)."""
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    done = run(command, stdin=text)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(out) for out in done.stdout.splitlines()]


def position_after(seed: int, turns: int) -> engine.State:
    rng = random.Random(seed)
    s = engine.new_game(seed)
    for _ in range(turns):
        s = engine.apply(s, rng.choice(engine.legal_actions(s)))
    return s


def ended(captured_red: list[str], captured_black: list[str], **changes: Any) -> dict[str, Any]:
    """A hand-made position with both hands and decks empty: over by points (R16)."""
    data: dict[str, Any] = {
        "board": {"d1": "AD", "d8": "AC"},
        "captured": {"red": captured_red, "black": captured_black},
        "hands": {"red": [], "black": []},
        "decks": {"red": [], "black": []},
        "to_move": "red",
    }
    data.update(changes)
    return data


# --- moves -----------------------------------------------------------------------

def test_moves_lists_the_legal_actions_of_each_position_sorted_as_strings() -> None:
    states = [engine.new_game(1), position_after(2, 7), position_after(3, 20)]
    out = answers("moves", *(engine.to_json(s) for s in states))
    assert len(out) == 3
    for s, answer in zip(states, out):
        assert answer == {"over": False, "legal": [str(a) for a in engine.legal_actions(s)]}
        assert answer["legal"] == sorted(answer["legal"])
        assert answer["legal"]


def test_moves_sorts_ten_cards_as_strings_sort() -> None:
    position = {
        "board": {"a1": "JD", "b1": "QD", "e1": "AH"}, "captured": {"red": [], "black": []},
        "hands": {"red": ["10D", "2D", "9H"], "black": []}, "decks": {"red": [], "black": []},
        "to_move": "red",
    }
    (answer,) = answers("moves", position)
    legal = answer["legal"]
    assert legal == sorted(legal)
    assert legal.index("10D a1-c4") < legal.index("2D a1-a3")  # "1" < "2"
    assert legal[-1].startswith("9H ")


@pytest.mark.parametrize(
    ("captured_red", "captured_black", "expected"),
    [
        (["AS"], ["KH"], {"winner": "red", "score": {"red": 40, "black": 20}}),
        (["JS"], ["QH", "JD"], {"winner": "black", "score": {"red": 5, "black": 15}}),
        (["KS", "QC"], ["KH", "QD"], {"winner": None, "score": {"red": 30, "black": 30}}),
        ([], [], {"winner": None, "score": {"red": 0, "black": 0}}),
    ],
)
def test_moves_reports_a_game_over_on_points_with_the_score(
        captured_red: list[str], captured_black: list[str], expected: dict[str, Any]) -> None:
    (answer,) = answers("moves", ended(captured_red, captured_black))
    assert answer == {"over": True, "reason": "points", **expected}


def test_moves_reports_a_game_over_by_aces_without_a_score() -> None:
    position = {
        "board": {"e8": "AS", "f1": "KH"},
        "captured": {"red": [], "black": ["AH", "AD"]},
        "hands": {"red": ["KH", "5D"], "black": ["2S"]},
        "decks": {"red": ["AD"], "black": []},
        "to_move": "red",
    }
    (answer,) = answers("moves", position)
    assert answer == {"over": True, "winner": "black", "reason": "aces"}


def test_moves_lists_only_ace_releases_when_both_aces_are_captured() -> None:
    position = {
        "board": {"e8": "AS", "f1": "KH"},
        "captured": {"red": [], "black": ["AH", "AD"]},
        "hands": {"red": ["KH", "AD", "5D"], "black": ["2S"]},
        "decks": {"red": [], "black": []},
        "to_move": "red",
    }
    assert answers("moves", position) == [{"over": False, "legal": ["AD @d1"]}]


@pytest.mark.parametrize(
    "line",
    [
        "not json", "{", "[]", '"a string"', "42", "null", "{}", '{"board": {"e1": ["AH"]}}',
        '{"board": {}, "captured": {}, "hands": {"red": [[]], "black": []}, "decks": {}, "to_move": "red"}',
        "NaN", "1e999",
    ],
)
def test_moves_answers_a_malformed_line_with_an_error_and_goes_on(line: str) -> None:
    out = answers("moves", line, engine.to_json(engine.new_game(1)))
    assert len(out) == 2
    assert list(out[0]) == ["error"] and out[0]["error"]
    assert out[1]["over"] is False


@pytest.mark.parametrize(
    "line", ["[" * 100_000, "1" * 5000, '{"board": ' * 50_000],
    ids=["deeply-nested-list", "5000-digit-number", "deeply-nested-object"],
)
def test_moves_answers_pathological_json_with_an_error_and_goes_on(line: str) -> None:
    out = answers("moves", line, engine.to_json(engine.new_game(1)))
    assert len(out) == 2
    assert list(out[0]) == ["error"]
    assert out[1]["over"] is False


def test_moves_skips_blank_lines() -> None:
    out = answers("moves", "", engine.to_json(engine.new_game(1)), "   ")
    assert len(out) == 1


# --- play ------------------------------------------------------------------------

def test_play_writes_the_position_after_the_action_with_the_card_drawn_and_the_turn_passed() -> None:
    s = engine.new_game(5)
    action = engine.legal_actions(s)[3]
    (answer,) = answers("play", {"position": engine.to_json(s), "action": str(action)})
    assert answer == json.loads(json.dumps(engine.to_json(engine.apply(s, action))))
    assert answer["to_move"] == "black" and answer["ply"] == 1
    assert len(answer["hands"]["red"]) == 3 and s.deck("red")[0] in answer["hands"]["red"]
    assert answer["decks"]["red"] == s.deck("red")[1:]
    assert answer["discards"]["red"] == [str(action)]
    assert engine.from_json(answer) == engine.apply(s, action)


def test_play_accepts_the_action_in_its_json_form() -> None:
    s = position_after(8, 9)
    action = engine.legal_actions(s)[-1]
    (answer,) = answers("play", {"position": engine.to_json(s), "action": action.to_json()})
    assert engine.from_json(answer) == engine.apply(s, action)


def test_play_answers_an_illegal_action_with_an_error_naming_the_rule_and_goes_on() -> None:
    s = engine.new_game(5)
    black_card = s.hand("black")[0]
    good = engine.legal_actions(s)[0]
    out = answers(
        "play",
        {"position": engine.to_json(s), "action": f"{black_card} burn"},
        {"position": engine.to_json(s), "action": "7H e1-e8"},
        {"position": engine.to_json(s), "action": str(good)},
    )
    assert len(out) == 3
    assert list(out[0]) == ["error"] and out[0]["error"].endswith("(R7)")
    assert list(out[1]) == ["error"] and re.search(r"\(R\d+\)$", out[1]["error"])
    assert engine.from_json(out[2]) == engine.apply(s, good)


@pytest.mark.parametrize(
    "line",
    [
        "not json", "[]", "{}", '{"position": {}}', '{"action": "9C burn"}',
        '{"position": [], "action": "9C burn"}', '{"position": {"board": []}, "action": "9C burn"}',
        json.dumps({"position": engine.to_json(engine.new_game(5)), "action": "5H e1e6"}),
        json.dumps({"position": engine.to_json(engine.new_game(5)), "action": 5}),
        json.dumps({"position": engine.to_json(engine.new_game(5)), "action": {"card": []}}),
        pytest.param("[" * 100_000, id="deeply-nested-list"),
    ],
    ids=lambda line: line[:40],
)
def test_play_answers_a_malformed_line_with_an_error_and_goes_on(line: str) -> None:
    s = engine.new_game(5)
    good = engine.legal_actions(s)[0]
    out = answers("play", line, {"position": engine.to_json(s), "action": str(good)})
    assert len(out) == 2
    assert list(out[0]) == ["error"] and out[0]["error"]
    assert engine.from_json(out[1]) == engine.apply(s, good)


def test_play_refuses_an_action_in_a_finished_game() -> None:
    (answer,) = answers("play", {"position": ended(["AS"], []), "action": "5H e1-e6"})
    assert list(answer) == ["error"]


# --- show and bench ------------------------------------------------------------

def finished_record(seed: str) -> Record:
    rng = random.Random(seed)
    record = Record.start(seed, "alice", "bob")
    s = engine.new_game(seed)
    while legal := engine.legal_actions(s):
        record = record.then(rng.choice(legal))
        s = engine.apply(s, record.actions[-1])
    over = engine.outcome(s)
    assert over is not None
    return dataclasses.replace(record, winner=over.winner, reason=over.reason)


@pytest.mark.parametrize("form", ["text", "json"])
def test_show_prints_the_final_board_of_a_record_file(tmp_path: Path, form: str) -> None:
    record = finished_record("show me")
    path = tmp_path / "game.txt"
    path.write_text(record.to_text() if form == "text" else json.dumps(record.to_json()), encoding="utf-8")
    done = run("show", str(path))
    assert done.returncode == 0, done.stderr
    final = replay(record)[-1]
    assert done.stdout == board_text(final) + "\n"
    lines = done.stdout.splitlines()
    assert lines[1].split() == list("abcdefgh")
    for rank in "87654321":
        row = next(line for line in lines if line.startswith(f" {rank}  "))
        cells = row.split()[1:-1]
        expected = [final.board.get(f + rank, ".") for f in "abcdefgh"]
        assert cells == expected
    assert re.search(r"(Red wins|Black wins|Draw) by (points|aces)", lines[-1])


def test_show_reports_a_record_that_does_not_replay_without_a_traceback(tmp_path: Path) -> None:
    record = dataclasses.replace(finished_record("tampered"), seed="another seed")
    path = tmp_path / "game.txt"
    path.write_text(record.to_text(), encoding="utf-8")
    done = run("show", str(path))
    assert done.returncode == 1
    assert "commitment" in done.stderr and "Traceback" not in done.stderr


def test_show_reports_a_missing_file_without_a_traceback(tmp_path: Path) -> None:
    done = run("show", str(tmp_path / "nothing.txt"))
    assert done.returncode == 1
    assert "nothing.txt" in done.stderr and "Traceback" not in done.stderr


def test_show_reports_a_file_that_is_not_utf8_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_bytes(b'\xff\xfe[Red "alice"]\n')
    done = run("show", str(path))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and done.stderr.startswith("python -m engine show: ")


def test_bench_reports_games_per_second() -> None:
    done = run("bench", "--seconds", "1")
    assert done.returncode == 0, done.stderr
    rate = re.search(r"(\d+) games/s", done.stdout)
    assert rate is not None, done.stdout
    assert int(rate.group(1)) > 0
