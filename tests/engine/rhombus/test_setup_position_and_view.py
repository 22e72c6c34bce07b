"""Set-up (RH4, RH7-RH9), the position format (N13) and what each seat sees (RH29)."""
from __future__ import annotations

import json

import pytest

from engine.errors import PositionError
from engine.rhombus import apply, from_json, legal_actions, new_game, to_json, view
from engine.rhombus.cards import CARD_NAMES
from engine.shuffle import dealt_pack

from .positions import position


def test_rh4_rh7_rh8_rh9_the_start() -> None:
    s = new_game(7)
    assert s.pieces() == {"a1": "SW", "b1": "SW", "a2": "SW", "e4": "NE", "d5": "NE", "e5": "NE"}
    assert s.reserve == (3, 3) and s.eliminated == (0, 0)
    assert s.turn == "SW" and to_json(s)["dealer"] == "NE"
    pack = [CARD_NAMES[c] for c in dealt_pack(7)]
    assert s.table("SW") == pack[0:2] and s.hand("SW") == pack[2:3]
    assert s.table("NE") == pack[3:5] and s.hand("NE") == pack[5:6]
    assert len(s.pile) == 30 and s.discard == ()


def test_rh9_the_player_who_did_not_deal_moves_first_and_gets_the_first_cards() -> None:
    s = new_game(7, dealer="SW")
    pack = [CARD_NAMES[c] for c in dealt_pack(7)]
    assert s.turn == "NE" and s.table("NE") == pack[0:2]


def test_only_the_two_variants_and_2_or_4_players() -> None:
    """RH41: classic or formation; RH3: 2 or 4 players."""
    with pytest.raises(ValueError, match="classic, formation"):
        new_game(1, variant="speed")
    with pytest.raises(ValueError, match="2 or 4"):
        new_game(1, players=3)


def test_position_format_round_trips_through_json_text() -> None:
    """Position format: a full position survives JSON text unchanged."""
    s = new_game("round trip")
    for _ in range(6):
        s = apply(s, legal_actions(s)[-1])
        assert from_json(json.loads(json.dumps(to_json(s)))) == s


def test_the_pages_example_position_reads() -> None:
    """Position format and N13: the page's example reads; unknown keys are ignored."""
    data = {
        "variant": "classic",
        "board": {"a1": "SW", "b1": "SW", "a2": "SW", "e5": "NE", "d5": "NE", "e4": "NE"},
        "seats": {
            "SW": {"table": ["KC", "QC"], "hand": ["9D"], "reserve": 3, "eliminated": 0, "out": False},
            "NE": {"table": ["6S", "AD"], "hand": ["JC"], "reserve": 3, "eliminated": 0, "out": False},
        },
        "pile": [c for c in CARD_NAMES if c not in ("KC", "QC", "9D", "6S", "AD", "JC")],
        "discard": [],
        "reshuffles": 0,
        "dealer": "NE",
        "to_move": "SW",
        "quiet": 0,
        "some_future_key": 1,  # N13: unknown keys are ignored
    }
    s = from_json(data)
    assert s.turn == "SW" and s.table("NE") == ["6S", "AD"]
    del data["discard"], data["reshuffles"], data["quiet"]  # N13: missing ones read as [] and 0
    assert from_json(data).quiet == 0


@pytest.mark.parametrize("change, message", [
    (lambda d: d["pile"].pop(), "missing"),
    (lambda d: d["pile"].append("KC"), "also in"),
    (lambda d: d["board"].update(f6="SW"), "not a square"),
    (lambda d: d["seats"]["SW"].update(reserve=5), "pieces"),
    (lambda d: d.update(to_move="SE"), "to_move"),
])
def test_position_errors_say_what_is_wrong(change, message) -> None:
    """Position format (Cards, Pieces, RH1, RH4): a bad position names its fault."""
    data = to_json(new_game(3))
    change(data)
    with pytest.raises(PositionError, match=message):
        from_json(data)


def test_rh29_a_seat_sees_its_own_hand_only_and_the_pile_as_a_count() -> None:
    s = new_game("secret")
    seen = view(s, "NE").to_json()
    text = json.dumps(seen)
    assert seen["seats"]["NE"]["hand"] == s.hand("NE")
    assert seen["seats"]["SW"]["hand_count"] == 1 and "hand" not in seen["seats"]["SW"]
    assert seen["seats"]["SW"]["table"] == s.table("SW")
    assert seen["pile_count"] == 30 and "pile" not in seen
    assert seen["seed_hex"] is None and b"secret".hex() not in text
    assert seen["legal"] == []  # not NE's turn
    assert view(s, "SW").to_json()["legal"] == [str(a) for a in legal_actions(s)]


def test_rh29_a_spectator_sees_no_hand() -> None:
    seen = view(new_game("secret"), None).to_json()
    assert all("hand" not in seat for seat in seen["seats"].values())


def test_rh30_the_seed_is_revealed_when_the_game_ends() -> None:
    s = position("""
. . . . .
. . . . .
. . . . .
. N . . .
. S . . .
""", sw=(["AH", "7H"], ["9C"]))
    over = apply(s, "AH+7H b1xb2")
    assert view(over, "NE").seed_hex == b"test".hex()
