"""A Rhombus game that ended off the board (a resignation, a spent clock, an
abort, an adjudication) offers its last mover nothing to play: the frame's
``sets`` and ``firsts`` are both empty, as docs/protocol.md says (issue 35,
13: ``firsts`` still held the mover's one-card uses, so a client could offer
moves in a game that is over). The engine does not know the game ended; the
site does (RH27's platform endings)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import finishing, moving, payloads, starting
from games.models import Game
from games.timecontrols import TimeControl
from api import tokens
from tests.rhombus_steps import legal_texts

pytestmark = pytest.mark.django_db


def resign(game: Game, mover: Any) -> None:
    finishing.resign(game.pk, mover)  # the player to move gives up on their own turn


def run_out_of_time(game: Game, mover: Any) -> None:
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    finishing.claim_time(game.pk)


def abort(game: Game, mover: Any) -> None:
    finishing.abort(game.pk, mover)  # NE, to move at ply 1, has not moved yet (RH27)


def adjudicate(game: Game, mover: Any) -> None:
    finishing.adjudicate(game.pk, None, "the organizer stopped the round")


def started(alice: Any, bob: Any) -> Game:
    """SW has moved, NE is to move and its frame offers what it may play."""
    game = starting.start_game(alice, bob, seed="over-offers-nothing", time_control=TimeControl.parse("3+2"),
                               setup=starting.Setup("rhombus"))
    moving.submit(game.pk, alice, 0, legal_texts(game)[0])
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("end", [resign, run_out_of_time, abort, adjudicate])
def test_the_last_movers_frame_offers_no_card_set_and_no_first_use(
        alice: Any, bob: Any, end: Callable[[Game, Any], None]) -> None:
    game = started(alice, bob)
    before = payloads.seat_view(game, "NE")
    assert before["sets"] and before["firsts"], "the running game's mover is offered its cards"
    end(game, bob)
    game = Game.objects.get(pk=game.pk)
    assert not game.running and game.to_move == "NE"
    for seat in (None, *game.seat_names):
        frame = payloads.seat_view(game, seat)
        assert (frame["sets"], frame["firsts"]) == ([], {}), (end.__name__, seat, frame.get("firsts"))


@pytest.mark.parametrize("end", [resign, run_out_of_time, abort])
def test_the_apis_seat_view_offers_nothing_either(alice: Any, bob: Any, end: Callable[[Game, Any], None]) -> None:
    game = started(alice, bob)
    end(game, bob)
    token = tokens.make(bob, "test", ["play"])[1]
    seat = Client(HTTP_HOST="localhost").get(f"/api/games/{game.pk}/seat",
                                             headers={"Authorization": f"Bearer {token}"}).json()
    assert seat["game"]["status"] != "running" and seat["seat"] == "NE"
    assert (seat["sets"], seat["firsts"]) == ([], {}), (end.__name__, seat.get("firsts"))
