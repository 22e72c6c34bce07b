"""Live play's statements are prepared on PostgreSQL (games/statements.py,
issue 24): after a few runs on a connection, PostgreSQL only binds and runs
them, rather than parsing and planning each one again."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games import moving, payloads, store
from games.models import Game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("services")]


def prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [statement for (statement,) in cursor.fetchall()]


def test_a_games_load_and_a_moves_write_are_prepared_once_run_often(game: Game, alice: Any, bob: Any) -> None:
    # The first plies' writes differ in their parameters' types (the first-move
    # window's time, then none): ten moves run the later form more than five times.
    for ply in range(10):
        loaded = store.load(game.pk)
        assert loaded is not None
        mover = alice if loaded.to_move == "red" else bob
        view = payloads.view_for(loaded, mover)
        moving.submit(game.pk, mover, ply, view["legal"][0])
    statements = prepared()
    assert any(s.startswith("SELECT CASE WHEN") and s.endswith("FOR UPDATE OF g") for s in statements), statements
    assert any(s.startswith("WITH move AS (INSERT") for s in statements), statements


def test_the_orms_own_queries_are_not_prepared(game: Game) -> None:
    """Django's cursors keep binding on the client (its SQL is not written for the server's)."""
    for _ in range(6):
        list(Game.objects.filter(pk=game.pk).values_list("ply", flat=True))
    assert not any('"games_game"."ply"' in s for s in prepared())
