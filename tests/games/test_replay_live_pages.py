"""Only the replay of a running game follows it live: finished and imported replays stay put."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import finishing, records, starting

pytestmark = pytest.mark.django_db


def test_a_running_game_s_replay_names_its_game_socket(client: Client, alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed="live-replay")
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert f'data-live-socket="/ws/games/{game.pk}/?watch=1"' in page
    assert "data-live-note" in page


def test_a_finished_game_s_replay_does_not(client: Client, alice: Any, bob: Any) -> None:
    game = finishing.resign(starting.start_game(alice, bob, seed="live-replay").pk, alice)
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert "data-live-socket" not in page and "data-live-note" not in page
    assert "checked ✓" in page


def test_an_imported_record_does_not(client: Client, alice: Any, bob: Any) -> None:
    game = finishing.resign(starting.start_game(alice, bob, seed="live-replay").pk, alice)
    text = records.record_of(game).to_text()  # public once over: it has the seed
    page = client.post("/games/import/", {"record": text}).content.decode()
    assert "Imported record" in page and "data-live-socket" not in page
