"""GET /api/games/{id} and /api/games/{id}/record (api/public_games.py):
a spectator's view and the record, for anyone, and never a hidden card or a
running game's seed (R18, R19, RH29, RH30)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import finishing, payloads, records, starting, store
from games.models import Game
from tests.games.conftest import fast_password_hashing  # noqa: F401
from tests.games.test_no_leaks import CARD, check_message, hidden_from
from tests.games.test_records import play_moves
from tests.games.test_rhombus_records import CARD as RHOMBUS_CARD
from tests.games.test_rhombus_records import hidden_cards, play_random, public_cards, seated
from tests.helpers import shows_secret

pytestmark = pytest.mark.django_db

SEED = "tests-game-seed"


@pytest.fixture
def ace(alice: Any, bob: Any) -> Game:
    """Alice (Red) and Bob (Black), 15 plies in and still running."""
    game = starting.start_game(alice, bob, seed=SEED)
    return play_moves(game, {"red": alice, "black": bob}, 15, random.Random(7))


@pytest.fixture
def rhombus(alice: Any, bob: Any) -> Game:
    """Alice (SW) and Bob (NE) at Rhombus, 20 actions in and still running."""
    game = starting.start_game(alice, bob, seed="t4", setup=starting.Setup("rhombus"))
    return play_random(game, seated(game), 20, random.Random(4))


@pytest.fixture
def rhombus_teams(alice: Any, bob: Any, charlie: Any, dave: Any) -> Game:
    """A Rhombus team game (RH31), 24 actions in and still running."""
    game = starting.start_game(alice, bob, charlie, dave, seed="four", setup=starting.Setup("rhombus"))
    return play_random(game, seated(game), 24, random.Random(5))


def as_sent(payload: Any) -> Any:
    """A payload as JSON carries it (dates as text, tuples as lists)."""
    return json.loads(json.dumps(payload, default=str))


# --- The public state -----------------------------------------------------------


def test_the_state_is_exactly_what_a_spectator_s_socket_gets(ace: Game, api_as: Any) -> None:
    response = api_as(None).get(f"/api/games/{ace.pk}")
    assert response.status_code == 200
    assert response.json() == as_sent(payloads.view_for(store.load(ace.pk), None))
    assert response.json()["game"]["players"] == {"red": "alice", "black": "bob"}
    assert response.json()["ply"] == 15 and response.json()["game"]["status"] == "running"


def test_a_player_s_own_token_still_gets_the_spectator_s_view(ace: Game, alice: Any, api_as: Any) -> None:
    body = api_as(alice, "read").get(f"/api/games/{ace.pk}").json()
    assert body["seat"] is None and body["hand"] is None and body["legal"] == []
    assert body == as_sent(payloads.view_for(store.load(ace.pk), None))


def test_a_running_ace_game_s_state_shows_no_hidden_card_nor_the_seed(ace: Game, alice: Any, api_as: Any) -> None:
    position = Game.objects.get(pk=ace.pk).position
    assert hidden_from(position, None), "cards are still hidden, or the check proves nothing"
    for client in (api_as(None), api_as(alice, "read")):
        response = client.get(f"/api/games/{ace.pk}")
        # tests/games/test_no_leaks.py's check of a spectator's socket message
        check_message({"type": "sync", **response.json()}, None, {position["ply"]: position})
        assert SEED not in response.content.decode() and response.json()["game"]["seed"] is None


@pytest.mark.parametrize("fixture", ["rhombus", "rhombus_teams"])
def test_a_running_rhombus_game_s_state_shows_no_hand_nor_the_pile_nor_the_seed(
        fixture: str, request: pytest.FixtureRequest, api_as: Any) -> None:
    game: Game = request.getfixturevalue(fixture)
    hidden = hidden_cards(game)
    assert hidden, "cards are still hidden, or the check proves nothing"
    response = api_as(game.table[0].user, "read").get(f"/api/games/{game.pk}")
    text = response.content.decode()
    shown = set(RHOMBUS_CARD.findall(text))
    assert shown and shown <= public_cards(game), shown - public_cards(game)
    assert not shown & hidden
    assert all("hand" not in seat for seat in response.json()["seats"].values())
    assert not shows_secret(text, game.seed) and '"pile"' not in text and response.json()["game"]["seed"] is None


def test_a_finished_game_s_state_reveals_its_seed(ace: Game, bob: Any, api_as: Any) -> None:
    over = finishing.resign(ace.pk, bob)
    body = api_as(None).get(f"/api/games/{over.pk}").json()
    assert body["game"]["seed"] == SEED and body["game"]["status"] == "finished"
    assert (body["game"]["winner"], body["game"]["reason"]) == ("red", "resignation")
    assert body["hand"] is None and body["legal"] == []


# --- The record ------------------------------------------------------------------


def test_a_running_ace_game_s_record_is_the_public_one(ace: Game, api_as: Any) -> None:
    response = api_as(None).get(f"/api/games/{ace.pk}/record")
    assert response.status_code == 200
    body = response.json()
    assert (body["game_id"], body["status"], body["complete"]) == (ace.pk, "running", False)
    assert body["record"] == records.record_of(ace).to_json() and body["record"]["seed"] is None
    position = Game.objects.get(pk=ace.pk).position
    text = response.content.decode()
    shown = set(CARD.findall(text))
    played = {action.split()[0] for pile in position["discards"].values() for action in pile}
    assert shown and shown <= played  # the only cards are the actions played
    assert not shown & hidden_from(position, None) and SEED not in text


@pytest.mark.parametrize("fixture", ["rhombus", "rhombus_teams"])
def test_a_running_rhombus_game_s_record_is_the_public_one(
        fixture: str, request: pytest.FixtureRequest, api_as: Any) -> None:
    game: Game = request.getfixturevalue(fixture)
    response = api_as(game.table[0].user, "read").get(f"/api/games/{game.pk}/record")
    body = response.json()
    assert (body["status"], body["complete"], body["record"]["seed"]) == ("running", False, None)
    assert body["record"]["actions"] == [str(a) for a in records.record_of(game).actions]
    text = response.content.decode()
    shown = set(RHOMBUS_CARD.findall(text))
    assert shown <= public_cards(game) and not shown & hidden_cards(game)
    assert not shows_secret(text, game.seed)


@pytest.mark.parametrize("fixture", ["ace", "rhombus_teams"])
def test_a_finished_game_s_record_is_the_site_s_download_with_the_seed(
        fixture: str, request: pytest.FixtureRequest, api_as: Any) -> None:
    game: Game = request.getfixturevalue(fixture)
    over = finishing.resign(game.pk, game.table[1].user)
    body = api_as(None).get(f"/api/games/{over.pk}/record").json()
    assert (body["status"], body["complete"], body["record"]["seed"]) == ("finished", True, over.seed)
    download = Client().get(reverse("games:record-json", args=[over.pk])).json()
    assert body["record"] == download
    replayed = records.steps_of_record(records.read_record(json.dumps(body["record"])))  # checks the commitment
    assert len(replayed) == over.ply + 1 and replayed[-1]["hands"]


# --- Refusals --------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/games/{id}", "/api/games/{id}/record"])
def test_an_unknown_game_is_a_404_in_words(path: str, ace: Game, api_as: Any) -> None:
    missing = ace.pk + 1000
    response = api_as(None).get(path.format(id=missing))
    assert response.status_code == 404
    assert response.json() == {"error": f"there is no game {missing}"}
    assert list(Game.objects.values_list("pk", flat=True)) == [ace.pk]  # nothing made on the way


@pytest.mark.parametrize("path", ["/api/games/{id}", "/api/games/{id}/record"])
def test_a_game_id_that_is_no_number_is_an_address_with_nothing_at_it(path: str, api_as: Any) -> None:
    response = api_as(None).get(path.format(id="first"))
    assert response.status_code == 404
    assert response.json() == {"error": "nothing is at this address: the API's addresses are listed at /api/docs"}
    assert not Game.objects.exists()


@pytest.mark.parametrize("path", ["/api/games/{id}", "/api/games/{id}/record"])
def test_a_bad_token_is_a_401_even_on_a_public_read(path: str, ace: Game, client: Client) -> None:
    response = client.get(path.format(id=ace.pk), headers={"Authorization": "Bearer acew_not-a-token"},
                          HTTP_HOST="localhost")
    assert response.status_code == 401
    assert response.json() == {"error": "unknown or revoked token"}
    assert Game.objects.get(pk=ace.pk).ply == 15


@pytest.mark.parametrize(("path", "schema"), [("/api/games/{game_id}", "SpectatorView"),
                                              ("/api/games/{game_id}/record", "RecordOut")])
def test_each_read_is_documented_in_the_spec(path: str, schema: str, api_as: Any) -> None:
    spec = api_as(None).get("/api/openapi.json").json()
    operation = spec["paths"][path]["get"]
    assert operation["summary"] and len(operation["description"]) > 80
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"] == (
        f"#/components/schemas/{schema}")
    assert operation["responses"]["404"]["content"]["application/json"]["schema"]["$ref"].endswith("/Error")
