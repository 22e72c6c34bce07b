"""What the spec promises, held against the answers (issue 38): the codes
docs/api.md states (403 not yours, 404 no such thing), one shape for a 422's
``loc``, each operation refusing a token without the scope it declares, one
way of writing a moment, and the spec built once and answered with an ETag."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from api.main import Api
from ladder import challenges, seeks
from tests.api.conftest import assert_refused, lobby_rows
from tests.helpers import staff_group

pytestmark = pytest.mark.django_db

# A moment, as Django's JSON encoder writes one: UTC, to the millisecond at most.
MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z")


@pytest.fixture
def spec(client: Any) -> dict[str, Any]:
    return dict(client.get("/api/openapi.json", HTTP_HOST="localhost").json())


# --- 5: 403 not yours, 404 no such thing --------------------------------------


def test_cancelling_someone_elses_seek_is_a_403(alice: Any, bob: Any, api_as: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    assert_refused(api_as(bob, "play").delete(f"/api/seeks/{seek.pk}"), 403, "only its creator", lobby_rows())


@pytest.mark.parametrize("answer", ["accept", "decline", "cancel"])
def test_answering_a_challenge_that_is_not_yours_is_a_403(
        alice: Any, bob: Any, charlie: Any, api_as: Any, answer: str) -> None:
    challenge = challenges.create_challenge(alice, "bob", "1d")
    response = api_as(charlie, "play").post(f"/api/challenges/{challenge.pk}/{answer}")
    assert_refused(response, 403, "only the", lobby_rows())


def test_challenging_or_partnering_nobody_is_a_404(alice: Any, api_as: Any) -> None:
    client = api_as(alice, "play")
    assert_refused(client.post("/api/challenges", {"username": "nobody", "time_control": "1d"}), 404,
                   "there is no player called 'nobody'", lobby_rows())
    assert_refused(client.post("/api/seeks", {"time_control": "1d", "rules": "rhombus", "players": 4,
                                              "partner": "nobody"}), 404, "there is no player called", lobby_rows())


# --- 6: one shape for a 422 -----------------------------------------------------


@pytest.mark.parametrize(("path", "body", "query", "loc"), [
    ("/api/challenges", {"username": "bob", "time_control": "1d", "players": 3}, None, ["body", "players"]),
    ("/api/challenges", {"time_control": "1d"}, None, ["body", "username"]),
    ("/api/challenges", {"time_control": "1d", "players": 4, "partner": "bob"}, None, ["body", "opponents"]),
    ("/api/computer", {"level": "grandmaster", "time_control": "1d"}, None, ["body", "level"]),
    ("/api/leaderboard", None, {"page": "first"}, ["query", "page"]),
    ("/api/tournaments", {"name": "Cup", "starts_at": "2099-01-01T10:00:00Z", "max_players": 1}, None,
     ["body", "max_players"]),
    ("/api/tournaments", {"name": "Cup", "starts_at": "2099-01-01T10:00:00Z", "format": "swiss"}, None,
     ["body", "rounds"]),
    ("/api/tournaments", {"starts_at": "2099-01-01T10:00:00Z", "rounds": 3}, None, ["body", "name"]),
])
def test_a_422_says_where_as_the_client_wrote_it(
        alice: Any, bob: Any, api_as: Any, path: str, body: Any, query: Any, loc: list[str]) -> None:
    """``detail[].loc`` is [source, field...] everywhere, a form's check too;
    ``error`` words the first problem at that place."""
    alice.groups.add(staff_group("Organizers"))
    client = api_as(alice, "play", "tournament:write")
    response = client.get(path, **query) if query else client.post(path, body)
    assert response.status_code == 422, response.content
    answer = response.json()
    assert answer["detail"][0]["loc"] == loc
    assert answer["error"].startswith(".".join(loc) + ": ")
    assert all(set(problem) == {"loc", "msg", "type"} for problem in answer["detail"])


# --- 8: each operation refuses a token without its scope --------------------------


@pytest.mark.django_db(transaction=True)  # the streams check their token on the sockets' database threads
def test_each_operation_refuses_a_token_without_the_scope_it_declares(
        spec: dict[str, Any], alice: Any, api_as: Any) -> None:
    """Every operation whose security names a scope, called with a token that
    has every other scope but not one that grants it, is a 403 naming it."""
    grants = {"read": {"read", "play", "bot:play"}, "play": {"play"}, "bot:play": {"bot:play"},
              "tournament:write": {"tournament:write"}}
    tried, clients = 0, {}
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            scopes = operation["security"][0]["Token"]
            if not scopes:
                continue
            (scope,) = scopes
            others = tuple(sorted({"read", "play", "bot:play", "tournament:write"} - grants[scope] - {"bot:play"}))
            if others not in clients:
                clients[others] = api_as(alice, *others)
            client = clients[others]
            address = re.sub(r"\{(\w+)\}", lambda m: "alice" if m[1] == "username" else "1", path)
            body = {} if method == "get" else {"data": "{}", "content_type": "application/json"}
            response = getattr(client.client, method)(address, **body, headers=client.headers)
            assert response.status_code == 403, (method, path, others, response.content)
            assert scope in response.json()["error"], (method, path)
            tried += 1
    assert tried >= 30


# --- 9: one way of writing a moment -------------------------------------------------


def test_every_moment_is_written_one_way(alice: Any, bob: Any, api_as: Any) -> None:
    challenges.create_challenge(alice, "bob", "1d", now=timezone.now() - timedelta(microseconds=123456))
    client = api_as(alice, "read")
    moments = [client.get("/api/account").json()["joined"], client.get("/api/players/alice").json()["joined"],
               client.get("/api/challenges").json()[0]["expires_at"]]
    assert all(MOMENT.fullmatch(moment) for moment in moments), moments


# --- 12: built once, answered with an ETag ------------------------------------------


def test_the_spec_is_built_once_and_answered_with_an_etag(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    first = client.get("/api/openapi.json", HTTP_HOST="localhost")
    built: list[int] = []
    original = Api.get_openapi_schema
    monkeypatch.setattr(Api, "get_openapi_schema", lambda self, **kw: built.append(1) or original(self, **kw))
    again = client.get("/api/openapi.json", HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE="de")
    assert built == [] and again.content == first.content and again["ETag"] == first["ETag"]
    assert again["Content-Type"].startswith("application/json")
    unchanged = client.get("/api/openapi.json", HTTP_HOST="localhost", HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304 and unchanged.content == b""


def test_the_docs_page_is_kept_per_language_with_an_etag(client: Any) -> None:
    english = client.get("/api/docs", HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE="en")
    german = client.get("/api/docs", HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE="de")
    assert english.status_code == german.status_code == 200
    assert english["ETag"] != german["ETag"] and "Die API und ihre Dokumentation".encode() in german.content
    assert client.get("/api/docs", HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE="de",
                      HTTP_IF_NONE_MATCH=german["ETag"]).status_code == 304
