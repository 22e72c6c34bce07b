"""Rhombus game records (RH30): JSON and text forms, replayed bit-exact from the revealed seed."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import RecordError, rhombus
from engine.record import RhombusRecord, read_rhombus, replay_rhombus


def played(seed: str, turns: int = 10_000, players: dict[str, str] | None = None) -> RhombusRecord:
    """A record of a random game of up to ``turns`` actions, its result filled in when over."""
    rng = random.Random(seed)
    record = RhombusRecord.start(seed, players or {"SW": "alice", "NE": "bob"}, Event="tests")
    s = record.new_game()
    for _ in range(turns):
        legal = rhombus.legal_actions(s)
        if not legal:
            break
        record = record.then(rng.choice(legal))
        s = rhombus.apply(s, record.actions[-1])
    over = rhombus.outcome(s)
    if over is not None:
        record = dataclasses.replace(record, winner=over.winner, reason=over.reason)
    return record


def final_of(record: RhombusRecord) -> rhombus.State:
    """The final position, played again from the seed without the record's own replay."""
    s = rhombus.new_game(record.seed or "", players=len(record.players), dealer=record.dealer)
    for action in record.actions:
        s = rhombus.apply(s, str(action))
    return s


# --- the commitment (RH30) ---------------------------------------------------------

def test_a_new_record_publishes_the_sha256_of_its_seed_and_withholds_the_seed() -> None:
    record = RhombusRecord.start("secret 1", {"SW": "alice", "NE": "bob"})
    assert record.commitment == hashlib.sha256(b"secret 1").hexdigest()
    public = record.public()
    assert public.seed is None and public.commitment == record.commitment
    assert "secret 1" not in public.to_text() and "secret 1" not in json.dumps(public.to_json())


def test_a_finished_record_shows_its_seed_so_anyone_can_recheck_it() -> None:
    record = played("finished")
    assert record.reason is not None
    assert record.public() == record and record.public().seed == "finished"


def test_names_in_the_sites_order_are_seated_by_rh9s_draw_from_the_seed() -> None:
    for seed in ("draw 1", "draw 2", "draw 3", "draw 4"):
        record = RhombusRecord.start(seed, ["alice", "bob"])
        order = rhombus.seating(seed)
        assert record.players == {"SW": ["alice", "bob"][order[0]], "NE": ["alice", "bob"][order[1]]}
    seated = {tuple(RhombusRecord.start(f"draw {i}", ["alice", "bob"]).players.values()) for i in range(12)}
    assert seated == {("alice", "bob"), ("bob", "alice")}  # both seatings happen


def test_the_dealer_is_ne_by_default_so_sw_moves_first() -> None:
    record = RhombusRecord.start("dealer", {"SW": "alice", "NE": "bob"})
    assert record.dealer == "NE" and record.new_game().turn == "SW"  # RH9


def test_a_later_game_of_a_series_keeps_its_dealer_and_the_other_seat_moves_first() -> None:
    record = played("series", turns=3)
    later = dataclasses.replace(RhombusRecord.start("series", {"SW": "alice", "NE": "bob"}, dealer="SW"),
                                actions=())
    assert later.new_game().turn == "NE"  # RH28: the winner deals, the loser moves first
    text = later.then(rhombus.legal_actions(later.new_game())[0]).to_text()
    assert "\n1. NE " in text and read_rhombus(text).dealer == "SW"
    assert record.to_text().splitlines()[-4].startswith("1. SW ")


# --- JSON and text ---------------------------------------------------------------

def test_a_short_record_has_exactly_this_text() -> None:
    record = RhombusRecord.start("demo", {"SW": "alice", "NE": "bob"})
    record = record.then(rhombus.Action.parse("KC b1-b3")).then(rhombus.Action.parse("8S mystery"))
    assert record.to_text() == (
        '[Game "Rhombus"]\n'
        '[Variant "classic"]\n'
        '[SW "alice"]\n'
        '[NE "bob"]\n'
        '[Dealer "NE"]\n'
        f'[Commitment "{hashlib.sha256(b"demo").hexdigest()}"]\n'
        '[Seed "demo"]\n'
        '[Result "*"]\n'
        '\n'
        '1. SW KC b1-b3\n'
        '2. NE 8S mystery\n'
        '*\n'
    )


def test_a_short_record_has_exactly_this_json() -> None:
    record = RhombusRecord.start("demo", {"SW": "alice", "NE": "bob"}, Event="club night")
    record = record.then(rhombus.Action.parse("KC a2-b3, QC b1-d2"))
    assert record.to_json() == {
        "format": "rhombus/1", "variant": "classic", "players": {"SW": "alice", "NE": "bob"},
        "dealer": "NE", "commitment": hashlib.sha256(b"demo").hexdigest(), "seed": "demo",
        "winner": None, "reason": None, "headers": {"Event": "club night"},
        "actions": ["KC a2-b3, QC b1-d2"],
    }


@pytest.mark.parametrize("seed", ["round trip 1", "round trip 2"])
def test_a_finished_game_round_trips_through_json_and_text(seed: str) -> None:
    record = played(seed)
    assert record.reason in ("RH25", "RH26", "RH27")
    assert RhombusRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert RhombusRecord.from_text(record.to_text()) == record
    assert read_rhombus(record.to_text()) == record == read_rhombus(json.dumps(record.to_json()))
    assert record.to_text().endswith(f"\n{record.result}\n")


def test_the_result_reads_1_0_for_sw_0_1_for_ne_and_a_half_each_for_a_draw() -> None:
    base = RhombusRecord.start("results", {"SW": "alice", "NE": "bob"})
    assert base.result == "*"
    assert dataclasses.replace(base, winner="SW", reason="RH25").result == "1-0"
    assert dataclasses.replace(base, winner="NE", reason="RH26").result == "0-1"
    assert dataclasses.replace(base, winner=None, reason="RH27").result == "1/2-1/2"
    assert dataclasses.replace(base, winner=None, reason="aborted").result == "*"
    four = RhombusRecord.start("results", {"SW": "a", "SE": "b", "NE": "c", "NW": "d"})
    assert dataclasses.replace(four, winner="SE+NW", reason="resignation").result == "0-1"  # RH31 teams
    assert read_rhombus(dataclasses.replace(four, winner="SE+NW", reason="resignation").to_text()).winner == "SE+NW"


# --- replay -------------------------------------------------------------------------

def test_replay_rebuilds_every_position_and_the_final_one_bit_exact() -> None:
    record = played("replay")
    states = replay_rhombus(record)
    assert len(states) == len(record.actions) + 1
    assert states[0] == rhombus.new_game("replay")
    assert states[-1] == final_of(record)
    assert rhombus.to_json(states[-1]) == rhombus.to_json(final_of(read_rhombus(record.to_text())))


def test_a_game_long_enough_to_reshuffle_replays_its_reshuffles_from_the_seed() -> None:
    record = played("reshuffles")
    final = replay_rhombus(record)[-1]
    assert final.reshuffles >= 1  # RH24, RH30: reshuffle k comes from the seed and k
    assert final == final_of(read_rhombus(json.dumps(record.to_json())))


def test_replay_refuses_a_seed_that_does_not_match_the_commitment() -> None:
    record = dataclasses.replace(played("honest", turns=5), seed="another seed")
    with pytest.raises(RecordError, match=r"does not match the commitment.*\(RH30\)"):
        replay_rhombus(record)


def test_replay_refuses_a_running_game_whose_seed_is_withheld() -> None:
    with pytest.raises(RecordError, match=r"not revealed yet.*\(RH30\)"):
        replay_rhombus(played("running", turns=4).public())


def test_replay_names_the_first_action_that_the_rules_refuse() -> None:
    record = played("tampered", turns=6)
    s = replay_rhombus(record)[4]
    assert s.turn == "SW"
    bad = rhombus.legal_actions(s._replace(to_move=1))[0]  # one of NE's actions, played on SW's turn
    tampered = dataclasses.replace(record, actions=record.actions[:4] + (bad,) + record.actions[5:])
    with pytest.raises(RecordError, match=r"^action 5 \(SW's 3rd turn\): .*\(RH7\)"):
        replay_rhombus(tampered)


def test_replay_refuses_a_result_the_final_position_does_not_bear_out() -> None:
    record = played("false result")
    wrong = "NE" if record.winner != "NE" else "SW"
    with pytest.raises(RecordError, match="the record says"):
        replay_rhombus(dataclasses.replace(record, winner=wrong, reason="RH25"))
    with pytest.raises(RecordError, match="still running"):
        replay_rhombus(dataclasses.replace(played("false result", turns=3), winner="SW", reason="RH25"))


# --- refusals when reading ------------------------------------------------------------

@pytest.mark.parametrize(("text", "message"), [
    ('{"format": "ace-in-the-hole/1"}', "unknown record format"),
    ('{"format": "rhombus/1", "players": {"SW": "a"}}', "played by 2 or 4 players, not 1"),
    ('{"format": "rhombus/1", "players": {"SW": "a", "SE": "b"}}', "the players sit at SW, NE"),
    ('{"format": "rhombus/1", "players": {"SW": "a", "NE": "b"}, "commitment": "00"}', "SHA-256"),
    ('{"format": "rhombus/1", "players": {"SW": "a", "NE": "b"}, "dealer": "SE",'
     f' "commitment": "{"0" * 64}"}}', "the dealer is one of SW, NE"),
    ('{"format": "rhombus/1", "players": {"SW": "a", "NE": "b"}, "winner": "red",'
     f' "commitment": "{"0" * 64}"}}', "winner must be SW or NE or none"),
    ('{"format": "rhombus/1", "players": {"SW": "a", "NE": "b"}, "actions": ["KC b1b3"],'
     f' "commitment": "{"0" * 64}"}}', "action 1 (SW's 1st turn)"),
    ('[Game "Ace in the Hole"]\n', "not of Rhombus"),
    ('[SW "a"]\n[NE "b"]\n[Result "1-0"]\n', "needs a Termination header"),
    ('[SW "a"]\n[NE "b"]\n[Commitment "' + "0" * 64 + '"]\n\n1. NE KC b1-b3\n', "played by SW, not 1. NE"),
    ('[SW "a"]\n[NE "b"]\n[Commitment "' + "0" * 64 + '"]\n\nKC b1-b3\n', "an action is written"),
    ("{", "not valid JSON"),
])
def test_reading_a_broken_record_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_rhombus(text)


# --- property ---------------------------------------------------------------------

@settings(max_examples=12, deadline=None)
@given(seed=st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=12),
       turns=st.integers(0, 120), choices=st.randoms(use_true_random=False))
def test_random_games_recorded_and_replayed_reach_the_same_final_position(
        seed: str, turns: int, choices: random.Random) -> None:
    record = RhombusRecord.start(seed, ["alice", "bob"])
    s = record.new_game()
    for _ in range(turns):
        legal = rhombus.legal_actions(s)
        if not legal:
            break
        record = record.then(choices.choice(legal))
        s = rhombus.apply(s, record.actions[-1])
    for form in (record.to_text(), json.dumps(record.to_json())):
        again = read_rhombus(form)
        assert again == record
        assert replay_rhombus(again)[-1] == s
