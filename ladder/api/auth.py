"""Who a request is, what it may do, and how often (docs/api.md, "Tokens").

``Token(scope)`` is a django-ninja security scheme: ``Authorization: Bearer
<token>``, documented in the OpenAPI spec as HTTP bearer. A missing or unknown
token is a 401, a token without the scope a 403, each with a JSON ``error``.
Public reads use ``OptionalToken()``: no header is fine (a visitor), a bad
one is still a 401, so a typo in a token is never silently anonymous.

"play" is one scope for two kinds of account, as on lichess: a person's token
needs ``play``, a BOT account's needs ``bot:play``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.http import HttpRequest
from django.utils.translation import gettext
from ninja.errors import HttpError
from ninja.security import HttpBearer
from ninja.throttling import SimpleRateThrottle

from games.sockets import db_work
from ladder.api import tokens
from ladder.api.models import ApiToken


class Visitor:
    """``request.auth`` of a request without a token."""

    def __str__(self) -> str:
        return "visitor"


VISITOR = Visitor()


class Token(HttpBearer):
    def __init__(self, scope: str | None = None, *, optional: bool = False) -> None:
        super().__init__()
        self.scope, self.optional = scope, optional

    def __call__(self, request: HttpRequest) -> Any:
        if not request.headers.get("Authorization"):
            if self.optional:
                # Only a token says who calls the API: a browser's session cookie does not
                # (so no page can make a visitor's browser act through it).
                request.user = AnonymousUser()
                return VISITOR
            raise HttpError(401, gettext('send a personal access token: "Authorization: Bearer <token>" '
                                         "(make one on your account page, /account/tokens/)"))
        found = super().__call__(request)
        if found is None:
            raise HttpError(401, gettext('the Authorization header must be "Bearer <token>"'))
        return found

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken:
        row = tokens.find(token)
        if row is None:
            raise HttpError(401, gettext("unknown or revoked token"))
        _check_scope(row, self.scope)
        request.user = row.user
        return row


class OptionalToken(Token):
    """A public read: no token is a visitor. Its own class, so that the spec can
    tell it apart (ladder/api/main.py marks its token optional there)."""

    def __init__(self) -> None:
        super().__init__(optional=True)


class StreamToken(Token):
    """``Token`` for the streams (async views). ninja would run a sync check
    through ``sync_to_async`` on the request's own thread, whose database
    connection then stays open as long as the request: a stream's whole life,
    one PostgreSQL connection per open stream (bench/api_streams.py counted
    them). Here the check runs on the sockets' database threads instead
    (games.sockets.db_work), whose connections are few and shared."""

    is_async = True

    async def __call__(self, request: HttpRequest) -> Any:  # type: ignore[override]
        return await db_work(Token.__call__)(self, request)


def _check_scope(row: ApiToken, scope: str | None) -> None:
    if scope is None:
        return
    if scope == "play":
        scope = "bot:play" if row.is_bot_account else "play"  # type: ignore[attr-defined]
        if row.is_bot_account and "play" in row.scopes and "bot:play" not in row.scopes:  # type: ignore[attr-defined]
            raise HttpError(403, gettext("this is a BOT account: its tokens need the bot:play scope"))
    if scope == "read" and {"read", "play", "bot:play"} & set(row.scopes):
        return  # a token that plays may read what it plays with
    if scope not in row.scopes:
        raise HttpError(403, gettext("this token lacks the %(scope)s scope (its scopes: %(scopes)s)")
                        % {"scope": repr(scope), "scopes": ", ".join(row.scopes)})


def bot_token(request: HttpRequest) -> ApiToken:
    """The request's token, which must have bot:play (the upgrade endpoint)."""
    row: ApiToken = request.auth  # type: ignore[attr-defined]
    if "bot:play" not in row.scopes:
        raise HttpError(403, gettext("this token lacks the 'bot:play' scope"))
    return row


# --- Rate limits ---------------------------------------------------------------


class _Limit(SimpleRateThrottle):
    """django-ninja's sliding-window throttle, with its history in the "api"
    cache (Redis when REDIS_URL is set, so every server counts together) and
    its rate read from settings at each request (tests change it)."""

    setting = ""

    def __init__(self) -> None:
        super().__init__(rate="1/s")

    @property
    def cache(self) -> Any:  # type: ignore[override]
        return caches["api"]

    def allow_request(self, request: HttpRequest) -> bool:
        self.num_requests, self.duration = self.parse_rate(getattr(settings, self.setting))
        return super().allow_request(request)


class PerToken(_Limit):
    setting = "API_RATE_PER_TOKEN"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        auth = getattr(request, "auth", None)
        return f"api-limit:token:{auth.pk}" if isinstance(auth, ApiToken) else None


class PerAddress(_Limit):
    setting = "API_RATE_PER_ADDRESS"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        return f"api-limit:address:{self.get_ident(request)}"
