"""Personal access tokens: made once and shown once, stored hashed, scoped,
revocable, and the 401/403 refusals (api/auth.py)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from api import tokens
from api.models import ApiToken
from tests.api.conftest import ApiClient

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_only_as_its_digest(alice: Any) -> None:
    row, token = tokens.make(alice, "my bot", ["read", "play"])
    assert token.startswith("acew_") and len(token) > 40
    stored = ApiToken.objects.get(pk=row.pk)
    assert stored.digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in {stored.digest, stored.hint, stored.name}
    assert stored.hint == token[:10] and stored.scopes == ["read", "play"]


def test_the_account_endpoint_answers_a_token(alice: Any, api_as: Any) -> None:
    response = api_as(alice, "read").get("/api/account")
    assert response.status_code == 200
    assert response.json()["username"] == "alice" and response.json()["bot"] is False
    assert response.json()["scopes"] == ["read"]


@pytest.mark.parametrize(("header", "message"), [
    (None, "send a personal access token"),
    ("Bearer acew_not-a-token", "unknown or revoked token"),
    ("Basic YWxpY2U6eA==", 'must be "Bearer <token>"'),
])
def test_no_or_bad_token_is_a_401_in_words(client: Any, header: str | None, message: str) -> None:
    headers = {"Authorization": header} if header else {}
    response = client.get("/api/account", headers=headers, HTTP_HOST="localhost")
    assert response.status_code == 401
    assert message in response.json()["error"]


def test_a_revoked_token_is_refused(alice: Any) -> None:
    row, token = tokens.make(alice, "old", ["read"])
    tokens.revoke(alice, row.pk)
    assert ApiClient(token).get("/api/account").status_code == 401


def test_refusals_when_making_tokens_change_nothing(alice: Any, bob: Any) -> None:
    with pytest.raises(tokens.TokenRefusal, match="unknown scope 'admin'"):
        tokens.make(alice, "x", ["admin"])
    with pytest.raises(tokens.TokenRefusal, match="at least one scope"):
        tokens.make(alice, "x", [])
    with pytest.raises(tokens.TokenRefusal, match="name the token"):
        tokens.make(alice, "  ", ["read"])
    row, _ = tokens.make(alice, "mine", ["read"])
    with pytest.raises(tokens.TokenRefusal, match="no such live token"):
        tokens.revoke(bob, row.pk)  # another user's token
    assert ApiToken.objects.count() == 1 and ApiToken.objects.get().revoked is None


def test_the_token_page_shows_a_new_token_once_and_revokes(client: Any, alice: Any) -> None:
    client.force_login(alice)
    page = client.post("/account/tokens/", {"name": "my bot", "scopes": ["read", "bot:play"]},
                       HTTP_HOST="localhost", follow=True)
    assert page.status_code == 200 and page.redirect_chain == [("/account/tokens/", 302)]
    token = page.context["new_token"]
    assert token in page.content.decode()
    again = client.get("/account/tokens/", HTTP_HOST="localhost").content.decode()
    assert token not in again and token[:10] in again and "my bot" in again
    row = ApiToken.objects.get()
    client.post(f"/account/tokens/{row.pk}/revoke/", HTTP_HOST="localhost")
    assert ApiToken.objects.get().revoked is not None


def test_the_token_page_refuses_no_scope_and_keeps_nothing(client: Any, alice: Any) -> None:
    client.force_login(alice)
    page = client.post("/account/tokens/", {"name": "x"}, HTTP_HOST="localhost")
    assert page.status_code == 400 and "This field is required" in page.content.decode()
    assert not ApiToken.objects.exists()


def test_rate_limit_per_token_is_a_429_with_retry_after(alice: Any, api_as: Any, settings: Any) -> None:
    settings.API_RATE_PER_TOKEN = "3/min"
    client = api_as(alice, "read")
    assert [client.get("/api/account").status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get("/api/account")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert "error" in refused.json()
    other = api_as(alice, "read")  # another token of the same account has its own count
    assert other.get("/api/account").status_code == 200


def test_rate_limit_per_address_counts_every_token(alice: Any, bob: Any, api_as: Any, settings: Any) -> None:
    settings.API_RATE_PER_ADDRESS = "2/min"
    assert api_as(alice, "read").get("/api/account").status_code == 200
    assert api_as(bob, "read").get("/api/account").status_code == 200
    assert api_as(None).get("/api/openapi.json").status_code == 200  # the spec is not limited
    assert api_as(bob, "read").get("/api/account").status_code == 429



def test_the_rate_limits_count_alike_in_redis_and_in_memory() -> None:
    """The same sliding windows as ninja's throttle, whichever counts: a
    request over a limit is refused with the wait until the window's oldest
    request leaves it, and is not counted where it was refused."""
    from django.conf import settings

    from api.auth import _MemoryCounter, _RedisCounter

    if not settings.REDIS_URL:
        pytest.skip("needs REDIS_URL")
    redis_counter, memory = _RedisCounter(settings.REDIS_URL), _MemoryCounter()
    redis_counter.forget()
    steps = [(0.0, 2, 3), (1.0, 2, 3), (1.5, 2, 3), (3.0, 2, 3), (3.2, 1, 3), (10.0, 2, 3)]
    for now, address_limit, token_limit in steps:
        limits = [("address:test", (address_limit, 2)), ("token:test", (token_limit, 60))]
        assert redis_counter.hit(limits, 1_000_000 + now) == pytest.approx(memory.hit(limits, 1_000_000 + now))
    redis_counter.forget()
    assert memory.hit([("k", (1, 60))], 0.0) == []
    assert memory.hit([("k", (1, 60))], 15.0) == [pytest.approx(45.0)]


def test_an_api_request_ignores_the_browsers_session(client: Any, alice: Any) -> None:
    """The API's own middleware (aceweb.middleware.ApiShortcutMiddleware): a
    signed-in browser's session neither says who calls nor is touched (no
    Set-Cookie, no Vary: Cookie); the language headers are as before."""
    client.force_login(alice)
    response = client.get("/api/account", HTTP_HOST="localhost")
    assert response.status_code == 401
    assert not response.cookies
    assert response["Content-Language"] == "en"
    assert response["Vary"] == "Accept-Language"
    assert response["X-Frame-Options"] == "DENY" and response["X-Content-Type-Options"] == "nosniff"
    page = client.get("/account/tokens/", HTTP_HOST="localhost")  # the site's pages still have it
    assert page.status_code == 200 and "Cookie" in page["Vary"]
