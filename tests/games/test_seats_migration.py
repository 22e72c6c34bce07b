"""games 0006: red and black become Seat rows, on a database holding old games (issue 13).

The old games are made with the models as they were at 0005 (the migration
state's own apps), then migrated forward; the site's own code must then read,
show and play them. Migrating back restores the old columns.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

import engine
from games import moving, payloads, rematches, store
from games.models import Game, Seat

BEFORE = [("games", "0005_tournament_events")]
SEED = "migrated-game"


def newest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate the test database to ``targets``; the apps as they are there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def old_apps(transactional_db: None) -> Iterator[Any]:
    """The database at 0005; put back at the newest migrations afterwards.

    Games an earlier test's server process may have written after its flush
    are cleared first: going back refuses with a Rhombus game in the table,
    and a half-done migration back would leave every later test without the
    newer columns. The way back to the newest migrations runs whatever happens.
    """
    Game.objects.all().delete()
    try:
        yield migrate(BEFORE)
    finally:
        migrate(newest())


def old_games(apps: Any) -> dict[str, Any]:
    """A finished game with points and a rematch offer, and a running one at
    ply 2 with spent clocks and presence stamps, as 0005 stored them."""
    User, OldGame, OldMove = (apps.get_model(*name.split(".")) for name in ("auth.User", "games.Game", "games.Move"))
    alice, bob = (User.objects.create(username=name) for name in ("alice", "bob"))
    state = engine.new_game(SEED)
    first = engine.legal_actions(state)[0]
    after_one = engine.apply(state, first)
    second = engine.legal_actions(after_one)[0]
    now = timezone.now()
    running = OldGame.objects.create(
        red=alice, black=bob, seed=SEED, commitment=engine.commitment(SEED),
        position=dict(engine.to_json(engine.apply(after_one, second))), ply=2,
        red_clock_ms=598_000, black_clock_ms=601_500, turn_started_at=now,
        red_seen_at=now - timedelta(seconds=5), black_seen_at=now - timedelta(seconds=90),
        black_left_at=now - timedelta(seconds=80))
    OldMove.objects.create(game=running, ply=0, seat="red", action=str(first))
    OldMove.objects.create(game=running, ply=1, seat="black", action=str(second))
    finished = OldGame.objects.create(
        red=bob, black=alice, seed="old-finished", commitment=engine.commitment("old-finished"),
        position=dict(engine.to_json(engine.new_game("old-finished"))), status="finished", winner="black",
        reason="resignation", red_score=3, black_score=11, red_clock_ms=1, black_clock_ms=2,
        rematch_offered_by="red", finished=now)
    return {"alice": alice.pk, "bob": bob.pk, "running": running.pk, "finished": finished.pk}


def test_old_games_get_seats_clocks_points_and_offers(old_apps: Any) -> None:
    ids = old_games(old_apps)
    migrate(newest())  # games 0006 and all that depends on it
    running, finished = Game.objects.get(pk=ids["running"]), Game.objects.get(pk=ids["finished"])
    assert [(s.number, s.name, s.user_id) for s in running.table] == [(0, "red", ids["alice"]), (1, "black", ids["bob"])]
    assert [(s.name, s.user_id) for s in finished.table] == [("red", ids["bob"]), ("black", ids["alice"])]
    assert (running.kind, running.variant, running.players) == ("ace-in-the-hole", "classic", 2)
    assert running.clocks == {"red": 598_000, "black": 601_500} and running.score is None
    assert running.seat("red").seen_at is not None and running.seat("black").left_at is not None
    assert finished.score == {"red": 3, "black": 11} and finished.rematch_offers == ["red"]
    assert Seat.objects.count() == 4


def test_migrated_games_are_shown_and_played_on(old_apps: Any) -> None:
    ids = old_games(old_apps)
    migrate(newest())  # games 0006 and all that depends on it
    finished = store.load(ids["finished"])
    assert finished is not None
    shown = payloads.view_for(finished, finished.seat("black").user)["game"]
    assert (shown["players"], shown["winner"], shown["score"]) == (
        {"red": "bob", "black": "alice"}, "black", {"red": 3, "black": 11})
    assert shown["rematch"]["offered_by"] == ["red"] and shown["clock"]["ms"] == {"red": 1, "black": 2}
    running = Game.objects.get(pk=ids["running"])
    alice = running.seat("red").user
    view = payloads.view_for(running, alice)
    assert view["seat"] == "red" and view["legal"] and view["game"]["presence"] == {"red": True, "black": False}
    moved = moving.submit(running.pk, alice, 2, view["legal"][0])
    assert moved.ply == 3 and moved.moves.count() == 3
    assert rematches.rematch(finished.pk, finished.seat("black").user).rematch_game is not None  # the offer stood


def test_migrating_back_restores_red_and_black(old_apps: Any) -> None:
    ids = old_games(old_apps)
    migrate(newest())  # games 0006 and all that depends on it
    apps = migrate(BEFORE)
    OldGame = apps.get_model("games", "Game")
    running, finished = OldGame.objects.get(pk=ids["running"]), OldGame.objects.get(pk=ids["finished"])
    assert (running.red_id, running.black_id, running.red_clock_ms, running.black_clock_ms) == (
        ids["alice"], ids["bob"], 598_000, 601_500)
    assert running.black_left_at is not None and running.red_score is None
    assert (finished.red_score, finished.black_score, finished.rematch_offered_by) == (3, 11, "red")
