"""The API tests' shared pieces: a token for a user with chosen scopes, a
client that sends it, the site's computer players, and checks that a refusal
changed nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

from games import bots
from games.models import Game
from ladder import bot_accounts
from api import tokens
from api.auth import forget_requests
from ladder.models import Challenge, ChallengeInvitee, Player, PoolEntry, Seek, SeekEntry


class ApiClient:
    """Django's test client with a Bearer token on every request, JSON in and out."""

    def __init__(self, token: str | None) -> None:
        self.client = Client(HTTP_HOST="localhost")
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **params: Any) -> Any:
        return self.client.get(path, params, headers=self.headers)

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, body if body is not None else {}, content_type="application/json",
                                headers=self.headers)

    def delete(self, path: str) -> Any:
        return self.client.delete(path, headers=self.headers)


@pytest.fixture
def api_as() -> Callable[..., ApiClient]:
    """``api_as(user, "play", "read")``: a client holding a new token of ``user``
    with those scopes; ``api_as(None)``: a visitor without a token."""
    def make(user: Any, *scopes: str) -> ApiClient:
        if user is None:
            return ApiClient(None)
        return ApiClient(tokens.make(user, "test", list(scopes or ("read",)))[1])

    return make


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> None:
    """Every test starts with no requests counted (all come from 127.0.0.1)."""
    forget_requests()


@pytest.fixture(autouse=True)
def fresh_bot_cache() -> Iterator[None]:
    """Who is a computer player is cached per process (games.bots); each test
    has its own users, and their ids come round again."""
    bots.forget_bot_levels()
    yield
    bots.forget_bot_levels()


@pytest.fixture
def computer_players(db: None) -> dict[str, Any]:
    """{level: user} for every engine level (manage.py seed_bots)."""
    return {user.player.bot_level: user for user, _ in bot_accounts.ensure_bot_accounts()}


# --- Checking what a request did (or, refused, did not) -----------------------


def lobby_rows() -> tuple[list[Any], ...]:
    """Everything a lobby action can change (seeks, challenges, games, the
    pool, who is a bot), to compare before and after a refusal."""
    return (list(Seek.objects.order_by("pk").values_list("pk", "status", "game_id")),
            list(SeekEntry.objects.order_by("pk").values_list("seek_id", "user_id")),
            list(Challenge.objects.order_by("pk").values_list("pk", "status", "game_id")),
            list(ChallengeInvitee.objects.order_by("pk").values_list("user_id", "answer")),
            list(Game.objects.order_by("pk").values_list("pk", flat=True)),
            list(PoolEntry.objects.order_by("pk").values_list("user_id", "status")),
            list(Player.objects.order_by("pk").values_list("pk", "is_bot", "bot_level")))


def players_of(game_id: int) -> list[str]:
    """The game's players in seat order (Red first; Rhombus: SW, SE, NE, NW)."""
    return [seat.user.username for seat in Game.objects.get(pk=game_id).table]


def assert_refused(response: Any, status: int, words: str, before: tuple[list[Any], ...]) -> None:
    """The response is an error of ``status`` saying ``words``, and ``lobby_rows()`` are still ``before``."""
    assert response.status_code == status, response.content
    assert words in response.json()["error"]
    assert lobby_rows() == before


@pytest.fixture
def api_server(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Callable[..., str]:
    """``api_server(VAR="value", ...)``: a real daphne (tests/conftest.py) started
    with these settings in its environment (the API's keep-alive, rate limits)."""
    def start(**env: str) -> str:
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return str(request.getfixturevalue("daphne_server"))

    return start
