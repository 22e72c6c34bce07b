"""engine.GAMES: both games registered behind one interface, Ace in the Hole unchanged."""
from __future__ import annotations

import random

import pytest

import engine
from engine import rhombus
from engine.game import GAMES, Game


def test_the_registry_lists_both_games_by_name() -> None:
    assert list(engine.GAMES) == ["ace-in-the-hole", "rhombus"]
    assert engine.GAMES is GAMES
    assert all(isinstance(g, Game) and g.name == name for name, g in GAMES.items())
    assert [g.title for g in GAMES.values()] == ["Ace in the Hole", "Rhombus"]


def test_ace_in_the_hole_keeps_its_seats_and_its_functions() -> None:
    ace = GAMES["ace-in-the-hole"]
    assert ace.seats == engine.SEATS == ("red", "black")
    assert (ace.new_game, ace.legal_actions, ace.apply, ace.outcome) == (
        engine.new_game, engine.legal_actions, engine.apply, engine.outcome)
    assert (ace.view, ace.to_json, ace.from_json, ace.commitment) == (
        engine.view, engine.to_json, engine.from_json, engine.commitment)
    assert ace.player_counts == (2,) and ace.variants == ("classic",)
    assert ace.sides() == (("red",), ("black",))


def test_ace_in_the_hole_started_through_the_registry_is_the_same_game() -> None:
    ace = GAMES["ace-in-the-hole"]
    assert ace.start("same deal") == engine.new_game("same deal")
    assert ace.start("same deal", players=2, variant="classic") == engine.new_game("same deal")


def test_rhombus_has_its_seats_for_two_and_four_players_in_turn_order() -> None:
    game = GAMES["rhombus"]
    assert game.seats == ("SW", "NE")  # RH3: opposite corners
    assert game.player_counts == (2, 4)
    assert game.seats_for(2) == ("SW", "NE")
    assert game.seats_for(4) == ("SW", "SE", "NE", "NW")  # RH31: counter-clockwise


def test_rhombus_seats_are_those_the_engine_deals_to() -> None:
    game = GAMES["rhombus"]
    assert rhombus.new_game("seats").seats == game.seats_for(2)
    assert rhombus.new_game("seats", players=4).seats == game.seats_for(4)


def test_rhombus_sides_are_one_seat_or_a_team_of_partners_sitting_opposite() -> None:
    game = GAMES["rhombus"]
    assert game.sides(2) == (("SW",), ("NE",))
    assert game.sides(4) == (("SW", "NE"), ("SE", "NW"))  # RH31


def test_rhombus_variants_are_classic_first_then_formation() -> None:
    assert GAMES["rhombus"].variants == ("classic", "formation")  # RH41


def test_rhombus_started_through_the_registry_is_the_engines_own_game() -> None:
    game = GAMES["rhombus"]
    s = game.start("registry", players=2, variant="classic")
    assert s == rhombus.new_game("registry") == game.start("registry")
    assert game.new_game("registry") == s
    assert s.turn == "SW" and len(s.seats) == 2


@pytest.mark.parametrize(("name", "kwargs", "message"), [
    ("rhombus", {"players": 3}, "Rhombus is played by 2 or 4 players, not 3"),
    ("rhombus", {"players": 0}, "Rhombus is played by 2 or 4 players, not 0"),
    ("rhombus", {"variant": "speed"}, "Rhombus has the variants classic, formation, not 'speed'"),
    ("ace-in-the-hole", {"players": 4}, "Ace in the Hole is played by 2 players, not 4"),
    ("ace-in-the-hole", {"variant": "formation"}, "Ace in the Hole has the variants classic, not 'formation'"),
])
def test_start_refuses_a_player_count_or_variant_the_rules_do_not_know(
        name: str, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(engine.EngineError) as refused:
        GAMES[name].start("x", **kwargs)  # type: ignore[arg-type]
    assert str(refused.value) == message


@pytest.mark.parametrize("name", ["ace-in-the-hole", "rhombus"])
def test_a_random_game_runs_to_its_end_through_the_interface_alone(name: str) -> None:
    game = GAMES[name]
    rng = random.Random(name)
    s = game.start(f"interface {name}")
    for _ in range(2000):
        legal = game.legal_actions(s)
        if not legal:
            break
        action = rng.choice(legal)
        assert game.read_action(str(action)) == game.parse_action(str(action))
        s = game.apply(s, game.read_action(action.to_json()))
    assert not game.legal_actions(s)
    over = game.outcome(s)
    assert over is not None
    winners = {"+".join(side) for side in game.sides()} | {None}
    assert over.winner in winners
    assert game.from_json(game.to_json(s)) == s


def test_a_rhombus_seats_view_through_the_interface_shows_its_own_hand_and_counts_the_rest() -> None:
    game = GAMES["rhombus"]
    s = game.start("views")
    seats = game.view(s, "SW").to_json()["seats"]
    assert seats["SW"]["hand"] == s.hand("SW")  # RH29
    assert "hand" not in seats["NE"] and seats["NE"]["hand_count"] == 1
    assert "pile" not in game.view(s, None).to_json()
