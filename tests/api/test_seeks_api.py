"""The lobby through the API (api/seeks.py): seeks, challenges and the
computer, with the lobby's own checks; every refusal leaves the lobby as it was."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from ladder import challenges, seeks
from ladder.models import Challenge, Seek, SeekEntry
from tests.api.conftest import assert_refused, lobby_rows, players_of

pytestmark = pytest.mark.django_db


# --- Seeks ----------------------------------------------------------------


def test_anyone_reads_the_open_seeks_and_the_creator_sees_hers(alice: Any, api_as: Any) -> None:
    seeks.create_seek(alice, "5+3", rated=False, colour="red")
    [seen] = api_as(None).get("/api/seeks").json()
    assert (seen["creator"], seen["rated"], seen["colour"], seen["mine"]) == ("alice", False, "red", False)
    assert seen["time_control"] == {"key": "5+3", "label": "5+3", "speed": "blitz"}
    assert seen["rules"] == {"key": "ace-in-the-hole", "title": "Ace in the Hole"}
    assert [seek["mine"] for seek in api_as(alice, "read").get("/api/seeks").json()] == [True]


def test_a_seek_made_through_the_api_is_in_the_lobby(alice: Any, api_as: Any) -> None:
    response = api_as(alice, "play").post("/api/seeks", {"time_control": "10+5", "colour": "black",
                                                         "rated": False})
    assert response.status_code == 200
    body = response.json()
    assert (body["creator"], body["colour"], body["rated"], body["mine"], body["players"]) == (
        "alice", "black", False, True, 2)
    seek = Seek.objects.get()
    assert (seek.pk, seek.creator, seek.time_control, seek.status) == (body["id"], alice, "10+5", "open")
    assert [s["id"] for s in seeks.open_seeks()] == [seek.pk]


def test_accepting_a_two_player_seek_starts_the_game(alice: Any, bob: Any, api_as: Any) -> None:
    seek = seeks.create_seek(alice, "5+3", colour="red")
    response = api_as(bob, "play").post(f"/api/seeks/{seek.pk}/accept")
    assert response.status_code == 200
    game = Game.objects.get()
    assert response.json() == {"game": game.pk, "url": f"/games/{game.pk}/", "seek": None}
    assert players_of(game.pk) == ["alice", "bob"] and game.time_control.key == "5+3"
    seek.refresh_from_db()
    assert (seek.status, seek.game_id) == ("accepted", game.pk)


def test_a_four_player_seek_is_joined_seat_by_seat_and_starts_on_the_fourth(
        alice: Any, bob: Any, charlie: Any, dave: Any, api_as: Any) -> None:
    made = api_as(alice, "play").post("/api/seeks", {"time_control": "1d", "rules": "rhombus", "players": 4,
                                                     "partner": "charlie"}).json()
    assert (made["players"], made["joined"], made["partner"], made["held"]) == (4, ["alice"], "charlie", True)
    joined = api_as(bob, "play").post(f"/api/seeks/{made['id']}/accept").json()
    assert joined["game"] is None and joined["url"] is None
    assert (joined["seek"]["joined"], joined["seek"]["joined_me"]) == (["alice", "bob"], True)
    assert api_as(charlie, "play").post(f"/api/seeks/{made['id']}/accept").json()["seek"]["held"] is False
    assert not Game.objects.exists()
    started = api_as(dave, "play").post(f"/api/seeks/{made['id']}/accept").json()
    game = Game.objects.get()
    assert (started["game"], started["url"]) == (game.pk, f"/games/{game.pk}/")
    seated = players_of(game.pk)
    assert {seated[0], seated[2]} in ({"alice", "charlie"}, {"bob", "dave"})  # partners sit opposite
    assert Seek.objects.get().status == "accepted"


def test_leaving_a_four_player_seek_frees_the_seat(alice: Any, bob: Any, api_as: Any) -> None:
    seek = seeks.create_seek(alice, "1d", rules="rhombus", players=4)
    bob_api = api_as(bob, "play")
    bob_api.post(f"/api/seeks/{seek.pk}/accept")
    response = bob_api.post(f"/api/seeks/{seek.pk}/leave")
    assert response.status_code == 200
    assert (response.json()["joined"], response.json()["joined_me"]) == (["alice"], False)
    assert list(SeekEntry.objects.values_list("user__username", flat=True)) == ["alice"]


def test_the_creator_cancels_her_seek(alice: Any, api_as: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    response = api_as(alice, "play").delete(f"/api/seeks/{seek.pk}")
    assert (response.status_code, response.json()) == (200, {"ok": True})
    assert Seek.objects.get().status == "cancelled" and seeks.open_seeks() == []


def test_no_token_is_a_401_and_a_read_token_cannot_seek(alice: Any, api_as: Any) -> None:
    before = lobby_rows()
    assert_refused(api_as(None).post("/api/seeks", {"time_control": "5+3"}), 401,
                   "send a personal access token", before)
    assert_refused(api_as(alice, "read").post("/api/seeks", {"time_control": "5+3"}), 403,
                   "this token lacks the 'play' scope", before)


@pytest.mark.parametrize(("who", "action", "status", "words"), [
    ("bob", "cancel", 403, "only its creator can cancel a seek"),  # not yours: 403 (docs/api.md)
    ("alice", "accept", 400, "that is your own seek"),
    ("bob", "leave", 403, "you have not joined that seek"),
    ("alice", "leave", 400, "you created that seek: cancel it"),
])
def test_what_the_lobby_refuses_on_a_seek_changes_nothing(
        alice: Any, bob: Any, api_as: Any, who: str, action: str, status: int, words: str) -> None:
    seek = seeks.create_seek(alice, "5+3")
    client = api_as({"alice": alice, "bob": bob}[who], "play")
    before = lobby_rows()
    response = (client.delete(f"/api/seeks/{seek.pk}") if action == "cancel"
                else client.post(f"/api/seeks/{seek.pk}/{action}"))
    assert_refused(response, status, words, before)


def test_a_closed_seek_is_refused(alice: Any, bob: Any, api_as: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    seeks.cancel_seek(seek.pk, alice)
    before = lobby_rows()
    assert_refused(api_as(bob, "play").post(f"/api/seeks/{seek.pk}/accept"), 400,
                   "that seek is no longer open (cancelled)", before)


@pytest.mark.parametrize("action", ["cancel", "accept", "leave"])
def test_an_unknown_seek_is_a_404(alice: Any, api_as: Any, action: str) -> None:
    seeks.create_seek(alice, "5+3")
    client = api_as(alice, "play")
    before = lobby_rows()
    response = client.delete("/api/seeks/999999") if action == "cancel" else client.post(
        f"/api/seeks/999999/{action}")
    assert_refused(response, 404, "there is no seek 999999", before)


@pytest.mark.parametrize(("body", "status", "words"), [
    ({}, 422, "time_control: Field required"),
    ({"time_control": "5+3", "rated": "perhaps"}, 422, "rated: Input should be a valid boolean"),
    ({"time_control": "9+9"}, 422, "body.time_control: Input should be '1+0', '3+2'"),
    ({"time_control": "5+3", "colour": "green"}, 422, "body.colour: Input should be 'red', 'black' or 'random'"),
    ({"time_control": "5+3", "rules": "chess"}, 422, "body.rules: Input should be 'ace-in-the-hole'"),
    ({"time_control": "5+3", "players": 4}, 400, "Ace in the Hole is played by 2 players, not 4"),
    ({"time_control": "5+3", "partner": "bob"}, 400, "only a 4-player seek has a partner"),
])
def test_bad_seek_input_is_refused_in_words_and_makes_nothing(
        alice: Any, bob: Any, api_as: Any, body: dict[str, Any], status: int, words: str) -> None:
    assert_refused(api_as(alice, "play").post("/api/seeks", body), status, words, lobby_rows())
    assert not Seek.objects.exists()


def test_a_seek_id_that_is_no_number_is_an_address_with_nothing_at_it(alice: Any, api_as: Any) -> None:
    response = api_as(alice, "play").post("/api/seeks/first/accept")
    assert response.status_code == 404 and "/api/docs" in response.json()["error"]


def test_a_second_seek_of_the_same_game_and_control_is_refused(alice: Any, api_as: Any) -> None:
    client = api_as(alice, "play")
    client.post("/api/seeks", {"time_control": "5+3"})
    assert_refused(client.post("/api/seeks", {"time_control": "5+3"}), 400,
                   "you already have an open Ace in the Hole 5+3 seek", lobby_rows())


# --- Challenges -----------------------------------------------------------


def test_a_challenge_is_sent_seen_by_both_and_accepted(alice: Any, bob: Any, api_as: Any) -> None:
    sent = api_as(alice, "play").post("/api/challenges", {"username": "bob", "time_control": "10+5",
                                                          "colour": "red"})
    assert sent.status_code == 200
    assert (sent.json()["challenged"], sent.json()["direction"], sent.json()["status"]) == (
        "bob", "outgoing", "pending")
    [seen] = api_as(bob, "read").get("/api/challenges").json()
    assert (seen["id"], seen["challenger"], seen["direction"]) == (sent.json()["id"], "alice", "incoming")
    accepted = api_as(bob, "play").post(f"/api/challenges/{seen['id']}/accept")
    assert accepted.status_code == 200
    game = Game.objects.get()
    assert (accepted.json()["game"], accepted.json()["url"]) == (game.pk, f"/games/{game.pk}/")
    assert (accepted.json()["challenge"]["status"], accepted.json()["challenge"]["game"]) == ("accepted", game.pk)
    assert players_of(game.pk) == ["alice", "bob"]
    assert api_as(bob, "read").get("/api/challenges").json() == []


def test_the_challenged_declines_and_the_challenger_cancels(alice: Any, bob: Any, api_as: Any) -> None:
    first = challenges.create_challenge(alice, "bob", "1d")
    declined = api_as(bob, "play").post(f"/api/challenges/{first.pk}/decline")
    assert (declined.status_code, declined.json()["status"]) == (200, "declined")
    second = challenges.create_challenge(alice, "bob", "1d")
    cancelled = api_as(alice, "play").post(f"/api/challenges/{second.pk}/cancel")
    assert (cancelled.status_code, cancelled.json()["status"]) == (200, "cancelled")
    assert list(Challenge.objects.order_by("pk").values_list("status", flat=True)) == ["declined", "cancelled"]
    assert not Game.objects.exists()


def test_a_four_player_challenge_starts_when_all_three_accept(
        alice: Any, bob: Any, charlie: Any, dave: Any, api_as: Any) -> None:
    sent = api_as(alice, "play").post("/api/challenges", {
        "players": 4, "partner": "bob", "opponents": ["charlie", "dave"], "time_control": "1d",
        "rules": "rhombus", "colour": "red"}).json()
    assert (sent["players"], sent["partner"], sent["opponents"]) == (4, "bob", ["charlie", "dave"])
    for invitee in (bob, charlie):
        answer = api_as(invitee, "play").post(f"/api/challenges/{sent['id']}/accept").json()
        assert answer["game"] is None and answer["challenge"]["answered"] is True
    assert not Game.objects.exists()
    last = api_as(dave, "play").post(f"/api/challenges/{sent['id']}/accept").json()
    game = Game.objects.get()
    assert last["game"] == game.pk
    assert players_of(game.pk) == ["alice", "charlie", "bob", "dave"]  # partners opposite, Red's team first


def test_challenges_need_a_token_with_the_right_scope(alice: Any, bob: Any, api_as: Any) -> None:
    challenges.create_challenge(alice, "bob", "1d")
    before = lobby_rows()
    assert_refused(api_as(None).get("/api/challenges"), 401, "send a personal access token", before)
    assert_refused(api_as(alice, "read").post("/api/challenges", {"username": "charlie", "time_control": "1d"}),
                   403, "this token lacks the 'play' scope", before)
    challenge = Challenge.objects.get()
    assert_refused(api_as(bob, "read").post(f"/api/challenges/{challenge.pk}/accept"), 403,
                   "this token lacks the 'play' scope", before)


@pytest.mark.parametrize(("who", "answer", "words"), [
    ("charlie", "cancel", "only the challenger can cancel a challenge"),
    ("bob", "cancel", "only the challenger can cancel a challenge"),
    ("charlie", "accept", "only the challenged player can accept a challenge"),
    ("alice", "accept", "only the challenged player can accept a challenge"),
    ("charlie", "decline", "only the challenged player can decline a challenge"),
])
def test_someone_elses_challenge_is_refused_and_left_pending(
        alice: Any, bob: Any, charlie: Any, api_as: Any, who: str, answer: str, words: str) -> None:
    challenge = challenges.create_challenge(alice, "bob", "1d")
    client = api_as({"alice": alice, "bob": bob, "charlie": charlie}[who], "play")
    before = lobby_rows()
    assert_refused(client.post(f"/api/challenges/{challenge.pk}/{answer}"), 403, words, before)  # not yours
    assert Challenge.objects.get().status == "pending"


@pytest.mark.parametrize("answer", ["accept", "decline", "cancel"])
def test_an_unknown_challenge_is_a_404(alice: Any, api_as: Any, answer: str) -> None:
    before = lobby_rows()
    assert_refused(api_as(alice, "play").post(f"/api/challenges/424242/{answer}"), 404,
                   "there is no challenge 424242", before)


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"username": "bob"}, 422, "time_control: Field required"),
    ({"username": "bob", "time_control": "1d", "players": 3}, 422, "players: Input should be 2 or 4"),
    ({"time_control": "1d"}, 422, "body.username: Field required"),  # the spec requires it (2 players)
    ({"username": "nobody", "time_control": "1d"}, 404, "there is no player called 'nobody'"),
    ({"players": 4, "partner": "bob", "time_control": "1d", "rules": "rhombus"}, 422,
     "body.opponents: Field required"),
    ({"username": "alice", "time_control": "1d"}, 400, "you cannot challenge yourself"),
    ({"username": "bot-greedy", "time_control": "1d"}, 400, "bot-greedy is a computer player"),
    ({"username": "bob", "time_control": "9+9"}, 422, "body.time_control: Input should be"),
    ({"players": 4, "partner": "bob", "opponents": ["charlie"], "time_control": "1d", "rules": "rhombus"},
     400, "a 4-player challenge names two opponents"),
    ({"players": 4, "partner": "bob", "opponents": ["charlie", "bot-greedy"], "time_control": "1d",
      "rules": "rhombus"}, 400, "bot-greedy is a computer player"),
])
def test_bad_challenge_input_is_refused_in_words_and_sends_nothing(
        alice: Any, bob: Any, charlie: Any, computer_players: dict[str, Any], api_as: Any,
        body: dict[str, Any], status: int, words: str) -> None:
    assert_refused(api_as(alice, "play").post("/api/challenges", body), status, words, lobby_rows())
    assert not Challenge.objects.exists()


def test_an_answered_challenge_cannot_be_answered_again(alice: Any, bob: Any, api_as: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "1d")
    challenges.decline_challenge(challenge.pk, bob)
    before = lobby_rows()
    assert_refused(api_as(bob, "play").post(f"/api/challenges/{challenge.pk}/accept"), 400,
                   "that challenge is no longer open (declined)", before)


# --- The computer ---------------------------------------------------------


def test_playing_the_computer_starts_the_game_at_once(
        alice: Any, computer_players: dict[str, Any], api_as: Any) -> None:
    response = api_as(alice, "play").post("/api/computer", {"level": "greedy", "time_control": "5+3",
                                                            "colour": "black", "rated": True})
    assert response.status_code == 200
    game = Game.objects.get()
    assert response.json() == {"game": game.pk, "url": f"/games/{game.pk}/"}
    assert players_of(game.pk) == ["bot-greedy", "alice"]
    assert (game.rated, game.time_control.key, game.running) == (True, "5+3", True)


def test_playing_the_computer_with_four_players_is_a_rhombus_team_game(
        alice: Any, computer_players: dict[str, Any], api_as: Any) -> None:
    response = api_as(alice, "play").post("/api/computer", {"level": "random", "time_control": "1d",
                                                            "rules": "rhombus", "players": 4})
    assert response.status_code == 200
    game = Game.objects.get()
    assert response.json()["game"] == game.pk and game.kind == "rhombus"
    assert players_of(game.pk) == ["alice", "bot-random+2", "bot-random", "bot-random+3"]  # partner opposite


@pytest.mark.parametrize(("scopes", "body", "status", "words"), [
    (("read",), {"level": "greedy", "time_control": "5+3"}, 403, "this token lacks the 'play' scope"),
    (("play",), {"time_control": "5+3"}, 422, "level: Field required"),
    (("play",), {"level": "nobody", "time_control": "5+3"}, 422,
     "body.level: Input should be 'random', 'greedy', 'ismcts-1', 'ismcts-2' or 'ismcts-3'"),
    (("play",), {"level": "greedy", "time_control": "9+9"}, 422, "body.time_control: Input should be"),
    (("play",), {"level": "greedy", "time_control": "5+3", "colour": "green"}, 422,
     "body.colour: Input should be 'red', 'black' or 'random'"),
    (("play",), {"level": "greedy", "time_control": "5+3", "players": 4}, 400,
     "Ace in the Hole is played by 2 players, not 4"),
])
def test_a_bad_computer_game_is_refused_and_starts_nothing(
        alice: Any, computer_players: dict[str, Any], api_as: Any, scopes: tuple[str, ...],
        body: dict[str, Any], status: int, words: str) -> None:
    assert_refused(api_as(alice, *scopes).post("/api/computer", body), status, words, lobby_rows())
    assert not Game.objects.exists()


def test_a_visitor_cannot_play_the_computer(computer_players: dict[str, Any], api_as: Any) -> None:
    assert_refused(api_as(None).post("/api/computer", {"level": "greedy", "time_control": "5+3"}), 401,
                   "send a personal access token", lobby_rows())
