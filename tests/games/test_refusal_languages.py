"""A refusal over the game socket speaks its player's language: a saved
preference first, else the handshake's Accept-Language; the rule stays named."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from aceweb.asgi import application
from games.models import Game
from preferences.languages import save_language
from tests.games.conftest import TIMEOUT, Socket, load_game
from tests.refusal_catalog import refusal_catalog  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services", "refusal_catalog")]


class AcceptingSocket(Socket):
    """A game socket whose handshake says which languages the browser accepts."""

    def __init__(self, game_id: int, cookie: str, accept_language: str) -> None:
        super().__init__(game_id, cookie)
        headers = [*self.comm.scope["headers"], (b"accept-language", accept_language.encode())]
        self.comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


async def test_a_player_who_saved_russian_gets_the_engines_refusal_in_russian_with_its_rule(
        game: Game, alice: Any, cookies: dict[str, str], sockets: Any) -> None:
    await database_sync_to_async(save_language)(alice, "ru")
    red, _ = await sockets(game.pk, cookies["alice"])
    error = await red.request({"type": "act", "ply": 0, "action": "JH e1-e2"})
    assert error == {"type": "error", "ply": 0,
                     "message": "JH e1-e2: JH ходит только пешкой «валет червей», а она стоит на h1 (R12)"}
    error = await red.request({"type": "act", "ply": 0, "action": "8S e8-f6"})
    assert error["message"] == "8S e8-f6: 8S — карта стороны «Чёрные», её нет на руке у стороны «Красные» (R7)"
    assert (await load_game(game.pk)).ply == 0


async def test_a_saved_language_wins_over_the_browsers(
        game: Game, alice: Any, cookies: dict[str, str]) -> None:
    await database_sync_to_async(save_language)(alice, "ru")
    red = AcceptingSocket(game.pk, cookies["alice"], "de")
    try:
        await red.open()
        error = await red.request({"type": "act", "ply": 0, "action": "JH e1-e2"})
        assert "пешкой «валет червей»" in error["message"] and error["message"].endswith("(R12)")
    finally:
        await red.close()


async def test_without_a_saved_language_the_handshakes_accept_language_is_spoken(
        game: Game, cookies: dict[str, str]) -> None:
    red = AcceptingSocket(game.pk, cookies["alice"], "de-DE,de;q=0.9,en;q=0.5")
    black = AcceptingSocket(game.pk, cookies["bob"], "de")
    try:
        await red.open()
        await black.open()
        await red.drain()
        error = await red.request({"type": "act", "ply": 0, "action": "8S e8-f6"})
        assert error["message"] == "8S e8-f6: 8S, eine Karte von Schwarz, ist nicht in der Hand von Rot (R7)"
        error = await black.request({"type": "act", "ply": 0, "action": "8S e8-f6"})
        assert error["message"] == "Rot ist am Zug (R7)"  # a refusal of the site's own, in German too
    finally:
        await red.close()
        await black.close()


async def test_a_player_with_no_language_named_gets_todays_english(
        game: Game, cookies: dict[str, str], sockets: Any) -> None:
    red, _ = await sockets(game.pk, cookies["alice"])
    error = await red.request({"type": "act", "ply": 0, "action": "8S e8-f6"})
    assert error["message"] == "8S e8-f6: 8S, a Black card, is not in Red's hand (R7)"


async def test_a_bad_frame_is_answered_in_the_sockets_language_too(game: Game, cookies: dict[str, str]) -> None:
    watcher = AcceptingSocket(game.pk, cookies["charlie"], "ru")
    try:
        await watcher.open()
        await watcher.send_text("{not json")
        assert (await watcher.receive())["message"] == "недопустимый JSON"
    finally:
        await watcher.close()
