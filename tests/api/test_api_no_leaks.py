"""R18 / RH29 / RH36 through the API: no response and no stream line carries a
card its reader may not see. Random games are played through the API against
real daphne, PostgreSQL and Redis, every seat following its game's stream and
its account's event stream; every line, every answer to an action (a refused
one included) and the public game state are checked against the full position
in the database at that ply, with the socket no-leak tests' own checks."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests

from games import starting
from games.models import Game
from api import tokens
from tests.api.streams import StreamReader
from tests.games import test_no_leaks as ace
from tests.games import test_rhombus_no_leaks as rhombus
from tests.rhombus_steps import build
from tests.games.conftest import services  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

PLIES = 20  # then a random seat resigns: about 300 lines and answers checked in all


class Table:
    """One game played through the API: each seat's token and streams."""

    def __init__(self, server: str, game: Game, users: list[Any]) -> None:
        self.server, self.game_id = server, game.pk
        self.tokens = {seat: tokens.make(user, "leaks", ["play"])[1] for seat, user in zip(game.seat_names, users)}
        self.events = {seat: StreamReader(f"{server}/api/stream/event", token).wait_listening()
                       for seat, token in self.tokens.items()}
        self.streams = {seat: StreamReader(f"{server}/api/stream/game/{game.pk}", token).wait_listening()
                        for seat, token in self.tokens.items()}

    def post(self, seat: str, path: str, body: dict[str, Any] | None = None) -> requests.Response:
        return requests.post(f"{self.server}/api/games/{self.game_id}/{path}", json=body or {},
                             headers={"Authorization": f"Bearer {self.tokens[seat]}"}, timeout=10)

    def get(self, seat: str, path: str, params: dict[str, Any]) -> requests.Response:
        return requests.get(f"{self.server}/api/games/{self.game_id}/{path}", params=params,
                            headers={"Authorization": f"Bearer {self.tokens[seat]}"}, timeout=10)

    def public(self) -> dict[str, Any]:
        response = requests.get(f"{self.server}/api/games/{self.game_id}", timeout=10)
        assert response.status_code == 200
        return dict(response.json())

    def close(self) -> Iterator[bytes]:
        """Close every stream; the raw bytes of every event line, for a last check."""
        for reader in [*self.streams.values(), *self.events.values()]:
            reader.close()
        return (line for reader in self.events.values() for line in reader.raw)


Check = Callable[[dict[str, Any], str | None, dict[int, Any], frozenset[str]], Any]


def lines_until(reader: StreamReader, ply: int, check: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """Check every line up to the one at ``ply`` (or the game's end), and return that one."""
    while True:
        line = reader.next()
        assert line is not None, "the stream ended early"
        check(line)
        if line["ply"] >= ply or line["game"]["status"] != "running":
            return line


def play_through_api(table: Table, rng: random.Random, position: Callable[[int], Any], check: Check,
                     probe: str) -> int:
    """A random game through the API, resigned after PLIES; the number of lines and answers checked."""
    positions = {0: position(table.game_id)}
    latest = {seat: reader.next() for seat, reader in table.streams.items()}
    for seat, line in latest.items():
        check(line, seat, positions, frozenset())  # type: ignore[arg-type]
    checked = len(latest)
    while True:
        view = next(iter(latest.values()))
        mover, ply = view["to_move"], view["ply"]
        if rng.random() < 0.15:  # a refusal: its words may hold only the cards the mover typed
            refused = table.post(mover, "actions", {"ply": ply, "action": probe})
            assert refused.status_code == 400
            sent = frozenset(ace.CARD.findall(probe)) | frozenset(rhombus.CARD.findall(probe))
            check({"type": "error", "ply": ply, **refused.json()}, mover, positions, sent)
        if ply >= PLIES:
            answer = table.post(rng.choice(list(table.tokens)), "resign")
        else:
            action = any_action(table, latest[mover], rng, lambda answer: check(answer, mover, positions, frozenset()))
            answer = table.post(mover, "actions", {"ply": ply, "action": action})
        assert answer.status_code == 200, answer.content
        after = position(table.game_id)  # committed before anyone was told
        positions[after["ply"]] = after
        check({"type": "update", **answer.json()}, mover if ply < PLIES else answer.json()["seat"], positions,
              frozenset())
        check({"type": "update", **table.public()}, None, positions, frozenset())
        for seat, reader in table.streams.items():
            latest[seat] = lines_until(reader, after["ply"], lambda line, seat=seat: check(line, seat, positions,
                                                                                          frozenset()))
        checked += len(latest) + 2
        if latest[mover]["game"]["status"] != "running":
            return checked


def any_action(table: Table, view: dict[str, Any], rng: random.Random,
               check: Callable[[dict[str, Any]], None]) -> str:
    """One of Ace in the Hole's listed actions, or a Rhombus action built use by
    use through GET .../options (issue 24), each answer checked too."""
    if "legal" in view:
        return str(rng.choice(view["legal"]))

    def ask(cards: list[str], done: list[str]) -> dict[str, Any]:
        response = table.get(view["seat"], "options", {"ply": view["ply"], "cards": ",".join(cards),
                                                       "done": ",".join(done)})
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        check({"type": "options", **answer})
        return answer

    return build(ask, view["sets"], rng)


def ace_position(game_id: int) -> dict[str, Any]:
    return dict(Game.objects.get(pk=game_id).position)


def ace_check(line: dict[str, Any], seat: str | None, positions: dict[int, Any], sent: frozenset[str]) -> None:
    if line["type"] == "error":
        ace.check_message({**line, "message": line["error"]}, seat, positions, sent)
    elif line["game"]["status"] == "running":  # once over, every hand is public (R19)
        ace.check_message(line, seat, positions, sent)


def rhombus_check(line: dict[str, Any], seat: str | None, positions: dict[int, Any], sent: frozenset[str]) -> None:
    if line["type"] in ("error", "options") or line["game"]["status"] == "running":
        rhombus.check_frame(line, seat, positions, sent)


def test_ace_in_the_hole_through_the_api_shows_each_seat_only_its_own_cards(
        daphne_server: str, alice: Any, bob: Any) -> None:
    table = Table(daphne_server, starting.start_game(alice, bob), [alice, bob])
    checked = play_through_api(table, random.Random(7), ace_position, ace_check, probe="AS a1-a8")
    assert checked > PLIES * 2
    assert not any(ace.CARD.findall(line.decode()) for line in table.close())  # events name no card


@pytest.mark.parametrize(("players", "variant"), [(2, "formation"), (4, "classic")])
def test_rhombus_through_the_api_shows_each_seat_only_its_own_hand(
        daphne_server: str, alice: Any, bob: Any, charlie: Any, dave: Any, players: int, variant: str) -> None:
    users = [alice, bob, charlie, dave][:players]
    game = starting.start_game(*users, setup=starting.Setup("rhombus", variant))
    table = Table(daphne_server, game, users)
    checked = play_through_api(table, random.Random(players), rhombus.position_of, rhombus_check, probe=rhombus.PROBE)
    assert checked > PLIES * players
    assert not any(rhombus.CARD.findall(json.dumps(line.decode())) for line in table.close())
