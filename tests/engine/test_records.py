"""R19: seeds, commitments, the shuffle, and game records that replay."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import Action, RecordError
from engine.record import Record, read, replay

SEED = "a secret seed 7f3a"


def played(seed: str = SEED, turns: int = 60, red: str = "alice", black: str = "bob") -> Record:
    """A record of a random game of up to ``turns`` turns, its result filled in when over."""
    rng = random.Random(seed)
    record = Record.start(seed, red, black)
    s = engine.new_game(seed)
    for _ in range(turns):
        legal = engine.legal_actions(s)
        if not legal:
            break
        action = rng.choice(legal)
        record = record.then(action)
        s = engine.apply(s, action)
    over = engine.outcome(s)
    if over is not None:
        record = dataclasses.replace(record, winner=over.winner, reason=over.reason)
    return record


def long_game() -> Record:
    """A finished game of at least 46 actions (most random games are)."""
    for i in range(100):
        record = played(f"long {i}")
        if len(record.actions) >= 46:
            return record
    raise AssertionError("no random game lasted 46 actions")


# --- commitments and the shuffle ---------------------------------------------

@pytest.mark.parametrize(
    ("seed", "raw"), [("demo", b"demo"), (42, b"42"), (0, b"0"), ("ünï", "ünï".encode()), (b"\x00\xff", b"\x00\xff")],
)
def test_the_commitment_is_the_sha256_of_the_seed_in_hex(seed: str | int | bytes, raw: bytes) -> None:
    assert engine.commitment(seed) == hashlib.sha256(raw).hexdigest()


def test_a_new_record_publishes_the_commitment_of_its_seed() -> None:
    record = Record.start(SEED, "alice", "bob")
    assert record.commitment == hashlib.sha256(SEED.encode()).hexdigest()
    assert (record.red, record.black, record.seed) == ("alice", "bob", SEED)


def shuffle_from_the_docstring(seed: str | int | bytes, label: bytes, first_card: int) -> list[int]:
    """engine/shuffle.py's documented shuffle, written again from its text alone."""
    if isinstance(seed, int):
        key = str(seed).encode("ascii")
    elif isinstance(seed, str):
        key = seed.encode("utf-8")
    else:
        key = seed
    cards = list(range(first_card, first_card + 26))  # suit order, A..K within a suit
    stream = hashlib.shake_256(key + b"/" + label).digest(4 * 1000)
    numbers = iter(int.from_bytes(stream[k:k + 4], "big") for k in range(0, len(stream), 4))
    for i in range(25, 0, -1):
        largest_multiple = (2**32 // (i + 1)) * (i + 1)
        n = next(numbers)
        while n >= largest_multiple:
            n = next(numbers)
        j = n % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@pytest.mark.parametrize("seed", ["demo", 42, 0, -7, "ünïcode ♠", b"\x00\xff", SEED])
def test_the_shuffle_can_be_recomputed_from_its_documentation(seed: str | int | bytes) -> None:
    s = engine.new_game(seed)
    assert list(s.hands[0] + s.decks[0]) == shuffle_from_the_docstring(seed, b"red", 0)
    assert list(s.hands[1] + s.decks[1]) == shuffle_from_the_docstring(seed, b"black", 26)


@settings(max_examples=200)
@given(st.one_of(st.integers(), st.text(), st.binary()))
def test_any_seed_shuffles_as_documented(seed: str | int | bytes) -> None:
    s = engine.new_game(seed)
    assert list(s.hands[0] + s.decks[0]) == shuffle_from_the_docstring(seed, b"red", 0)
    assert list(s.hands[1] + s.decks[1]) == shuffle_from_the_docstring(seed, b"black", 26)


def test_different_seeds_give_different_decks() -> None:
    decks = {engine.new_game(i).decks for i in range(50)}
    assert len(decks) == 50


# --- the two written forms -------------------------------------------------------

def records_of_every_kind() -> list[Record]:
    finished = played()
    running = played(turns=10)
    return [
        finished,
        running,
        Record.start(SEED),  # no action yet
        dataclasses.replace(running, winner="red", reason="resignation"),
        dataclasses.replace(running, winner="black", reason="time"),
        dataclasses.replace(Record.start(SEED), reason="aborted"),
        dataclasses.replace(finished, headers={"Event": "Club night", "Date": "2024.05.01"}),
    ]


@pytest.mark.parametrize("index", range(7))
def test_a_record_reads_back_from_its_json(index: int) -> None:
    record = records_of_every_kind()[index]
    assert Record.from_json(json.loads(json.dumps(record.to_json()))) == record


@pytest.mark.parametrize("index", range(7))
def test_a_record_reads_back_from_its_text(index: int) -> None:
    record = records_of_every_kind()[index]
    assert Record.from_text(record.to_text()) == record


def test_a_drawn_game_is_written_with_the_draw_result_and_reads_back() -> None:
    draw = dataclasses.replace(played(turns=4), winner=None, reason="points")
    assert '[Result "1/2-1/2"]' in draw.to_text()
    assert Record.from_text(draw.to_text()) == draw


def test_the_text_form_numbers_the_turns_in_pairs_and_ends_with_the_result() -> None:
    record = played()
    body = record.to_text().split("\n\n", 1)[1].split("\n")
    assert body[0] == f"1. {record.actions[0]} {record.actions[1]}"
    assert body[1].startswith(f"2. {record.actions[2]} ")
    assert body[-2] == record.result and body[-1] == ""
    assert record.result in ("1-0", "0-1", "1/2-1/2")


def test_quotes_and_backslashes_in_header_values_are_escaped_and_read_back() -> None:
    record = Record.start(SEED, 'Anna "the Ace" \\o/', "bob", Event='"Open" \\ 2024')
    text = record.to_text()
    assert '[Red "Anna \\"the Ace\\" \\\\o/"]' in text
    assert '[Event "\\"Open\\" \\\\ 2024"]' in text
    assert Record.from_text(text) == record


@settings(max_examples=200)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20),
       st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20))
def test_any_one_line_player_names_survive_the_text_form(red: str, black: str) -> None:
    record = dataclasses.replace(played(turns=2), red=red or "Red", black=black or "Black")
    assert Record.from_text(record.to_text()) == record


@pytest.mark.parametrize(
    "change",
    [
        {"red": "alice\nbob"},
        {"black": "carol\r"},
        {"headers": {"Seed": "another seed"}},
        {"headers": {"Result": "1-0"}},
        {"headers": {"Time Control": "5+3"}},
    ],
    ids=["line-break-in-name", "carriage-return-in-name", "header-named-Seed", "header-named-Result",
         "header-name-with-space"],
)
def test_a_record_the_text_form_cannot_hold_is_refused_rather_than_written_wrongly(change: dict[str, object]) -> None:
    record = dataclasses.replace(played(turns=4), **change)  # type: ignore[arg-type]
    try:
        text = record.to_text()
    except RecordError:
        return
    assert Record.from_text(text) == record


def test_read_tells_json_from_text() -> None:
    record = played()
    assert read(json.dumps(record.to_json())) == record
    assert read("\n  " + json.dumps(record.to_json(), indent=2)) == record
    assert read(record.to_text()) == record


@pytest.mark.parametrize(
    "text",
    ["{not json", '{"commitment": "abc", "actions": []}', "[]", '{"commitment": 5}',
     '[Red "alice"]\n[Commitment "zz"]\n\n*', '[Red alice]\n\n*', '{"format": "chess/1"}'],
)
def test_read_refuses_a_broken_record_with_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        read(text)


@pytest.mark.parametrize(
    "text",
    ['{"actions": ' + "[" * 100_000 + "]" * 100_000 + "}", '{"actions": ' + "1" * 5000 + "}"],
    ids=["deeply-nested-json", "5000-digit-number"],
)
def test_read_refuses_pathological_json_with_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        read(text)


def test_a_record_with_malformed_notation_is_refused_naming_the_action() -> None:
    data = played(turns=10).to_json()
    data["actions"][6] = "7H e1e7"
    with pytest.raises(RecordError, match=r"action 7 \(Red's 4th turn\)"):
        Record.from_json(data)


# --- replay ------------------------------------------------------------------------

def test_replay_rebuilds_every_position_as_playing_the_actions_does() -> None:
    record = played()
    states = replay(record)
    assert len(states) == len(record.actions) + 1
    assert states[0] == engine.new_game(SEED)
    for before, action, after in zip(states, record.actions, states[1:]):
        assert engine.apply(before, action) == after
    assert engine.outcome(states[-1]) is not None


def test_replay_of_a_record_read_back_from_text_gives_the_same_positions() -> None:
    record = played()
    assert replay(Record.from_text(record.to_text())) == replay(record)


def test_a_seed_that_does_not_match_the_commitment_is_refused() -> None:
    tampered = dataclasses.replace(played(), seed=SEED + " ")
    with pytest.raises(RecordError, match=r"commitment.*R19"):
        replay(tampered)


def test_a_record_whose_seed_is_not_revealed_cannot_be_replayed() -> None:
    with pytest.raises(RecordError, match=r"R19"):
        replay(played(turns=10).public())


@pytest.mark.parametrize(
    ("index", "where"),
    [
        (0, "action 1 (Red's 1st turn)"),
        (3, "action 4 (Black's 2nd turn)"),
        (4, "action 5 (Red's 3rd turn)"),
        (6, "action 7 (Red's 4th turn)"),
        (21, "action 22 (Black's 11th turn)"),
        (22, "action 23 (Red's 12th turn)"),
        (25, "action 26 (Black's 13th turn)"),
        (40, "action 41 (Red's 21st turn)"),
        (43, "action 44 (Black's 22nd turn)"),
        (44, "action 45 (Red's 23rd turn)"),
    ],
)
def test_replay_refuses_an_illegal_action_naming_it_and_the_rule(index: int, where: str) -> None:
    record = long_game()
    states = replay(record)
    mover = states[index].to_move
    # A card of the mover's that is still in the deck: not in hand (R7).
    card = engine.ace.cards.CARD_NAMES[states[index].decks[mover][0]]
    bad = dataclasses.replace(record, actions=record.actions[:index] + (Action.parse(f"{card} burn"),),
                              winner=None, reason=None)
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert str(e.value).startswith(where + ": ")
    assert f"{card} burn" in str(e.value) and "(R7)" in str(e.value)


def test_replay_refuses_an_action_after_the_game_is_over() -> None:
    record = played()
    extra = dataclasses.replace(record, actions=record.actions + (record.actions[-2],))
    with pytest.raises(RecordError, match=rf"action {len(record.actions) + 1} .*game is over"):
        replay(extra)


@pytest.mark.parametrize(
    "change",
    [
        {"winner": "red", "reason": "aces"},
        {"winner": "black", "reason": "aces"},
        {"winner": "red", "reason": "points"},
        {"winner": "black", "reason": "points"},
        {"winner": None, "reason": "points"},
        {"winner": "red", "reason": "resignation"},
        {"winner": "black", "reason": "time"},
    ],
)
def test_replay_refuses_a_result_the_final_position_does_not_give(change: dict[str, object]) -> None:
    record = played()
    over = engine.outcome(replay(record)[-1])
    assert over is not None
    if (change["winner"], change["reason"]) == (over.winner, over.reason):
        change = {"winner": "black" if over.winner == "red" else "red", "reason": over.reason}
    with pytest.raises(RecordError, match=r"the record says"):
        replay(dataclasses.replace(record, **change))  # type: ignore[arg-type]


@pytest.mark.parametrize("reason", ["points", "aces"])
def test_replay_refuses_a_rules_ending_for_a_game_still_running(reason: str) -> None:
    running = dataclasses.replace(played(turns=10), winner="red", reason=reason)
    with pytest.raises(RecordError, match=r"still running"):
        replay(running)


def test_replay_accepts_a_platform_ending_for_a_game_still_running() -> None:
    resigned = dataclasses.replace(played(turns=10), winner="black", reason="resignation")
    assert len(replay(resigned)) == 11


# --- what is public while the game runs ------------------------------------------

def test_the_public_record_of_a_running_game_hides_the_seed_everywhere() -> None:
    record = played(turns=10)
    public = record.public()
    assert public.seed is None
    assert (public.commitment, public.actions, public.red) == (record.commitment, record.actions, record.red)
    assert SEED not in json.dumps(public.to_json())
    assert SEED not in public.to_text()
    assert Record.from_text(public.to_text()).seed is None


def test_the_public_record_of_a_finished_game_reveals_the_seed() -> None:
    record = played()
    assert record.reason is not None
    assert record.public().seed == SEED
    assert replay(record.public())[-1] == replay(record)[-1]


def test_a_text_result_without_a_termination_is_refused_rather_than_dropped() -> None:
    text = played(turns=4).to_text().replace('[Result "*"]', '[Result "1-0"]')
    with pytest.raises(RecordError, match="Termination"):
        Record.from_text(text)
