"""GET /api/players/{username} (and its rating history and games) and
/api/leaderboard (api/players.py): what the profile and leaderboard
pages show, for anyone, with their refusals."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.dateparse import parse_datetime

from games import finishing, starting
from games.models import Game
from ladder import bot_accounts
from api import players as players_api
from ladder import leaderboard
from ladder.models import LADDERS, Player, Rating, RatingChange
from tests.games.conftest import fast_password_hashing  # noqa: F401
from tests.ladder.conftest import set_player
from tests.ladder.test_leaderboard import ladder, seat  # noqa: F401

pytestmark = pytest.mark.django_db

SEED = "tests-game-seed"


@pytest.fixture
def history(alice: Any, bob: Any, charlie: Any) -> dict[str, Game]:
    """As the profile's tests: Alice loses to Bob, then beats him (rated); a casual
    loss to Charlie; a rated Rhombus win over Bob; and a game with Charlie still running."""
    first = starting.start_game(alice, bob, seed=SEED)
    finishing.resign(first.pk, alice)  # 1500 v 1500, K 40: Alice 1480, Bob 1520
    second = starting.start_game(bob, alice, seed=SEED)
    finishing.resign(second.pk, bob)  # 1480 beats 1520, +22: Alice 1502, Bob 1498
    casual = starting.start_game(charlie, alice, seed=SEED, rated=False)
    finishing.resign(casual.pk, alice)
    rhombus = starting.start_game(alice, bob, seed=SEED, setup=starting.Setup("rhombus"))
    finishing.resign(rhombus.pk, bob)  # on Rhombus's own ladder: Alice 1520, Bob 1480
    running = starting.start_game(alice, charlie, seed=SEED)
    return {"first": first, "second": second, "casual": casual, "rhombus": rhombus, "running": running}


def same_time(text: str | None, moment: datetime | None) -> bool:
    """An API time (JSON carries milliseconds) is ``moment``."""
    found = parse_datetime(text) if text else None
    if found is None or moment is None:
        return found is moment
    return abs(found - moment) < timedelta(milliseconds=1)


def db_state() -> tuple[int, int, int, int]:
    """What a read must leave as it found it: players' and ratings' rows, changes, games."""
    return Player.objects.count(), Rating.objects.count(), RatingChange.objects.count(), Game.objects.count()


# --- A profile ---------------------------------------------------------------------


def test_a_profile_has_every_ladder_with_record_and_rank(history: dict[str, Game], alice: Any, api_as: Any) -> None:
    response = api_as(None).get("/api/players/alice")
    assert response.status_code == 200
    body = response.json()
    assert (body["username"], body["bot"], body["bot_level"]) == ("alice", False, None)
    assert same_time(body["joined"], alice.date_joined)
    assert list(body["ladders"]) == list(LADDERS)
    assert body["ladders"]["ace-in-the-hole"] == {
        "name": "Ace in the Hole", "rating": 1502, "provisional": True, "rated_games": 2,
        "wins": 1, "draws": 0, "losses": 1, "streak": 1, "rank": 1}
    assert body["ladders"]["rhombus"] == {
        "name": "Rhombus", "rating": 1520, "provisional": True, "rated_games": 1,
        "wins": 1, "draws": 0, "losses": 0, "streak": 1, "rank": 1}
    assert body["ladders"]["rhombus-teams"]["rated_games"] == 0
    assert body["ladders"]["rhombus-teams"]["rank"] is None  # never rated there: not on that ladder


def test_ranks_are_the_profile_page_s(history: dict[str, Game], api_as: Any) -> None:
    bob = api_as(None).get("/api/players/bob").json()["ladders"]
    assert (bob["ace-in-the-hole"]["rating"], bob["ace-in-the-hole"]["rank"]) == (1498, 2)
    assert (bob["rhombus"]["rating"], bob["rhombus"]["rank"]) == (1480, 2)
    page = Client().get("/@/bob/").content.decode()
    assert "data-rank>#2</dd>" in page


def test_a_profile_ranks_among_every_player_active_or_not(ladder: None, api_as: Any) -> None:
    """As the profile page: "old" has not played for 40 days, is off the
    leaderboard's first view, and still has a rank on the profile."""
    ace = api_as(None).get("/api/players/old").json()["ladders"]["ace-in-the-hole"]
    assert (ace["rating"], ace["rank"]) == (1650, 3)
    assert "old" not in [row["username"] for row in api_as(None).get("/api/leaderboard").json()["players"]]


def test_a_newcomer_s_profile_reads_without_making_a_row(charlie: Any, api_as: Any) -> None:
    before = db_state()
    body = api_as(None).get("/api/players/charlie").json()
    assert all(ladder["rating"] == 1500 and ladder["rank"] is None and ladder["provisional"]
               for ladder in body["ladders"].values())
    assert db_state() == before


def test_computer_players_and_bot_accounts_are_bots(alice: Any, dave: Any, api_as: Any) -> None:
    robo = get_user_model().objects.create_user("bot-greedy", "", None)
    set_player(robo, 1600, 40, is_bot=True, bot_level="greedy")
    bot_accounts.make_api_bot(dave)
    client = api_as(alice, "read")  # any valid token reads as a visitor does
    assert client.get("/api/players/bot-greedy").json() | {"joined": "", "ladders": {}} == {
        "username": "bot-greedy", "joined": "", "bot": True, "bot_level": "greedy", "ladders": {}}
    dave_json = client.get("/api/players/dave").json()
    assert (dave_json["bot"], dave_json["bot_level"]) == (True, None)
    assert client.get("/api/players/alice").json()["bot"] is False


# --- Rating history -----------------------------------------------------------------


def test_the_rating_history_has_each_rated_game_from_the_first_rating(history: dict[str, Game],
                                                                        api_as: Any) -> None:
    response = api_as(None).get("/api/players/alice/rating-history")
    assert response.status_code == 200
    body = response.json()
    assert (body["username"], body["ladder"]) == ("alice", "ace-in-the-hole")
    points = [(p["rating"], p["game_id"]) for p in body["points"]]
    assert points == [(1500, None), (1480, history["first"].pk), (1502, history["second"].pk)]
    second = RatingChange.objects.get(game=history["second"], user__username="alice")
    assert same_time(body["points"][-1]["date"], second.created)


def test_each_ladder_has_its_own_history(history: dict[str, Game], api_as: Any) -> None:
    client = api_as(None)
    rhombus = client.get("/api/players/alice/rating-history", ladder="rhombus").json()["points"]
    assert [(p["rating"], p["game_id"]) for p in rhombus] == [(1500, None), (1520, history["rhombus"].pk)]
    assert client.get("/api/players/alice/rating-history", ladder="rhombus-teams").json()["points"] == []


def test_an_undone_game_leaves_the_history(history: dict[str, Game], api_as: Any) -> None:
    from ladder import ratings

    ratings.undo_game(history["first"].pk)
    points = api_as(None).get("/api/players/alice/rating-history").json()["points"]
    assert [(p["rating"], p["game_id"]) for p in points] == [(1480, None), (1502, history["second"].pk)]


# --- A player's games ----------------------------------------------------------------


def test_a_player_s_games_newest_first_with_seats_and_results(history: dict[str, Game], api_as: Any) -> None:
    response = api_as(None).get("/api/players/alice/games")
    assert response.status_code == 200
    body = response.json()
    assert (body["username"], body["page"], body["pages"], body["count"]) == ("alice", 1, 1, 5)
    order = ["running", "rhombus", "casual", "second", "first"]
    assert [g["id"] for g in body["games"]] == [history[name].pk for name in order]
    first = body["games"][-1]
    game = Game.objects.get(pk=history["first"].pk)
    assert first == {
        "id": game.pk, "kind": "ace-in-the-hole", "variant": "classic", "title": "Ace in the Hole",
        "seats": [{"seat": "red", "username": "alice"}, {"seat": "black", "username": "bob"}],
        "seat": "red", "status": "finished", "result": "loss", "winner": "black", "reason": "resignation",
        "reason_text": "by resignation (R17)", "rated": True, "time_control": "10+5",
        "started": first["started"], "ended": first["ended"], "url": f"http://localhost/games/{game.pk}/"}
    assert same_time(first["started"], game.created) and same_time(first["ended"], game.finished)
    by_id = {g["id"]: g for g in body["games"]}
    assert by_id[history["second"].pk]["result"] == "win"
    assert by_id[history["casual"].pk]["rated"] is False
    assert by_id[history["rhombus"].pk]["seats"] == [{"seat": "SW", "username": "alice"},
                                                     {"seat": "NE", "username": "bob"}]
    running = by_id[history["running"].pk]
    assert (running["result"], running["status"], running["ended"], running["reason"]) == (
        "playing", "running", None, None)


def test_games_come_fifty_a_page(alice: Any, bob: Any, api_as: Any) -> None:
    games = [starting.start_game(alice, bob, seed=SEED) for _ in range(players_api.GAMES_PAGE_SIZE + 1)]
    client = api_as(None)
    first = client.get("/api/players/bob/games").json()
    assert (first["pages"], first["count"], len(first["games"])) == (2, 51, 50)
    assert first["games"][0]["id"] == games[-1].pk
    second = client.get("/api/players/bob/games", page=2).json()
    assert [g["id"] for g in second["games"]] == [games[0].pk]


def test_a_page_past_the_last_is_a_404(history: dict[str, Game], api_as: Any,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(players_api, "GAMES_PAGE_SIZE", 2)
    client = api_as(None)
    assert len(client.get("/api/players/alice/games", page=3).json()["games"]) == 1
    response = client.get("/api/players/alice/games", page=4)
    assert response.status_code == 404
    assert response.json() == {"error": "there is no page 4: alice has 3"}


# --- The leaderboard -------------------------------------------------------------------


def board(response: Any) -> list[tuple[int, str]]:
    assert response.status_code == 200, response.content
    return [(row["rank"], row["username"]) for row in response.json()["players"]]


def test_the_leaderboard_ranks_as_the_page(ladder: None, api_as: Any) -> None:
    response = api_as(None).get("/api/leaderboard")
    assert board(response) == [(1, "robo"), (2, "ann"), (3, "bea"), (3, "ben"), (5, "cid")]
    body = response.json()
    assert (body["ladder"], body["active_only"], body["bots"], body["page"], body["pages"], body["count"]) == (
        "ace-in-the-hole", True, "show", 1, 1, 5)
    ann = body["players"][1]
    assert ann | {"last_active": ""} == {
        "rank": 2, "username": "ann", "rating": 1700, "provisional": False, "rated_games": 40, "wins": 0,
        "draws": 0, "losses": 0, "streak": 0, "bot": False, "last_active": ""}
    assert body["players"][0]["bot"] is True and body["players"][-1]["provisional"] is True


def test_the_leaderboard_s_filters_are_the_page_s(ladder: None, api_as: Any) -> None:
    client = api_as(None)
    assert board(client.get("/api/leaderboard", active_only="false")) == [
        (1, "robo"), (2, "ann"), (3, "old"), (4, "bea"), (4, "ben"), (6, "cid")]
    assert board(client.get("/api/leaderboard", bots="hide")) == [(1, "ann"), (2, "bea"), (2, "ben"), (4, "cid")]
    assert board(client.get("/api/leaderboard", q="b")) == [(3, "bea"), (3, "ben")]  # real ranks
    assert board(client.get("/api/leaderboard", ladder="rhombus")) == []


def test_the_leaderboard_pages_and_says_where_the_token_s_player_is(
        ladder: None, api_as: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leaderboard, "PAGE_SIZE", 2)
    cid = get_user_model().objects.get(username="cid")
    client = api_as(cid, "read")
    second = client.get("/api/leaderboard", page=2)
    assert board(second) == [(3, "bea"), (3, "ben")]
    assert (second.json()["pages"], second.json()["your_page"]) == (3, 3)
    assert api_as(None).get("/api/leaderboard").json()["your_page"] is None
    response = client.get("/api/leaderboard", page=4)
    assert response.status_code == 404
    assert response.json() == {"error": "there is no page 4: the leaderboard has 3"}


# --- Refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/players/{name}", "/api/players/{name}/rating-history",
                                  "/api/players/{name}/games"])
def test_an_unknown_or_closed_player_is_a_404(path: str, alice: Any, api_as: Any) -> None:
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)
    before = db_state()
    for name in ("zed", "alice"):
        response = api_as(None).get(path.format(name=name))
        assert response.status_code == 404
        assert response.json() == {"error": f"there is no player '{name}'"}
    assert db_state() == before


@pytest.mark.parametrize("path", ["/api/players/alice/rating-history", "/api/leaderboard"])
def test_an_unknown_ladder_is_a_422_naming_the_ladders(path: str, alice: Any, api_as: Any) -> None:
    before = db_state()
    response = api_as(None).get(path, ladder="chess")
    assert response.status_code == 422
    assert response.json()["error"] == ("query.ladder: Input should be 'ace-in-the-hole', 'rhombus' "
                                        "or 'rhombus-teams'")
    assert db_state() == before


@pytest.mark.parametrize("path", ["/api/players/alice/games", "/api/leaderboard"])
@pytest.mark.parametrize(("page", "message"), [
    ("0", "query.page: Input should be greater than or equal to 1"),
    ("-2", "query.page: Input should be greater than or equal to 1"),
    ("two", "query.page: Input should be a valid integer"),
])
def test_a_bad_page_is_a_422(path: str, page: str, message: str, alice: Any, api_as: Any) -> None:
    before = db_state()
    response = api_as(None).get(path, page=page)
    assert response.status_code == 422
    assert response.json()["error"].startswith(message)
    assert db_state() == before


@pytest.mark.parametrize(("query", "message"), [
    ({"bots": "only"}, "query.bots: Input should be 'show' or 'hide'"),
    ({"active_only": "maybe"}, "query.active_only: Input should be a valid boolean"),
])
def test_bad_leaderboard_filters_are_a_422(query: dict[str, str], message: str, api_as: Any) -> None:
    response = api_as(None).get("/api/leaderboard", **query)
    assert response.status_code == 422
    assert response.json()["error"].startswith(message)


@pytest.mark.parametrize("path", ["/api/players/alice", "/api/players/alice/rating-history",
                                  "/api/players/alice/games", "/api/leaderboard"])
def test_a_bad_token_is_a_401_even_on_a_public_read(path: str, alice: Any, client: Client) -> None:
    before = db_state()
    response = client.get(path, headers={"Authorization": "Bearer acew_not-a-token"}, HTTP_HOST="localhost")
    assert response.status_code == 401
    assert response.json() == {"error": "unknown or revoked token"}
    assert db_state() == before


@pytest.mark.parametrize("path", ["/api/players/{username}", "/api/players/{username}/rating-history",
                                  "/api/players/{username}/games", "/api/leaderboard"])
def test_each_read_is_documented_in_the_spec(path: str, api_as: Any) -> None:
    operation = api_as(None).get("/api/openapi.json").json()["paths"][path]["get"]
    assert operation["summary"] and len(operation["description"]) > 80
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("Out")
    assert operation["responses"]["404"]["content"]["application/json"]["schema"]["$ref"].endswith("/Error")
