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
from engine.ace.text import board_text

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


# --- arena -----------------------------------------------------------------------

def arena_counts(stdout: str) -> tuple[int, int, int, int]:
    found = re.search(r"(\d+) games, from \S+ side: (\d+) wins, (\d+) draws, (\d+) losses", stdout)
    assert found is not None, stdout
    n, w, d, l = (int(x) for x in found.groups())
    return n, w, d, l


def test_arena_reports_wins_draws_losses_of_the_first_level_with_a_wilson_interval() -> None:
    done = run("arena", "--red", "greedy", "--black", "random", "--games", "8", "--seed", "3")
    assert done.returncode == 0, done.stderr[-2000:]
    n, w, d, l = arena_counts(done.stdout)
    assert done.stdout.startswith("greedy vs random: 8 games, from greedy's side")
    assert n == 8 and w + d + l == 8
    interval = re.search(r"win rate ([\d.]+)% \(95% Wilson interval ([\d.]+)%-([\d.]+)%\)", done.stdout)
    assert interval is not None, done.stdout
    rate, lo, hi = (float(x) for x in interval.groups())
    assert rate == pytest.approx(100 * w / 8, abs=0.05) and lo <= rate <= hi
    # Colours swap every game: four games on each side.
    sides = re.findall(r"as (red|black): (\d+) wins, (\d+) draws, (\d+) losses", done.stdout)
    assert [(seat, sum(int(x) for x in counts)) for seat, *counts in sides] == [("red", 4), ("black", 4)]


def test_arena_shows_progress_on_stderr_and_only_the_result_on_stdout() -> None:
    done = run("arena", "--red", "random", "--black", "greedy", "--games", "3", "--seed", "1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "arena: random vs greedy, 3 games, seed 1" in done.stderr
    assert re.findall(r"(\d)/3 games", done.stderr) == ["1", "2", "3"]
    assert "/3 games" not in done.stdout


def test_arena_with_iteration_budgets_is_reproducible_and_jobs_do_not_change_it() -> None:
    args = ("arena", "--red", "greedy", "--black", "ismcts-1", "--games", "4", "--seed", "5")
    one, again, parallel = run(*args), run(*args), run(*args, "--jobs", "2")
    for done in (one, again, parallel):
        assert done.returncode == 0, done.stderr[-2000:]
    result = [line for line in one.stdout.splitlines() if "iterations/s" not in line]
    assert result == [line for line in again.stdout.splitlines() if "iterations/s" not in line]
    assert result == [line for line in parallel.stdout.splitlines() if "iterations/s" not in line]


def test_arena_reports_ismcts_iterations_per_second_under_a_time_budget() -> None:
    done = run("arena", "--red", "ismcts-3", "--black", "random", "--games", "2", "--seed", "1",
               "--seconds", "0.05")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "0.05 s per move" in done.stderr
    rate = re.search(r"ismcts-3: (\d+) iterations per searched move, (\d+) ISMCTS iterations/s", done.stdout)
    assert rate is not None, done.stdout
    assert int(rate.group(1)) > 0 and int(rate.group(2)) > 0


@pytest.mark.parametrize("args, message", [
    (("--red", "grandmaster", "--black", "random"), "invalid choice: 'grandmaster'"),
    (("--red", "greedy", "--black", "random", "--games", "0"), "--games and --jobs must be at least 1"),
    (("--red", "greedy", "--black", "random", "--seconds", "-1"), "--seconds above 0"),
    (("--red", "greedy"), "the following arguments are required: --black"),
])
def test_arena_refuses_bad_arguments_with_a_message_and_no_games(args: tuple[str, ...], message: str) -> None:
    done = run("arena", *args)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""
