"""BOT accounts (ladder/bot_accounts.py), as on lichess: a fresh account turns
into one for ever through the API; it plays challenges and the computer there
(rated too), never seeks or the pool, and nothing through the site's lobby
forms or socket. A person's token needs "play", a BOT's "bot:play"."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import starting
from games.models import Game
from ladder import bot_accounts, challenges, inputs, matchmaking, seeks
from ladder.models import Challenge, Player, PoolEntry, Seek, SeekEntry
from tests.api.conftest import assert_refused, lobby_rows, players_of
from tests.games.conftest import session_cookie
from tests.lobby.conftest import LobbySocket

pytestmark = pytest.mark.django_db

ON_THE_SITE = "BOT accounts play through the API (see /api/docs)"
NOT_SEEKS = "BOT accounts play challenges, the computer and tournaments, not seeks"


@pytest.fixture
def robo(django_user_model: Any) -> Any:
    """A BOT account: a fresh account upgraded."""
    user = django_user_model.objects.create_user("robo", "robo@example.org", "password")
    bot_accounts.make_api_bot(user)
    return user


# --- The upgrade ----------------------------------------------------------


def test_a_fresh_account_upgrades_once_and_shows_as_a_bot(alice: Any, api_as: Any) -> None:
    client = api_as(alice, "bot:play")
    response = client.post("/api/bot/account/upgrade")
    assert response.status_code == 200 and response.json()["bot"] is True
    assert client.get("/api/account").json()["bot"] is True
    assert bot_accounts.is_api_bot(alice)
    assert (alice.player.is_bot, Player.objects.get(pk=alice.pk).bot_level) == (True, "")
    before = lobby_rows()
    again = client.post("/api/bot/account/upgrade")
    assert (again.status_code, again.json()["error"]) == (400, "this account is a BOT account already")
    assert lobby_rows() == before


def test_an_account_that_has_played_cannot_upgrade(alice: Any, bob: Any, api_as: Any) -> None:
    starting.start_game(alice, bob)
    before = lobby_rows()
    response = api_as(alice, "bot:play").post("/api/bot/account/upgrade")
    assert response.status_code == 400
    assert "only an account that has never played a game can become a BOT account" in response.json()["error"]
    assert lobby_rows() == before and not bot_accounts.is_api_bot(alice)


def test_the_upgrade_needs_a_bot_play_token(alice: Any, api_as: Any) -> None:
    before = lobby_rows()
    response = api_as(alice, "play", "read").post("/api/bot/account/upgrade")
    assert response.status_code == 403
    assert response.json()["error"].startswith("this token lacks the 'bot:play' scope")
    assert lobby_rows() == before and api_as(alice, "read").get("/api/account").json()["bot"] is False


def test_upgrading_ends_the_accounts_seeks_seats_and_pool_wait(alice: Any, bob: Any, api_as: Any) -> None:
    own = seeks.create_seek(alice, "1d")
    theirs = seeks.create_seek(bob, "1d", rules="rhombus", players=4)
    seeks.join_seek(theirs.pk, alice)
    matchmaking.join(alice, "5+3")
    assert api_as(alice, "bot:play").post("/api/bot/account/upgrade").status_code == 200
    assert Seek.objects.get(pk=own.pk).status == "cancelled"
    assert list(SeekEntry.objects.values_list("user__username", flat=True)) == ["bob"]
    assert PoolEntry.objects.get().status == "left"


# --- Scopes ---------------------------------------------------------------


def test_a_persons_bot_play_token_cannot_play(alice: Any, bob: Any, api_as: Any) -> None:
    before = lobby_rows()
    response = api_as(alice, "bot:play").post("/api/challenges", {"username": "bob", "time_control": "1d"})
    assert_refused(response, 403, "this token lacks the 'play' scope", before)
    assert lobby_rows() == before


def test_a_bot_accounts_play_token_is_refused(robo: Any, alice: Any, api_as: Any) -> None:
    before = lobby_rows()
    response = api_as(robo, "play").post("/api/challenges", {"username": "alice", "time_control": "1d"})
    assert_refused(response, 403, "this is a BOT account: its tokens need the bot:play scope", before)
    assert lobby_rows() == before


# --- What a BOT account plays --------------------------------------------


def test_a_person_challenges_a_bot_account_and_it_accepts(alice: Any, robo: Any, api_as: Any) -> None:
    sent = api_as(alice, "play").post("/api/challenges", {"username": "robo", "time_control": "5+3",
                                                          "colour": "red"})
    assert sent.status_code == 200
    robo_api = api_as(robo, "bot:play")
    [incoming] = robo_api.get("/api/challenges").json()
    assert (incoming["challenger"], incoming["direction"]) == ("alice", "incoming")
    accepted = robo_api.post(f"/api/challenges/{incoming['id']}/accept")
    assert accepted.status_code == 200
    game = Game.objects.get()
    assert accepted.json()["game"] == game.pk and players_of(game.pk) == ["alice", "robo"] and game.rated


def test_a_bot_account_challenges_another(robo: Any, django_user_model: Any, api_as: Any) -> None:
    other = django_user_model.objects.create_user("tin", "tin@example.org", "password")
    bot_accounts.make_api_bot(other)
    sent = api_as(robo, "bot:play").post("/api/challenges", {"username": "tin", "time_control": "1d"}).json()
    accepted = api_as(other, "bot:play").post(f"/api/challenges/{sent['id']}/accept").json()
    assert sorted(players_of(accepted["game"])) == ["robo", "tin"]


def test_a_bot_account_plays_the_computer_rated(robo: Any, computer_players: dict[str, Any], api_as: Any) -> None:
    response = api_as(robo, "bot:play").post("/api/computer", {"level": "greedy", "time_control": "5+3",
                                                               "colour": "red", "rated": True})
    assert response.status_code == 200
    game = Game.objects.get()
    assert (players_of(game.pk), game.rated, game.running) == (["robo", "bot-greedy"], True, True)


def test_a_bot_account_cannot_seek(robo: Any, alice: Any, api_as: Any) -> None:
    client = api_as(robo, "bot:play")
    before = lobby_rows()
    assert_refused(client.post("/api/seeks", {"time_control": "5+3"}), 400, NOT_SEEKS, before)
    two = seeks.create_seek(alice, "5+3")
    four = seeks.create_seek(alice, "1d", rules="rhombus", players=4)
    before = lobby_rows()
    assert_refused(client.post(f"/api/seeks/{two.pk}/accept"), 400, NOT_SEEKS, before)
    assert_refused(client.post(f"/api/seeks/{four.pk}/accept"), 400, NOT_SEEKS, before)
    with pytest.raises(inputs.LobbyRefusal, match=NOT_SEEKS):
        seeks.join_seek(four.pk, robo)
    assert lobby_rows() == before


def test_a_bot_account_cannot_join_the_pool(robo: Any) -> None:
    before = lobby_rows()
    with pytest.raises(matchmaking.PoolRefusal,
                       match="BOT accounts play challenges, the computer and tournaments, not the pool"):
        matchmaking.join(robo, "5+3")
    assert lobby_rows() == before


# --- The site refuses it --------------------------------------------------


def site_as(user: Any) -> Client:
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    return client


@pytest.mark.parametrize(("path", "form"), [
    ("/lobby/seek/", {"time_control": "5+3", "rated": "1", "colour": "random", "rules": "ace-in-the-hole",
                      "players": "2"}),
    ("/@/alice/challenge/", {"time_control": "5+3", "rated": "1", "colour": "random"}),
    ("/lobby/computer/", {"level": "greedy", "time_control": "5+3", "colour": "red"}),
])
def test_the_sites_lobby_forms_refuse_a_bot_account(
        robo: Any, alice: Any, computer_players: dict[str, Any], path: str, form: dict[str, str]) -> None:
    before = lobby_rows()
    page = site_as(robo).post(path, form, follow=True)
    assert ON_THE_SITE in page.content.decode()
    assert lobby_rows() == before


def test_the_sites_challenge_answers_refuse_a_bot_account(alice: Any, robo: Any) -> None:
    challenge = challenges.create_challenge(alice, "robo", "1d")
    before = lobby_rows()
    page = site_as(robo).post(f"/lobby/challenge/{challenge.pk}/accept/", follow=True)
    assert ON_THE_SITE in page.content.decode()
    assert lobby_rows() == before and Challenge.objects.get().status == "pending"


def test_a_persons_view_of_a_bot_account_offers_the_challenge_form(
        alice: Any, robo: Any, computer_players: dict[str, Any]) -> None:
    client = site_as(alice)
    assert "data-challenge-form" in client.get("/@/robo/").content.decode()
    assert "data-challenge-form" not in client.get("/@/bot-greedy/").content.decode()


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_refuses_every_action_of_a_bot_account(alice: Any, robo: Any) -> None:
    seek = await database_sync_to_async(seeks.create_seek)(alice, "5+3")
    challenge = await database_sync_to_async(challenges.create_challenge)(alice, "robo", "1d")
    before = await database_sync_to_async(lobby_rows)()
    sock = LobbySocket(await database_sync_to_async(session_cookie)(robo))
    try:
        assert (await sock.open())["type"] == "seeks"  # it may watch
        assert [c["id"] for c in (await sock.receive())["challenges"]] == [challenge.pk]
        for frame in ({"type": "seek", "time_control": "5+3"}, {"type": "accept", "seek": seek.pk},
                      {"type": "join", "seek": seek.pk}, {"type": "cancel", "seek": seek.pk},
                      {"type": "accept_challenge", "challenge": challenge.pk},
                      {"type": "decline_challenge", "challenge": challenge.pk},
                      {"type": "challenge", "username": "alice", "time_control": "1d"},
                      {"type": "pool_join", "time_control": "5+3"}, {"type": "pool_leave"}):
            assert await sock.request(frame) == {"type": "error", "message": ON_THE_SITE}, frame
        assert await sock.request({"type": "ping"}) == {"type": "pong"}
    finally:
        await sock.close()
    assert await database_sync_to_async(lobby_rows)() == before
