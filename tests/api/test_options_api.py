"""GET /api/games/{id}/options (api/playing.py, games/steps.py; issue 24):
a Rhombus seat's view names the card sets that have a legal action, and a
program builds the action use by use, as the game page does. Only the token's
own seat, when it is to move, is answered, from its own cards (RH29)."""

from __future__ import annotations

import json
import random
import re
from typing import Any
from urllib.parse import urlencode

import pytest

from games import starting
from games.models import Game, Move
from ladder import bot_accounts
from tests.api.test_playing_api import snapshot
from tests.rhombus_steps import build, legal_texts

pytestmark = pytest.mark.django_db

CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[6-9AJQK])[HDSC](?![0-9A-Za-z])")


@pytest.fixture
def rhombus(alice: Any, bob: Any) -> Game:
    return starting.start_game(alice, bob, seed="api-options", setup=starting.Setup("rhombus"))  # alice is SW, to move


def options_path(game_id: int, ply: int, cards: list[str], done: list[str]) -> str:
    # urlencode writes "+" as %2B, as a client must: a bare "+" in a query is a space.
    return f"/api/games/{game_id}/options?" + urlencode({"ply": ply, "cards": ",".join(cards), "done": ",".join(done)})


def own_cards(game_id: int, seat: str) -> set[str]:
    info = Game.objects.get(pk=game_id).position["seats"][seat]
    return set(info["table"] + info["hand"])


def test_a_seat_builds_and_plays_rhombus_actions_step_by_step(
        rhombus: Game, alice: Any, bob: Any, api_as: Any) -> None:
    clients = {"SW": api_as(alice, "play"), "NE": api_as(bob, "play")}
    rng = random.Random(7)
    for ply in range(8):
        game = Game.objects.get(pk=rhombus.pk)
        mover = game.to_move
        view = clients[mover].get(f"/api/games/{game.pk}/seat").json()
        assert "legal" not in view and view["sets"] and view["ply"] == ply
        legal, mine = legal_texts(game), own_cards(game.pk, mover)

        def ask(cards: list[str], done: list[str]) -> dict[str, Any]:
            response = clients[mover].get(options_path(game.pk, ply, cards, done))
            assert response.status_code == 200, response.json()
            answer: dict[str, Any] = response.json()
            assert (answer["ply"], answer["cards"], answer["done"]) == (ply, cards, done)
            assert set(CARD.findall(json.dumps(answer))) <= mine  # its own cards only (RH29)
            return answer

        text = build(ask, view["sets"], rng)
        played = clients[mover].post(f"/api/games/{game.pk}/actions", {"ply": ply, "action": text})
        assert played.status_code == 200 and played.json()["ply"] == ply + 1
        assert Move.objects.get(game_id=game.pk, ply=ply).action in legal  # the canonical text (N1)


def test_only_the_seat_to_move_is_answered_and_nothing_changes(
        rhombus: Game, bob: Any, charlie: Any, alice: Any, api_as: Any) -> None:
    cards = api_as(alice, "play").get(f"/api/games/{rhombus.pk}/seat").json()["sets"][0]
    before = snapshot(rhombus.pk)
    other_seat = api_as(bob, "play").get(options_path(rhombus.pk, 0, cards, []))
    assert other_seat.status_code == 400 and other_seat.json() == {"error": "it is SW's turn (RH10)"}
    stranger = api_as(charlie, "play").get(options_path(rhombus.pk, 0, cards, []))
    assert stranger.status_code == 403 and f"you have no seat in game {rhombus.pk}" in stranger.json()["error"]
    assert api_as(None).get(options_path(rhombus.pk, 0, cards, [])).status_code == 401
    assert api_as(alice, "read").get(options_path(rhombus.pk, 0, cards, [])).status_code == 403
    missing = api_as(alice, "play").get(options_path(999999, 0, cards, []))
    assert missing.status_code == 404 and "there is no game 999999" in missing.json()["error"]
    stale = api_as(alice, "play").get(options_path(rhombus.pk, 2, cards, []))
    assert stale.status_code == 400 and "stale ply 2: the game is at ply 0" in stale.json()["error"]
    too_many = api_as(alice, "play").get(options_path(rhombus.pk, 0, ["6H", "7H", "8H", "9H", "10H"], []))
    assert too_many.status_code == 400 and '"cards" must be a list of one to four' in too_many.json()["error"]
    unreadable = api_as(alice, "play").get(options_path(rhombus.pk, 0, cards, ["nonsense"]))
    assert unreadable.status_code == 400 and "nonsense" in unreadable.json()["error"]
    for response in (other_seat, stranger, stale):
        assert not CARD.findall(json.dumps(response.json()))
    assert snapshot(rhombus.pk) == before


def test_the_public_view_of_a_rhombus_game_has_no_list_and_no_sets(rhombus: Game, api_as: Any) -> None:
    body = api_as(None).get(f"/api/games/{rhombus.pk}").json()
    assert body["seat"] is None and "legal" not in body and body["sets"] == []


def test_ace_in_the_hole_is_refused_the_builder(alice: Any, bob: Any, api_as: Any) -> None:
    game = starting.start_game(alice, bob, seed="api-options")
    view = api_as(alice, "play").get(f"/api/games/{game.pk}/seat").json()
    assert view["legal"] and "sets" not in view
    refused = api_as(alice, "play").get(options_path(game.pk, 0, [view["hand"][0]], []))
    assert refused.status_code == 400 and "only Rhombus actions are built use by use" in refused.json()["error"]


def test_a_bot_account_builds_rhombus_actions_with_bot_play(django_user_model: Any, bob: Any, api_as: Any) -> None:
    robo = django_user_model.objects.create_user("robo")
    bot_accounts.make_api_bot(robo)
    game = starting.start_game(robo, bob, seed="api-options", setup=starting.Setup("rhombus"))
    client = api_as(robo, "bot:play")
    view = client.get(f"/api/games/{game.pk}/seat").json()
    text = build(lambda cards, done: client.get(options_path(game.pk, 0, cards, done)).json(), view["sets"],
                 random.Random(3))
    assert client.post(f"/api/games/{game.pk}/actions", {"ply": 0, "action": text}).status_code == 200
