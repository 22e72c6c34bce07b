"""Games played for an event (a tournament round): no-shows forfeit, no abort,
adjudication with a written reason, and the event named on the record."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import finishing, moving, payloads, refusals, starting
from games.models import Event, Game, Move
from games.records import record_of
from ladder.models import RatingChange
from tests.seats import set_game

pytestmark = pytest.mark.django_db

SEED = "tests-game-seed"
EVENT = Event("Autumn Swiss", "3", "/tournaments/7/", number=3)


@pytest.fixture
def event_game(alice: Any, bob: Any) -> Game:
    return starting.start_game(alice, bob, seed=SEED, event=EVENT)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def snapshot(game: Game) -> tuple[Any, ...]:
    g = fresh(game)
    return (g.position, g.ply, g.status, g.winner, g.reason, g.rated, g.adjudication_note,
            list(Move.objects.filter(game=g).values_list("ply", "action")))


def window_passes(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(abort_at=timezone.now() - timedelta(seconds=1))


def test_the_record_and_the_game_json_name_the_event(event_game: Game, alice: Any) -> None:
    headers = record_of(fresh(event_game)).headers
    assert (headers["Event"], headers["Round"]) == ("Autumn Swiss", "3")
    assert payloads.view_for(fresh(event_game), alice)["game"]["event"] == {
        "name": "Autumn Swiss", "round": 3, "label": "3", "url": "/tournaments/7/"}


def test_a_casual_game_names_no_event(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    assert "Event" not in record_of(game).headers
    assert not game.forfeit_no_shows


def test_red_who_never_moves_loses_by_forfeit_when_black_came(event_game: Game) -> None:
    set_game(event_game.pk, black_seen_at=timezone.now())
    window_passes(event_game)
    finishing.claim_time(event_game.pk)
    g = fresh(event_game)
    assert (g.status, g.winner, g.reason, g.rated, g.abort_at) == ("finished", "black", "no-show", False, None)


def test_black_who_never_answers_loses_by_forfeit(event_game: Game, alice: Any) -> None:
    moving.submit(event_game.pk, alice, 0, "5H e1-e6")
    window_passes(event_game)
    finishing.claim_time(event_game.pk)
    g = fresh(event_game)
    assert (g.status, g.winner, g.reason) == ("finished", "red", "no-show")


def test_two_absent_players_both_lose(event_game: Game) -> None:
    window_passes(event_game)
    finishing.claim_time(event_game.pk)
    g = fresh(event_game)
    assert (g.status, g.winner, g.reason) == ("finished", "", "no-show")
    assert not RatingChange.objects.filter(game_id=g.pk).exists()


def test_a_late_first_move_in_an_event_game_is_not_played(event_game: Game, alice: Any) -> None:
    set_game(event_game.pk, black_seen_at=timezone.now())
    window_passes(event_game)
    assert moving.submit(event_game.pk, alice, 0, "5H e1-e6").reason == "no-show"
    assert not Move.objects.filter(game_id=event_game.pk).exists()


def test_an_event_game_cannot_be_aborted(event_game: Game, alice: Any) -> None:
    before = snapshot(event_game)
    with pytest.raises(refusals.Refusal, match="tournament game cannot be aborted"):
        finishing.abort(event_game.pk, alice)
    assert snapshot(event_game) == before


def test_an_adjudicated_game_keeps_its_reason_and_is_not_rated(event_game: Game) -> None:
    finishing.adjudicate(event_game.pk, "black", "  Red's connection was cut by the venue  ")
    g = fresh(event_game)
    assert (g.status, g.winner, g.reason, g.rated) == ("finished", "black", "adjudication", False)
    assert g.adjudication_note == "Red's connection was cut by the venue"
    assert record_of(g).headers["Adjudication"] == "Red's connection was cut by the venue"


def test_an_adjudicated_draw(event_game: Game) -> None:
    finishing.adjudicate(event_game.pk, None, "agreed by both")
    assert (fresh(event_game).winner, fresh(event_game).reason) == ("", "adjudication")


@pytest.mark.parametrize(("winner", "note", "message"), [
    ("black", "   ", "needs a written reason"),
    ("green", "because", "red, black or nobody"),
])
def test_a_bad_adjudication_is_refused_and_changes_nothing(
        event_game: Game, winner: str, note: str, message: str) -> None:
    before = snapshot(event_game)
    with pytest.raises(refusals.Refusal, match=message):
        finishing.adjudicate(event_game.pk, winner, note)
    assert snapshot(event_game) == before


def test_a_finished_game_cannot_be_adjudicated(event_game: Game, alice: Any) -> None:
    finishing.resign(event_game.pk, alice)
    before = snapshot(event_game)
    with pytest.raises(refusals.Refusal, match="the game is over"):
        finishing.adjudicate(event_game.pk, "red", "changed my mind")
    assert snapshot(event_game) == before
