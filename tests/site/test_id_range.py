"""An id past PostgreSQL's bigint, or below 1, names no row (issue 35, 11): every
route with an id answers as for a row that does not exist (404, in JSON under
/api/; a game socket closes with 4404, a tournament socket is refused), ids in
form fields and socket frames are refused as no such row, and nothing reaches
the database to fail there ("bigint out of range")."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games.routing import websocket_urlpatterns as game_sockets
from ids.rows import MAX_ID, IdConverter, row_id
from ladder.routing import websocket_urlpatterns as lobby_sockets
from tournaments.routing import websocket_urlpatterns as tournament_sockets
from tests.games.conftest import TIMEOUT, cookies, fast_password_hashing, services, sockets  # noqa: F401

pytestmark = pytest.mark.django_db

# 2**63, one past bigint, and the 23 digits of the issue.
TOO_BIG = ("9223372036854775808", "99999999999999999999999")
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern)


def _is_id(name: str) -> bool:
    return name == "pk" or name.endswith("_id")


def id_routes() -> list[str]:
    """Every HTTP route of the site (the API's included, not the admin's: its
    object ids are text) with an id in it."""
    return sorted({route for route in _routes(get_resolver().url_patterns)
                   if not route.startswith("admin/") and any(_is_id(m["name"]) for m in PARAMETER.finditer(route))})


def filled(route: str, value: str) -> str:
    """The route's path with every id as ``value`` and any other part a plain word."""
    return "/" + PARAMETER.sub(lambda m: value if _is_id(m["name"]) else "x", route)


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


def test_the_id_converter_takes_exactly_the_ids_a_row_can_have() -> None:
    converter = IdConverter()
    assert converter.to_python("1") == 1 and converter.to_python(str(MAX_ID)) == MAX_ID
    assert converter.to_python("007") == 7
    for refused in ("0", str(MAX_ID + 1), TOO_BIG[1], "9" * 5000):
        with pytest.raises(ValueError):
            converter.to_python(refused)
    assert [row_id(value) for value in (5, "5", 0, -1, MAX_ID + 1, True, 5.0, "٣", " 5", None)] == \
        [5, 5, None, None, None, None, None, None, None, None]


def test_every_route_names_its_ids_with_the_id_converter() -> None:
    http = [route for route in _routes(get_resolver().url_patterns) if "<int:" in route]
    sockets = [str(entry.pattern) for entry in game_sockets + lobby_sockets + tournament_sockets
               if "<int:" in str(entry.pattern)]
    assert http == [] and sockets == []
    routes = id_routes()
    assert {"games/<id:game_id>/", "notifications/<id:pk>/", "api/games/<id:game_id>",
            "api/tournaments/<id:tournament_id>/pairings/<id:pairing_id>/adjudicate"} <= set(routes)
    assert all("<id:" in route for route in routes), [route for route in routes if "<id:" not in route]


@pytest.mark.parametrize("value", TOO_BIG)
@pytest.mark.parametrize("method", ["get", "post"])
def test_every_route_with_an_id_past_bigint_answers_404(
        method: str, value: str, alice: Any, caplog: pytest.LogCaptureFixture) -> None:
    client = Client()  # raises whatever a view lets out, as a 500 would be
    client.force_login(alice)
    answers = {filled(route, value): getattr(client, method)(filled(route, value)) for route in id_routes()}
    assert {path: answer.status_code for path, answer in answers.items() if answer.status_code != 404} == {}
    api = {path: answer.json() for path, answer in answers.items() if path.startswith("/api/")}
    assert len(api) > 20
    assert all(body == {"error": "nothing is at this address: the API's addresses are listed at /api/docs"}
               for body in api.values()), api
    assert errors_logged(caplog) == []


@pytest.mark.parametrize("debug", [False, True])
def test_the_api_says_it_in_json_in_the_callers_language(debug: bool, client: Client, settings: Any) -> None:
    settings.DEBUG = debug  # Django's own 404 page would be HTML, with DEBUG its technical one
    for path in (f"/api/games/{TOO_BIG[1]}", f"/api/stream/game/{TOO_BIG[0]}", "/api/nothing-here", "/api/seeks/%0A/leave"):
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="de", HTTP_HOST="localhost")
        assert response.status_code == 404 and response["Content-Type"] == "application/json; charset=utf-8"
        assert response.json() == {"error": "unter dieser Adresse ist nichts: die Adressen der API stehen unter /api/docs"}


def test_a_page_still_finds_its_row_by_its_id(alice: Any, bob: Any) -> None:
    from games import starting

    game = starting.start_game(alice, bob)
    assert Client().get(f"/games/{game.pk}/").status_code == 200
    assert Client().get(f"/games/{game.pk + 1}/").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("services")
@pytest.mark.parametrize("value", [*TOO_BIG, "0"])
async def test_a_game_socket_past_bigint_closes_as_for_a_game_that_does_not_exist(
        value: str, cookies: dict[str, str], sockets: Any, caplog: pytest.LogCaptureFixture) -> None:
    for game_id in ("999999", value):  # a game that does not exist, then digits no game can have
        sock, error = await sockets(game_id, cookies["alice"])
        assert error == {"type": "error", "ply": None, "message": f"there is no game {game_id}"}
        assert (await sock.comm.receive_output(timeout=TIMEOUT))["code"] == 4404
    assert errors_logged(caplog) == []


def test_a_seek_or_challenge_past_bigint_in_a_lobby_frame_is_no_such_seek(bob: Any) -> None:
    """The lobby socket's frames name seeks and challenges by id (ladder/consumers.py)."""
    from ladder import challenges, inputs, seeks
    from ladder.models import Challenge, Seek

    for value in (2**63, 10**23):
        for act in (seeks.accept_seek, seeks.join_seek, seeks.leave_seek, seeks.cancel_seek):
            with pytest.raises(inputs.LobbyRefusal, match=f"^there is no seek {value}$"):
                act(value, bob)
        for act in (challenges.accept_challenge, challenges.decline_challenge, challenges.cancel_challenge):
            with pytest.raises(inputs.LobbyRefusal, match=f"^there is no challenge {value}$"):
                act(value, bob)
    assert not Seek.objects.exists() and not Challenge.objects.exists()
