"""A BOT account cannot play in the browser: its game socket shows its own
seat's view, but every action is refused and the game stays as it was
(games.consumers, api_only); the same account plays through the API."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import starting
from games.models import Game
from ladder import bot_accounts
from tests.games.conftest import services, session_cookie, sockets  # noqa: F401 - fixtures

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

ON_THE_SITE = "BOT accounts play through the API, not in the browser (see /api/docs)"


def bot_game(django_user_model: Any, opponent: Any) -> tuple[Game, str]:
    robo = django_user_model.objects.create_user("robo")
    bot_accounts.make_api_bot(robo)
    return starting.start_game(robo, opponent), session_cookie(robo)


async def test_a_bot_account_s_game_socket_shows_its_hand_and_refuses_every_action(
        django_user_model: Any, alice: Any, sockets: Any) -> None:
    game, cookie = await database_sync_to_async(bot_game)(django_user_model, alice)
    sock, sync = await sockets(game.pk, cookie)
    assert sync["seat"] == "red" and sync["hand"] and sync["legal"]  # its own view, as the API's
    for frame in ({"type": "act", "ply": 0, "action": sync["legal"][0]}, {"type": "resign"}, {"type": "abort"},
                  {"type": "flag"}, {"type": "claim"}, {"type": "rematch"}):
        refused = await sock.request(frame)
        assert refused["type"] == "error" and refused["message"] == ON_THE_SITE, frame
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert (stored.ply, stored.status) == (0, "running")
