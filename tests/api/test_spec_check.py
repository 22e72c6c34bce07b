"""The spec declares each game's view and each stream line closed, field by
field (issue 38, 1 and 2): the strict check tests/api/test_played_by_the_spec.py
plays whole games with accepts what the site sends and refuses a key or a line
type the spec does not name."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import payloads, starting, store
from tests.api.spec_check import NDJSON, SpecCheck
from tests.games.test_records import play_moves
from tests.games.test_rhombus_records import play_random, seated

pytestmark = pytest.mark.django_db

SEAT = "/api/games/{game_id}/seat"
PUBLIC = "/api/games/{game_id}"
GAME_STREAM = "/api/stream/game/{game_id}"
EVENT_STREAM = "/api/stream/event"


@pytest.fixture
def check(api_as: Any) -> SpecCheck:
    return SpecCheck(api_as(None).get("/api/openapi.json").json())


@pytest.fixture
def ace_view(alice: Any, bob: Any) -> dict[str, Any]:
    """Alice's view of an Ace in the Hole game, 6 plies in, as her socket gets it."""
    game = play_moves(starting.start_game(alice, bob, seed="check-ace"), {"red": alice, "black": bob}, 6,
                      random.Random(1))
    return json.loads(json.dumps(payloads.view_for(store.load(game.pk), alice), default=str))


@pytest.fixture
def rhombus_view(alice: Any, bob: Any) -> dict[str, Any]:
    game = starting.start_game(alice, bob, seed="check-rh", setup=starting.Setup("rhombus"))
    game = play_random(game, seated(game), 6, random.Random(1))
    return json.loads(json.dumps(payloads.view_for(store.load(game.pk), alice), default=str))


def schema(check: SpecCheck, method: str, path: str, media: str = "application/json") -> Any:
    return check.schema_of(method, path, 200, media)


def test_a_view_with_a_key_the_spec_does_not_name_is_refused(check: SpecCheck, ace_view: dict[str, Any]) -> None:
    view = schema(check, "GET", SEAT)
    assert check.errors(view, ace_view) == []
    assert check.errors(view, {**ace_view, "secret": "QH"})
    assert check.errors(view, {**ace_view, "game": {**ace_view["game"], "clock": {
        **ace_view["game"]["clock"], "extra": 1}}})
    assert check.errors(view, {key: value for key, value in ace_view.items() if key != "hand"})  # a key lost


def test_a_view_must_have_the_shape_of_its_own_game(
        check: SpecCheck, ace_view: dict[str, Any], rhombus_view: dict[str, Any]) -> None:
    view = schema(check, "GET", SEAT)
    assert check.errors(view, rhombus_view) == []
    assert check.errors(view, {**ace_view, "kind": "rhombus"})
    assert check.errors(view, {**rhombus_view, "kind": "ace-in-the-hole"})


def test_a_spectator_s_view_has_no_seat_nor_hand(check: SpecCheck, ace_view: dict[str, Any]) -> None:
    spectator = schema(check, "GET", PUBLIC)
    assert check.errors(spectator, {**ace_view, "seat": None, "hand": None}) == []
    assert check.errors(spectator, ace_view)  # alice's seat and hand


def test_a_stream_line_of_a_type_the_spec_does_not_name_is_refused(
        check: SpecCheck, ace_view: dict[str, Any], rhombus_view: dict[str, Any]) -> None:
    line = schema(check, "GET", GAME_STREAM, NDJSON)
    for view in (ace_view, rhombus_view):
        assert check.errors(line, {"type": "sync", **view}) == []
        assert check.errors(line, {"type": "update", **view}) == []
        assert check.errors(line, {"type": "gameState", **view})
    chat = {"type": "chatLine", "room": "player", "id": 1, "username": "bob", "text": "Good luck",
            "preset": "goodluck", "removed": False}
    assert check.errors(line, chat) == []
    assert check.errors(line, {**chat, "room": "spectator"})  # the spectators' room never reaches a seat's stream
    events = schema(check, "GET", EVENT_STREAM, NDJSON)
    finished = {"type": "game_finished", "game": 7, "status": "finished", "winner": "red", "reason": "aces",
                "result": "1-0"}
    assert check.errors(events, finished) == []
    assert check.errors(events, {**finished, "type": "game_over"})
    assert check.errors(events, {**finished, "reason": "boredom"})
    assert check.errors(events, {"type": "tournament_round_started", "tournament": 3, "round": "1", "url": "/"})


def test_each_stream_declares_its_lines_as_a_oneof_told_apart_by_type(check: SpecCheck) -> None:
    components = check.spec["components"]["schemas"]
    for path, types in ((GAME_STREAM, {"sync", "update", "chatLine"}),
                        (EVENT_STREAM, {"challenge", "game_started", "game_finished", "tournament_round_started"})):
        name = schema(check, "GET", path, NDJSON)["$ref"].rsplit("/", 1)[1]
        assert components[name]["discriminator"]["propertyName"] == "type"
        assert set(components[name]["discriminator"]["mapping"]) == types
        assert len(components[name]["oneOf"]) == len(types)
