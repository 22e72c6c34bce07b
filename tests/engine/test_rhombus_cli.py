"""``python -m engine ... --game rhombus``: moves, play, show and bench for Rhombus.

Positions are the rules page's worked examples, in the page's position format.
"""
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

from engine import rhombus
from engine.record import RhombusRecord, replay_rhombus
from engine.rhombus.cards import CARD_NAMES
from engine.rhombus.text import board_text as rhombus_board_text

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin,
        capture_output=True, text=True, timeout=120,
    )


def answers(command: str, *lines: Any, options: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The JSON lines that ``command --game rhombus`` writes for ``lines`` (objects sent as JSON)."""
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    done = run(command, "--game", "rhombus", *options, stdin=text)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(out) for out in done.stdout.splitlines()]


def position(board: dict[str, str], sw: tuple[list[str], list[str]],
             ne: tuple[list[str], list[str]] = (["6S", "AD"], ["JC"]), **seats: int) -> dict[str, Any]:
    """A 2-player position: (table, hand) per seat, the other cards on the pile in card order."""
    held = sw[0] + sw[1] + ne[0] + ne[1]
    return {
        "variant": "classic", "board": board,
        "seats": {
            "SW": {"table": sw[0], "hand": sw[1], "reserve": seats.get("sw_reserve", 3), "eliminated": 0},
            "NE": {"table": ne[0], "hand": ne[1], "reserve": seats.get("ne_reserve", 3), "eliminated": 0},
        },
        "pile": [c for c in CARD_NAMES if c not in held], "discard": [], "reshuffles": 0,
        "dealer": "NE", "to_move": "SW", "quiet": 0,
    }


START = {"a1": "SW", "b1": "SW", "a2": "SW", "e5": "NE", "d5": "NE", "e4": "NE"}
EXAMPLE_1 = position(START, (["KC", "QC"], ["9D"]))  # the page's worked example 1
EXAMPLE_2 = position({"a1": "SW", "b1": "SW", "c2": "SW", "c5": "NE", "e5": "NE", "e3": "NE"},
                     (["QH", "7H"], ["KD"]))  # worked example 2: a kill
EXAMPLE_3 = position({"b1": "SW", "a2": "SW", "c4": "NE", "e5": "NE"},
                     (["6H", "10H"], ["QH"]))  # worked example 3: 6/10 kill only in a flush
NE_GONE = position({"a1": "SW", "b1": "SW"}, (["KC", "QC"], ["9D"]), ne_reserve=3)  # RH25


# --- moves -----------------------------------------------------------------------

def test_moves_lists_the_canonical_actions_of_worked_example_1_in_string_order() -> None:
    (answer,) = answers("moves", EXAMPLE_1)
    legal = answer["legal"]
    assert answer["over"] is False
    assert len(legal) == 101 and legal == sorted(legal)  # golden count; N14
    assert "KC a2-b3, QC b1-d2" in legal  # N1: the page's example, listed by its smallest text
    assert "KC b1-b3, QC a2-d2" not in legal
    assert "KC b1-b3, QC b3-c5" in legal and "9D 0" in legal
    assert legal == [str(a) for a in rhombus.legal_actions(rhombus.from_json(EXAMPLE_1))]


def test_moves_lists_both_kills_of_worked_example_2() -> None:
    (answer,) = answers("moves", EXAMPLE_2)
    assert len(answer["legal"]) == 29
    assert [a for a in answer["legal"] if "x" in a] == ["QH+7H c2xc5", "QH+7H c2xe3"]


def test_moves_lists_6_10_kills_of_worked_example_3_only_inside_a_flush() -> None:
    (answer,) = answers("moves", EXAMPLE_3)
    assert len(answer["legal"]) == 167
    assert "6H+10H b1xc4, QH a2-a5" in answer["legal"]
    assert not [a for a in answer["legal"] if a.startswith("6H+10H") and ", " not in a]  # RH20


def test_moves_reports_a_finished_game_with_winner_and_rule() -> None:
    assert answers("moves", NE_GONE) == [{"over": True, "winner": "SW", "reason": "RH25"}]
    quiet = dict(EXAMPLE_1, quiet=100)
    assert answers("moves", quiet) == [{"over": True, "winner": None, "reason": "RH27"}]


@pytest.mark.parametrize(("line", "message"), [
    ("not json", "not valid JSON"),
    ("[]", "a position is a JSON object"),
    ("{}", "seats must be an object"),
    (json.dumps(dict(EXAMPLE_1, pile=EXAMPLE_1["pile"][1:])), "missing: 6C"),
    (json.dumps(dict(EXAMPLE_1, to_move="red")), "to_move"),
    ("[" * 100_000, "not valid JSON"),
])
def test_moves_answers_a_bad_line_with_an_error_line_and_goes_on(line: str, message: str) -> None:
    out = answers("moves", line, EXAMPLE_2)
    assert len(out) == 2
    assert list(out[0]) == ["error"] and message in out[0]["error"]
    assert out[1]["over"] is False and len(out[1]["legal"]) == 29


def test_moves_checks_positions_against_players_and_variant_when_given() -> None:
    out = answers("moves", EXAMPLE_2, options=("--players", "4"))
    assert out == [{"error": "the position has 2 players, not 4 (--players)"}]
    out = answers("moves", EXAMPLE_2, options=("--players", "2", "--variant", "classic"))
    assert len(out[0]["legal"]) == 29


# --- play ------------------------------------------------------------------------

def test_play_applies_worked_example_1_refilling_the_table_from_the_pile() -> None:
    (after,) = answers("play", {"position": EXAMPLE_1, "action": "KC b1-b3, QC a2-d2"})
    assert after["board"] == {"a1": "SW", "d2": "SW", "b3": "SW", "e4": "NE", "d5": "NE", "e5": "NE"}
    assert after["seats"]["SW"] == {"table": ["6C", "6D"], "hand": ["9D"], "reserve": 3, "eliminated": 0,
                                    "out": False}
    assert after["discard"] == ["KC", "QC"]  # RH24: highest card on top
    assert after["pile"] == EXAMPLE_1["pile"][2:]
    assert (after["to_move"], after["ply"], after["quiet"]) == ("NE", 1, 1)


def test_play_accepts_any_text_or_the_json_of_the_same_action() -> None:
    texts = ["KC b1-b3, QC a2-d2", "KC a2-b3, QC b1-d2", "QC a2-d2, KC b1-b3",
             {"uses": [{"card": "KC", "from": "b1", "to": "b3"}, {"card": "QC", "from": "a2", "to": "d2"}]}]
    out = answers("play", *({"position": EXAMPLE_1, "action": t} for t in texts))
    assert len(out) == 4 and all(after == out[0] for after in out)


def test_play_applies_the_kill_of_worked_example_2() -> None:
    (after,) = answers("play", {"position": EXAMPLE_2, "action": "QH+7H c2xc5"})
    assert after["board"] == {"a1": "SW", "b1": "SW", "e3": "NE", "c5": "SW", "e5": "NE"}
    assert after["seats"]["NE"]["eliminated"] == 1 and after["seats"]["NE"]["reserve"] == 3
    assert after["discard"] == ["QH", "7H"] and after["quiet"] == 0  # RH27 counts from the kill
    assert after == rhombus.to_json(rhombus.apply(rhombus.from_json(EXAMPLE_2), "QH+7H c2xc5"))


def test_play_refuses_worked_example_3s_6_10_pair_naming_rh20_and_goes_on() -> None:
    out = answers("play", {"position": EXAMPLE_3, "action": "6H+10H b1xc4"},
                  {"position": EXAMPLE_3, "action": "6H+10H b1xc4, QH a2-a5"})
    assert out[0] == {"error": "6H+10H b1xc4: 6 of hearts and 10 of hearts are not a pair: their ranks "
                               "are not consecutive; a 6 kills in a pair only with its 7 (RH20)"}
    assert out[1]["board"] == {"c4": "SW", "a5": "SW", "e5": "NE"}


@pytest.mark.parametrize(("line", "message"), [
    ("{}", 'each line is {"position": {...}, "action": "KC b1-b3"}'),
    (json.dumps({"position": EXAMPLE_1, "action": "KC b1b3"}), "KC b1b3"),
    (json.dumps({"position": EXAMPLE_1, "action": 5}), "an action in JSON is an object"),
    (json.dumps({"position": EXAMPLE_1, "action": "JC e4-d3"}), "(RH7)"),
    (json.dumps({"position": NE_GONE, "action": "9D 0"}), "the game is over (RH25)"),
])
def test_play_answers_a_bad_line_with_an_error_line_and_goes_on(line: str, message: str) -> None:
    out = answers("play", line, {"position": EXAMPLE_2, "action": "QH+7H c2xc5"})
    assert list(out[0]) == ["error"] and message in out[0]["error"]
    assert out[1]["seats"]["NE"]["eliminated"] == 1


# --- show ------------------------------------------------------------------------

def test_show_prints_worked_example_1_as_the_page_draws_it(tmp_path: Path) -> None:
    path = tmp_path / "example1.json"
    path.write_text(json.dumps(EXAMPLE_1), encoding="utf-8")
    done = run("show", "--game", "rhombus", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "     a b c d e\n"
        "  5  . . . N N  5\n"
        "  4  . . . . N  4\n"
        "  3  . . . . .  3\n"
        "  2  S . . . .  2\n"
        "  1  S S . . .  1\n"
        "     a b c d e\n"
        "SW (S): table KC QC, hand 9D; reserve 3, eliminated 0\n"
        "NE (N): table 6S AD, hand JC; reserve 3, eliminated 0\n"
        "pile 30, discard 0 (top -), reshuffles 0; quiet 0\n"
        "SW to move, ply 0 (dealer NE)\n"
    )


def finished(seed: str) -> RhombusRecord:
    rng = random.Random(seed)
    record = RhombusRecord.start(seed, {"SW": "alice", "NE": "bob"})
    s = record.new_game()
    while legal := rhombus.legal_actions(s):
        record = record.then(rng.choice(legal))
        s = rhombus.apply(s, record.actions[-1])
    over = rhombus.outcome(s)
    assert over is not None
    return dataclasses.replace(record, winner=over.winner, reason=over.reason)


@pytest.mark.parametrize("form", ["text", "json"])
def test_show_prints_the_final_position_of_a_record_with_the_players(tmp_path: Path, form: str) -> None:
    record = finished("show a rhombus")
    path = tmp_path / "game.txt"
    path.write_text(record.to_text() if form == "text" else json.dumps(record.to_json()), encoding="utf-8")
    done = run("show", "--game", "rhombus", str(path))
    assert done.returncode == 0, done.stderr
    final = replay_rhombus(record)[-1]
    assert done.stdout == rhombus_board_text(final, record.players) + "\n"
    lines = done.stdout.splitlines()
    assert lines[7].startswith("SW (S) alice: ") and lines[8].startswith("NE (N) bob: ")
    for row, rank in zip(lines[1:6], "54321"):
        marks = row.split()[1:-1]
        assert marks == [{"SW": "S", "NE": "N"}.get(final.pieces().get(f + rank, ""), ".") for f in "abcde"]
    assert re.fullmatch(r"(SW wins|NE wins|Draw) by RH2[567], ply \d+", lines[-1])


def test_show_reports_a_record_that_does_not_replay_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(dataclasses.replace(finished("forged"), seed="forged!").to_text(), encoding="utf-8")
    done = run("show", "--game", "rhombus", str(path))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("python -m engine show: the seed does not match the commitment")
    assert "Traceback" not in done.stderr


def test_show_reports_a_missing_file_without_a_traceback(tmp_path: Path) -> None:
    done = run("show", "--game", "rhombus", str(tmp_path / "nothing.json"))
    assert done.returncode == 1 and "nothing.json" in done.stderr and "Traceback" not in done.stderr


# --- bench and options ---------------------------------------------------------

def test_bench_plays_random_rhombus_games_and_reports_games_per_second() -> None:
    done = run("bench", "--game", "rhombus", "--seconds", "1")
    assert done.returncode == 0, done.stderr
    found = re.search(r"(\d+) random Rhombus \(classic, 2 players\) games in [\d.]+ s on one core: "
                      r"(\d+) games/s, (\d+) turns/s", done.stdout)
    assert found is not None, done.stdout
    assert int(found.group(1)) >= 1 and int(found.group(3)) > 0


@pytest.mark.parametrize(("args", "message"), [
    (("bench", "--game", "rhombus", "--players", "3"), "Rhombus is played by 2 or 4 players, not 3"),
    (("bench", "--game", "rhombus", "--variant", "speed"), "Rhombus has the variants classic, formation"),
    (("moves", "--variant", "formation"), "Ace in the Hole has the variants classic, not 'formation'"),
    (("play", "--players", "4"), "Ace in the Hole is played by 2 players, not 4"),
    (("moves", "--game", "chess"), "invalid choice: 'chess'"),
])
def test_options_the_game_does_not_have_are_refused_before_reading_anything(
        args: tuple[str, ...], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert message in done.stderr and "Traceback" not in done.stderr


def test_game_ace_is_the_default_and_answers_exactly_as_without_the_option() -> None:
    import engine
    line = json.dumps(engine.to_json(engine.new_game(3))) + "\n"
    plain, named, long_name = run("moves", stdin=line), run("moves", "--game", "ace", stdin=line), \
        run("moves", "--game", "ace-in-the-hole", stdin=line)
    assert plain.returncode == named.returncode == long_name.returncode == 0
    assert plain.stdout == named.stdout == long_name.stdout
    assert json.loads(plain.stdout)["legal"] == [str(a) for a in engine.legal_actions(engine.new_game(3))]
