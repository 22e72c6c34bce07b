"""Whole games played through the API over real daphne, PostgreSQL and Redis,
as a client generated from the spec would play them: every JSON answer and
every line of the streams (both seats' game streams and the event streams,
open throughout) is checked against the schema that the running server's
/api/openapi.json declares for it, closed to keys it does not name
(tests/api/spec_check.py). Issue 38: a spec a generated client can play from.

Moves are random but fixed by a seed, taken from what the views offer: Ace
in the Hole's ``legal``, Rhombus's ``sets``, ``firsts`` and GET .../options
(docs/api.md, "Playing Rhombus step by step")."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from django.utils import timezone

from api import tokens
from tournaments import organizing
from tournaments.models import Tournament
from tests.api.spec_check import NDJSON, SpecCheck
from tests.api.streams import StreamReader
from tests.games.conftest import services  # noqa: F401
from tests.tournaments.conftest import organizer  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

MAX_PLIES = 400  # a random game ends long before (R15, R16, RH25-RH27); past this it is resigned
GAME_STREAM = "/api/stream/game/{game_id}"
EVENT_STREAM = "/api/stream/event"


class Player:
    """One user's client: a token, and every answer checked against the spec."""

    def __init__(self, server: str, user: Any, check: SpecCheck) -> None:
        self.server, self.name, self.check = server, user.get_username(), check
        self.token = tokens.make(user, "spec client", ["play", "read"])[1]
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {self.token}"
        self.streams: list[tuple[str, StreamReader]] = []

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, query: dict[str, Any] | None = None,
             status: int = 200, **ids: int) -> Any:
        answer = self.session.request(method, self.server + path.format(**ids), json=body, params=query, timeout=20)
        assert answer.status_code == status, f"{method} {path}: {answer.status_code} {answer.text[:500]}"
        self.check.check(method, path, status, answer.json())
        return answer.json()

    def stream(self, path: str, **ids: int) -> StreamReader:
        reader = StreamReader(self.server + path.format(**ids), self.token).wait_listening()
        assert reader.status == 200
        self.streams.append((path, reader))
        return reader


@pytest.fixture
def server(api_server: Callable[..., str]) -> str:
    return api_server(API_STREAM_KEEPALIVE="0.5", API_RATE_PER_TOKEN="100000/min",
                      API_RATE_PER_ADDRESS="100000/min")


@pytest.fixture
def check(server: str) -> SpecCheck:
    return SpecCheck(requests.get(server + "/api/openapi.json", timeout=20).json())


@pytest.fixture
def players(server: str, check: SpecCheck, alice: Any, bob: Any, charlie: Any, dave: Any
            ) -> Iterator[dict[str, Player]]:
    """Each with their event stream open from the start."""
    clients = {user.get_username(): Player(server, user, check) for user in (alice, bob, charlie, dave)}
    for client in clients.values():
        client.stream(EVENT_STREAM)
    yield clients
    for client in clients.values():
        for _, reader in client.streams:
            reader.close()


def start(challenger: Player, invitees: list[Player], **body: Any) -> int:
    """A challenge through the API, accepted by every invitee: the game's id."""
    challenge = challenger.call("POST", "/api/challenges", {"time_control": "10+5", "rated": False, **body})
    for invitee in invitees:
        accepted = invitee.call("POST", "/api/challenges/{challenge_id}/accept", challenge_id=challenge["id"])
    assert accepted["game"] is not None
    return int(accepted["game"])


def choose(player: Player, game_id: int, view: dict[str, Any], rng: random.Random) -> str:
    """A legal action from what the view offers: Ace in the Hole lists them;
    a Rhombus action is built a use at a time, as the game page builds it."""
    if view["kind"] == "ace-in-the-hole":
        return str(rng.choice(view["legal"]))
    cards: list[str] = rng.choice(view["sets"])
    done: list[str] = []
    while True:
        first = view["firsts"].get(cards[0]) if len(cards) == 1 and not done else None
        answer = first or player.call("GET", "/api/games/{game_id}/options", game_id=game_id,
                                      query={"ply": view["ply"], "cards": ",".join(cards), "done": ",".join(done)})
        choice = rng.choice(answer["uses"] + answer["actions"])
        if choice in answer["actions"]:
            return str(choice)
        done.append(choice)
        if sum(len(use.split(" ")[0].split("+")) for use in done) == len(cards):
            return ", ".join(done)


def play(seats: dict[str, Player], game_id: int, rng: random.Random, rematch: bool = True) -> dict[str, Any]:
    """Random legal actions to the game's end, each seat on its own game
    stream; the players' chat and the public reads on the way. The last view."""
    for player in seats.values():
        player.stream(GAME_STREAM, game_id=game_id)
    anyone = next(iter(seats.values()))
    anyone.call("POST", "/api/games/{game_id}/chat", {"room": "player", "preset": "goodluck"}, game_id=game_id)
    view = anyone.call("GET", "/api/games/{game_id}", game_id=game_id)
    for turn in range(MAX_PLIES):
        if view["game"]["status"] != "running":
            break
        mover = seats[view["to_move"]]
        own = mover.call("GET", "/api/games/{game_id}/seat", game_id=game_id)
        view = mover.call("POST", "/api/games/{game_id}/actions", {"ply": own["ply"], "action": choose(
            mover, game_id, own, rng)}, game_id=game_id)
        if turn % 10 == 0:
            anyone.call("GET", "/api/games/{game_id}", game_id=game_id)
    else:
        view = seats[view["to_move"]].call("POST", "/api/games/{game_id}/resign", game_id=game_id)
    assert view["game"]["status"] == "finished"
    anyone.call("GET", "/api/games/{game_id}", game_id=game_id)
    anyone.call("GET", "/api/games/{game_id}/record", game_id=game_id)
    if rematch:  # never in a tournament's game
        anyone.call("POST", "/api/games/{game_id}/rematch", game_id=game_id)
    return view


def seated(players: dict[str, Player], view: dict[str, Any]) -> dict[str, Player]:
    return {seat: players[name] for seat, name in view["game"]["players"].items()}


def assert_every_line_is_declared(players: dict[str, Player], check: SpecCheck) -> dict[str, set[str]]:
    """Every non-empty line each stream sent is one its 200 declares; the line types seen, by stream."""
    seen: dict[str, set[str]] = {GAME_STREAM: set(), EVENT_STREAM: set()}
    for player in players.values():
        for path, reader in player.streams:
            if path == GAME_STREAM:
                reader.until(lambda line: line.get("game", {}).get("status") == "finished")
            schema = check.schema_of("GET", path, 200, NDJSON)
            for raw in list(reader.raw):
                if raw:
                    line = json.loads(raw)
                    wrong = check.errors(schema, line)
                    assert not wrong, f"{player.name} {path}: {wrong[:5]}\n{str(line)[:2000]}"
                    seen[path].add(line["type"])
    return seen


def test_whole_games_answer_and_stream_only_what_the_spec_declares(
        players: dict[str, Player], check: SpecCheck, organizer: Any) -> None:
    alice, bob, charlie, dave = (players[name] for name in ("alice", "bob", "charlie", "dave"))
    rng = random.Random(38)

    ace = start(alice, [bob], username="bob", rules="ace-in-the-hole", rated=True)
    ace_view = alice.call("GET", "/api/games/{game_id}/seat", game_id=ace)
    assert play(seated(players, ace_view), ace, rng)["kind"] == "ace-in-the-hole"

    rhombus = start(bob, [alice], username="alice", rules="rhombus")
    rhombus_view = bob.call("GET", "/api/games/{game_id}/seat", game_id=rhombus)
    assert play(seated(players, rhombus_view), rhombus, rng)["kind"] == "rhombus"

    teams = start(alice, [charlie, bob, dave], rules="rhombus", players=4, partner="charlie",
                  opponents=["bob", "dave"])
    teams_view = alice.call("GET", "/api/games/{game_id}/seat", game_id=teams)
    assert len(teams_view["game"]["seats"]) == 4
    play(seated(players, teams_view), teams, rng)

    # A tournament round: its start on the event streams, its game's ``event``.
    cup = Tournament.objects.create(name="Spec Cup", organizer=organizer, pause_seconds=0, rounds=1,
                                    starts_at=timezone.now() + timedelta(hours=1), time_control="10+5")
    for player in (alice, bob):
        player.call("POST", "/api/tournaments/{tournament_id}/join", tournament_id=cup.pk)
    organizing.start_early(cup.pk, organizer)
    events = alice.streams[0][1]
    assert events.until(lambda line: line["type"] == "tournament_round_started")["round"] == 1
    round_game = events.until(lambda line: line["type"] == "game_started")["game"]
    round_view = alice.call("GET", "/api/games/{game_id}/seat", game_id=round_game)
    assert round_view["game"]["event"] == {"name": "Spec Cup", "round": 1, "label": "1",
                                           "url": f"/tournaments/{cup.pk}/"}  # round: a number, as above
    play(seated(players, round_view), round_game, rng, rematch=False)

    alice.call("GET", "/api/challenges")
    seen = assert_every_line_is_declared(players, check)
    assert seen[GAME_STREAM] == {"sync", "update", "chatLine"}
    assert seen[EVENT_STREAM] == {"challenge", "game_started", "game_finished", "tournament_round_started"}
