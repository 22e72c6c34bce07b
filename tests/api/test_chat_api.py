"""Chat through the API (issue 25), as lichess's bot API has it: POST
/api/games/{id}/chat with room player or spectator, every check of the site's
chat, refusals as 400s that store nothing; the play scope needed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from chat.models import Line
from games import starting
from api import tokens

pytestmark = pytest.mark.django_db


def api_as(user: Any, scopes: list[str]) -> Client:
    _, token = tokens.make(user, "chat test", scopes)
    return Client(headers={"Authorization": f"Bearer {token}"})


def test_a_player_says_a_line_and_a_preset(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed="api-chat")
    api = api_as(alice, ["play"])
    said = api.post(f"/api/games/{game.pk}/chat", {"room": "player", "text": "good luck"}, content_type="application/json")
    assert said.status_code == 200 and said.json() == {"ok": True}
    preset = api.post(f"/api/games/{game.pk}/chat", {"room": "player", "preset": "havefun"},
                      content_type="application/json")
    assert preset.status_code == 200
    assert list(Line.objects.order_by("pk").values_list("room", "text", "preset")) == [
        (f"game:{game.pk}", "good luck", ""), (f"game:{game.pk}", "", "havefun")]


@pytest.mark.parametrize("body, status, words", [
    ({"room": "spectator", "text": "hi watchers"}, 400, "when the game is over"),
    ({"room": "player", "text": "x" * 141}, 400, "at most 140 characters"),
    ({"room": "player", "text": "see example.com"}, 400, "Links may be posted only"),
    ({"room": "partner", "text": "psst"}, 422, "room"),
    ({"room": "player", "preset": "myhand"}, 422, "preset"),
])
def test_refusals_say_why_and_store_nothing(alice: Any, bob: Any, body: dict[str, Any], status: int,
                                            words: str) -> None:
    game = starting.start_game(alice, bob, seed="api-chat")
    answer = api_as(alice, ["play"]).post(f"/api/games/{game.pk}/chat", body, content_type="application/json")
    assert answer.status_code == status and words in answer.json()["error"], answer.json()
    assert not Line.objects.exists()


def test_chat_needs_the_play_scope_and_a_game(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed="api-chat")
    body = {"room": "player", "text": "hello"}
    assert api_as(alice, ["read"]).post(f"/api/games/{game.pk}/chat", body,
                                        content_type="application/json").status_code == 403
    assert api_as(alice, ["play"]).post(f"/api/games/{game.pk + 9}/chat", body,
                                        content_type="application/json").status_code == 404
    assert not Line.objects.exists()
