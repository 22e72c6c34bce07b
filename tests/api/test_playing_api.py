"""Playing through the API (api/playing.py): a seat's own view, actions
through the same locked transaction and stale-ply guard as the socket, and
every refusal as a JSON error that leaves the game exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest

from games import finishing, starting
from games.models import Game, Move
from ladder import bot_accounts
from tests.games.test_no_leaks import check_message

pytestmark = pytest.mark.django_db


def snapshot(game_id: int) -> tuple[Any, ...]:
    """Everything a refused request must leave as it was."""
    game = Game.objects.get(pk=game_id)
    return (game.ply, game.status, game.position, game.clocks, game.winner, game.rated,
            list(Move.objects.filter(game_id=game_id).values_list("ply", "action")))


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    return starting.start_game(alice, bob, seed="api-play-seed")  # alice is red, to move


def test_a_seat_sees_its_own_hand_and_legal_actions_only(game: Game, alice: Any, bob: Any, api_as: Any) -> None:
    red = api_as(alice, "play").get(f"/api/games/{game.pk}/seat").json()
    black = api_as(bob, "play").get(f"/api/games/{game.pk}/seat").json()
    position = Game.objects.get(pk=game.pk).position
    assert red["seat"] == "red" and red["hand"] == position["hands"]["red"] and red["legal"]
    assert black["seat"] == "black" and black["hand"] == position["hands"]["black"] and black["legal"] == []
    check_message({"type": "sync", **red}, "red", {0: position})  # no card Red may not see (R18)
    check_message({"type": "sync", **black}, "black", {0: position})
    assert red["game"]["seed"] is None  # the seed stays secret while the game runs (R19)


def test_an_action_is_played_and_answered_with_the_new_view(game: Game, alice: Any, api_as: Any) -> None:
    client = api_as(alice, "play")
    action = client.get(f"/api/games/{game.pk}/seat").json()["legal"][0]
    response = client.post(f"/api/games/{game.pk}/actions", {"ply": 0, "action": action})
    assert response.status_code == 200
    assert response.json()["ply"] == 1 and response.json()["discards"]["red"] == [action]
    assert list(Move.objects.filter(game=game).values_list("ply", "seat", "action")) == [(0, "red", action)]


@pytest.mark.parametrize(("body", "status", "message"), [
    ({"ply": 0, "action": "AS a1-a8"}, 400, "R"),  # not a card in the hand: the rule it breaks
    ({"ply": 3, "action": "x"}, 400, "stale ply 3: the game is at ply 0"),
    ({"ply": 0}, 422, "action"),
    ({"ply": "zero", "action": "x"}, 422, "ply"),
    ({"ply": 0, "action": "x" * 65}, 422, "action"),
    ({"ply": 0, "action": ""}, 422, "action"),
])
def test_bad_actions_are_refused_in_words_and_change_nothing(
        game: Game, alice: Any, api_as: Any, body: dict[str, Any], status: int, message: str) -> None:
    before = snapshot(game.pk)
    response = api_as(alice, "play").post(f"/api/games/{game.pk}/actions", body)
    assert response.status_code == status
    assert message in response.json()["error"]
    assert snapshot(game.pk) == before


def test_an_illegal_action_names_the_rule_it_breaks(game: Game, alice: Any, api_as: Any) -> None:
    hand = Game.objects.get(pk=game.pk).position["hands"]["red"]
    response = api_as(alice, "play").post(f"/api/games/{game.pk}/actions", {"ply": 0, "action": f"{hand[0]} a1-a1"})
    assert response.status_code == 400 and "(R" in response.json()["error"]


def test_it_must_be_your_turn(game: Game, bob: Any, api_as: Any) -> None:
    before = snapshot(game.pk)
    response = api_as(bob, "play").post(f"/api/games/{game.pk}/actions", {"ply": 0, "action": "2H a8-a7"})
    assert response.status_code == 400 and "it is Red's turn" in response.json()["error"]
    assert snapshot(game.pk) == before


@pytest.mark.parametrize("path", ["seat", "actions", "resign", "abort", "claim-victory", "claim-time", "rematch"])
def test_another_players_game_is_a_403_and_an_unknown_one_a_404(
        game: Game, charlie: Any, api_as: Any, path: str) -> None:
    client = api_as(charlie, "play")
    call = client.get if path == "seat" else client.post
    before = snapshot(game.pk)
    refused = call(f"/api/games/{game.pk}/{path}", *([] if path == "seat" else [{"ply": 0, "action": "x"}]))
    assert refused.status_code == 403 and f"you have no seat in game {game.pk}" in refused.json()["error"]
    missing = call(f"/api/games/999999/{path}", *([] if path == "seat" else [{"ply": 0, "action": "x"}]))
    assert missing.status_code == 404 and "there is no game 999999" in missing.json()["error"]
    assert snapshot(game.pk) == before


def test_playing_needs_the_play_scope(game: Game, alice: Any, api_as: Any) -> None:
    before = snapshot(game.pk)
    for scopes in (("read",), ("tournament:write",), ("bot:play",)):
        response = api_as(alice, *scopes).post(f"/api/games/{game.pk}/resign")
        assert response.status_code == 403 and "lacks the 'play' scope" in response.json()["error"]
    assert api_as(None).post(f"/api/games/{game.pk}/resign").status_code == 401
    assert snapshot(game.pk) == before


def test_a_bot_account_plays_with_bot_play_and_not_play(django_user_model: Any, bob: Any, api_as: Any) -> None:
    robo = django_user_model.objects.create_user("robo")
    bot_accounts.make_api_bot(robo)
    game = starting.start_game(robo, bob)
    refused = api_as(robo, "play").get(f"/api/games/{game.pk}/seat")
    assert refused.status_code == 403 and "BOT account" in refused.json()["error"]
    assert api_as(robo, "bot:play").get(f"/api/games/{game.pk}/seat").json()["seat"] == "red"


def test_resign_ends_the_game_for_the_other_side(game: Game, bob: Any, api_as: Any) -> None:
    response = api_as(bob, "play").post(f"/api/games/{game.pk}/resign")
    assert response.status_code == 200
    assert response.json()["game"]["winner"] == "red" and response.json()["game"]["reason"] == "resignation"
    assert response.json()["game"]["seed"] == "api-play-seed"  # public once over


def test_abort_before_the_first_moves_and_not_after(game: Game, alice: Any, bob: Any, api_as: Any) -> None:
    red = api_as(alice, "play")
    action = red.get(f"/api/games/{game.pk}/seat").json()["legal"][0]
    red.post(f"/api/games/{game.pk}/actions", {"ply": 0, "action": action})
    black = api_as(bob, "play")
    reply = black.get(f"/api/games/{game.pk}/seat").json()["legal"][0]
    black.post(f"/api/games/{game.pk}/actions", {"ply": 1, "action": reply})
    before = snapshot(game.pk)
    late = red.post(f"/api/games/{game.pk}/abort")
    assert late.status_code == 400 and "too late to abort" in late.json()["error"]
    assert snapshot(game.pk) == before
    fresh = starting.start_game(alice, bob)
    aborted = api_as(bob, "play").post(f"/api/games/{fresh.pk}/abort")
    assert aborted.status_code == 200 and aborted.json()["game"]["status"] == "aborted"


def test_claims_are_refused_while_there_is_nothing_to_claim(game: Game, alice: Any, bob: Any, api_as: Any) -> None:
    unstarted = api_as(bob, "play").post(f"/api/games/{game.pk}/claim-victory")
    assert unstarted.status_code == 400 and "the game has not started" in unstarted.json()["error"]
    for ply, user in enumerate((alice, bob)):
        view = api_as(user, "play").get(f"/api/games/{game.pk}/seat").json()
        api_as(user, "play").post(f"/api/games/{game.pk}/actions", {"ply": ply, "action": view["legal"][0]})
    before = snapshot(game.pk)
    victory = api_as(alice, "play").post(f"/api/games/{game.pk}/claim-victory")
    assert victory.status_code == 400 and "it is your turn" in victory.json()["error"]
    on_time = api_as(bob, "play").post(f"/api/games/{game.pk}/claim-time")
    assert on_time.status_code == 400 and "still has time" in on_time.json()["error"]
    assert snapshot(game.pk) == before


def test_a_rematch_is_offered_then_accepted(game: Game, alice: Any, bob: Any, api_as: Any) -> None:
    early = api_as(alice, "play").post(f"/api/games/{game.pk}/rematch")
    assert early.status_code == 400 and "still running" in early.json()["error"]
    finishing.resign(game.pk, alice)
    assert api_as(alice, "play").post(f"/api/games/{game.pk}/rematch").json()["game"]["rematch"]["game_id"] is None
    accepted = api_as(bob, "play").post(f"/api/games/{game.pk}/rematch").json()
    new = Game.objects.get(pk=accepted["game"]["rematch"]["game_id"])
    assert [seat.user for seat in new.table] == [bob, alice]  # colours swap


@pytest.mark.django_db(transaction=True)  # the stream's checks read on the sockets' database threads
@pytest.mark.parametrize(("path", "scopes", "status", "message"), [
    ("/api/stream/event", (), 401, "send a personal access token"),
    ("/api/stream/event", ("tournament:write",), 403, "lacks the 'read' scope"),
    ("/api/stream/game/{game}", ("read",), 403, "lacks the 'play' scope"),
    ("/api/stream/game/{other}", ("play",), 403, "you have no seat in game"),
    ("/api/stream/game/999999", ("play",), 404, "there is no game 999999"),
])
def test_streams_refuse_in_json_before_streaming(
        game: Game, alice: Any, bob: Any, charlie: Any, api_as: Any, path: str, scopes: tuple[str, ...],
        status: int, message: str) -> None:
    """Refused before a stream begins: a JSON error, not an NDJSON stream
    (the streams themselves run under daphne: tests/api/test_streams.py)."""
    other = starting.start_game(bob, charlie)
    client = api_as(alice, *scopes) if scopes else api_as(None)
    response = client.get(path.format(game=game.pk, other=other.pk))
    assert response.status_code == status
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert message in response.json()["error"]
