"""The API tests' shared pieces: a token for a user with chosen scopes, and a
client that sends it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from ladder.api import tokens


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
    caches["api"].clear()
