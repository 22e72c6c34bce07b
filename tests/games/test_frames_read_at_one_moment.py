"""A frame's view and its action list are of one moment (issue 22, 6): 660 of
78,528 frames, and /api/games/{id} at ply 47 with 48 actions, carried the move
played after their own ply, read after the game row. Here a second connection
plays a move between the game's read and the frame's (or record's) build."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections

import engine
from games import moving, payloads, records, starting, store
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

RHOMBUS = engine.GAMES["rhombus"]


def play_first_legal(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    action = RHOMBUS.legal_actions(RHOMBUS.from_json(game.position))[0]
    moving.submit(game_id, game.seat(game.to_move).user, game.ply, str(action))


def move_from_another_connection(game_id: int) -> None:
    def work() -> None:
        try:
            play_first_legal(game_id)
        finally:
            connections.close_all()

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()


@pytest.fixture
def read_then_advanced(alice: Any, bob: Any) -> tuple[Game, list[dict[str, str]]]:
    """A Rhombus game read at ply 3, and a fourth move committed since by another connection."""
    game = starting.start_game(alice, bob, seed="one-moment", setup=starting.Setup("rhombus"))
    for _ in range(3):
        play_first_legal(game.pk)
    read = store.load(game.pk)
    assert read is not None and read.ply == 3
    move_from_another_connection(game.pk)
    assert Game.objects.get(pk=game.pk).ply == 4
    return read, payloads.seat_view(Game.objects.get(pk=game.pk), None)["actions"][:3]


@pytest.mark.parametrize("seat", [None, "SW", "NE"], ids=["spectator", "SW", "NE"])
def test_a_frame_built_from_a_game_read_before_a_move_carries_only_the_actions_to_its_own_ply(
        read_then_advanced: tuple[Game, list[dict[str, str]]], seat: str | None) -> None:
    read, first_three = read_then_advanced
    frame = payloads.seat_view(read, seat)
    assert frame["ply"] == 3 and frame["game"]["status"] == "running"
    assert (frame["actions_from"], frame["actions"]) == (0, first_three)
    update = payloads.seat_view(read, None, since=2)
    assert (update["actions_from"], update["actions"]) == (2, first_three[2:])


def test_a_record_built_from_a_game_read_before_a_move_stops_at_its_ply(
        read_then_advanced: tuple[Game, list[dict[str, str]]]) -> None:
    read, first_three = read_then_advanced
    actions = records.record_of(read).to_json()["actions"]
    assert actions == [entry["action"] for entry in first_three]
