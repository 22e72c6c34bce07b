"""A username is shown as its owner wrote it: the replay and import pages once
wrote "Nova_blk won" for nova_blk (issue 10, 5.3)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import finishing, starting
from tests.conftest import make_user
from tests.games.conftest import fast_password_hashing  # noqa: F401 (shared)

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_game_id(django_user_model: Any) -> int:
    nova, bob = make_user(django_user_model, "nova_blk"), make_user(django_user_model, "bob")
    game = starting.start_game(nova, bob, seed="as-written")
    finishing.resign(game.pk, bob)
    return int(game.pk)


def test_the_replay_page_writes_the_winner_as_written(client: Client, finished_game_id: int) -> None:
    html = client.get(f"/games/{finished_game_id}/replay/").content.decode()
    assert "nova_blk (red) won by resignation (R17)" in html
    assert "Nova_blk" not in html


def test_an_imported_record_writes_the_winner_as_written(client: Client, finished_game_id: int) -> None:
    record = client.get(f"/games/{finished_game_id}/record.txt").content.decode()
    response = client.post("/games/import/", {"record": record})
    assert response.status_code == 200
    html = response.content.decode()
    assert "nova_blk (red) won by resignation (R17)" in html
    assert "Nova_blk" not in html
