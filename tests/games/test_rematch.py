"""Rematches: one player offers, the other accepts, a new game starts with the colours swapped."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from games import finishing, payloads, refusals, rematches, starting
from games.models import Game
from games.timecontrols import TimeControl
from tests.helpers import require_service

SEED = "tests-game-seed"


def finished(alice: Any, bob: Any, **options: Any) -> Game:
    game = starting.start_game(alice, bob, seed=SEED, **options)
    return finishing.resign(game.pk, bob)


@pytest.mark.django_db
class TestOnTheDatabase:
    def test_an_offer_is_recorded_and_starts_nothing(self, alice: Any, bob: Any) -> None:
        game = finished(alice, bob)
        g = rematches.rematch(game.pk, alice)
        assert payloads.view_for(g, bob)["game"]["rematch"] == {"offered_by": ["red"], "game_id": None}
        assert rematches.rematch(game.pk, alice).rematch_game_id is None  # a second click: same offer
        assert Game.objects.count() == 1

    def test_accepting_starts_the_game_with_colours_swapped_and_the_same_terms(
            self, alice: Any, bob: Any) -> None:
        game = finished(alice, bob, rated=False, time_control=TimeControl.parse("3d"))
        rematches.rematch(game.pk, bob)
        g = rematches.rematch(game.pk, alice)
        new = g.rematch_game
        assert new is not None and new.running and new.ply == 0
        assert (new.seat("red").user, new.seat("black").user) == (bob, alice)
        assert (new.rated, new.time_control) == (False, TimeControl.parse("3d"))
        assert new.seed != game.seed
        assert payloads.view_for(g, alice)["game"]["rematch"] == {"offered_by": ["black", "red"], "game_id": new.pk}

    def test_a_repeated_accept_starts_no_second_game(self, alice: Any, bob: Any) -> None:
        game = finished(alice, bob)
        rematches.rematch(game.pk, alice)
        first = rematches.rematch(game.pk, bob).rematch_game_id
        assert rematches.rematch(game.pk, bob).rematch_game_id == first
        assert rematches.rematch(game.pk, alice).rematch_game_id == first
        assert Game.objects.count() == 2

    def test_a_running_game_has_no_rematch_and_spectators_cannot_ask(
            self, game: Game, alice: Any, charlie: Any) -> None:
        with pytest.raises(refusals.Refusal, match="still running"):
            rematches.rematch(game.pk, alice)
        finishing.abort(game.pk, alice)
        with pytest.raises(refusals.Refusal, match="not playing"):
            rematches.rematch(game.pk, charlie)
        assert rematches.rematch(game.pk, alice).rematch_offers == ["red"]  # aborted games too


@pytest.mark.django_db(transaction=True)
def test_two_accepts_at_once_start_exactly_one_game(alice: Any, bob: Any) -> None:
    require_service("DATABASE_URL", "row locks (SQLite has no SELECT ... FOR UPDATE)")
    game = finished(alice, bob)
    rematches.rematch(game.pk, alice)
    barrier = threading.Barrier(2)
    results: list[int | None] = []

    def accept() -> None:
        barrier.wait()
        try:
            results.append(rematches.rematch(game.pk, bob).rematch_game_id)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2 and results[0] == results[1] is not None
    assert Game.objects.count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("services")
async def test_both_sockets_hear_of_the_offer_and_of_the_new_game(
        game: Game, cookies: dict[str, str], sockets: Any) -> None:
    red, _ = await sockets(game.pk, cookies["alice"])
    black, _ = await sockets(game.pk, cookies["bob"])
    await red.send({"type": "resign"})
    await red.receive(), await black.receive()
    await red.send({"type": "rematch"})
    offers = [await red.receive(), await black.receive()]
    assert all(m["game"]["rematch"] == {"offered_by": ["red"], "game_id": None} for m in offers)
    await black.send({"type": "rematch"})
    news = [await red.receive(), await black.receive()]
    new_id = news[0]["game"]["rematch"]["game_id"]
    assert new_id is not None and all(m["game"]["rematch"]["game_id"] == new_id for m in news)
    assert new_id != game.pk
