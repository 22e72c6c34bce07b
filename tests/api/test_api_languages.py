"""The API's error texts speak the language of Accept-Language and nothing
else (api/middleware.py, docs/api.md "Languages"): English without
one, whatever cookie, session or saved preference travels with the request."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from games import starting
from games.models import Game
from preferences.languages import save_language
from tests.refusal_catalog import refusal_catalog  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("refusal_catalog")]

ENGLISH = "8S e8-f6: 8S, a Black card, is not in Red's hand (R7)"


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    return starting.start_game(alice, bob, seed="tests-game-seed")  # alice is red, to move; 8S is Black's


def act(client: Any, game: Game, accept_language: str | None = None) -> Any:
    headers = {**client.headers, **({"Accept-Language": accept_language} if accept_language else {})}
    return client.client.post(f"/api/games/{game.pk}/actions", {"ply": 0, "action": "8S e8-f6"},
                              content_type="application/json", headers=headers)


def test_accept_language_de_words_a_refusal_in_german_naming_its_rule(game: Game, alice: Any, api_as: Any) -> None:
    response = act(api_as(alice, "play"), game, "de-CH, de;q=0.9")
    assert response.status_code == 400
    assert response.json() == {"error": "8S e8-f6: 8S, eine Karte von Schwarz, ist nicht in der Hand von Rot (R7)"}
    assert response["Content-Language"] == "de"


def test_a_site_refusal_follows_accept_language_too(game: Game, bob: Any, api_as: Any) -> None:
    response = act(api_as(bob, "play"), game, "ru")
    assert response.status_code == 400 and response.json()["error"] == "сейчас ход: Красные (R7)"


def test_without_accept_language_the_api_answers_in_english(game: Game, alice: Any, api_as: Any) -> None:
    response = act(api_as(alice, "play"), game)
    assert response.status_code == 400 and response.json() == {"error": ENGLISH}


def test_a_cookie_a_session_and_a_saved_language_never_change_the_apis_language(
        game: Game, alice: Any, api_as: Any) -> None:
    save_language(alice, "ru")
    client = api_as(alice, "play")
    client.client.force_login(alice)
    client.client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    assert act(client, game).json() == {"error": ENGLISH}
    assert act(client, game, "de").json()["error"].startswith("8S e8-f6: 8S, eine Karte von Schwarz")


def test_a_language_the_site_does_not_speak_is_answered_in_english(game: Game, alice: Any, api_as: Any) -> None:
    assert act(api_as(alice, "play"), game, "fr, *").json() == {"error": ENGLISH}


def test_the_guide_and_the_openapi_description_tell_clients_how_to_ask(api_as: Any) -> None:
    description = api_as(None).get("/api/openapi.json").json()["info"]["description"]
    assert "**Languages:**" in description and "Accept-Language" in description


def test_the_apis_other_errors_follow_accept_language_too(client: Any) -> None:
    headers = {"Authorization": "Bearer acew_not-a-token"}
    assert client.get("/api/account", headers=headers).json() == {"error": "unknown or revoked token"}
    german = client.get("/api/account", headers={**headers, "Accept-Language": "de"})
    assert german.status_code == 401 and german.json() == {"error": "unbekanntes oder widerrufenes Token"}
