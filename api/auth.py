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

import collections
import functools
import threading
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils.translation import gettext
from ninja.errors import HttpError
from ninja.security import HttpBearer
from ninja.throttling import BaseThrottle, SimpleRateThrottle

from games.sockets import db_work
from api import tokens
from api.models import ApiToken


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
    tell it apart (api/main.py marks its token optional there)."""

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


# --- Rate limits ---------------------------------------------------------------


class Limits(BaseThrottle):
    """Both rate limits, per address (API_RATE_PER_ADDRESS) and per token
    (API_RATE_PER_TOKEN), as django-ninja's sliding-window throttle counts
    each (SimpleRateThrottle: the last window's requests, each remembered;
    a refused request is not counted where it was refused), checked and
    counted in one call: one Redis script when REDIS_URL is set, so that
    every server counts together, else in this process. Rates are read from
    settings at each request (tests change them)."""

    def __init__(self) -> None:
        self._refused = threading.local()

    def allow_request(self, request: HttpRequest) -> bool:
        limits = [(f"address:{self.get_ident(request)}", _rate(settings.API_RATE_PER_ADDRESS))]
        auth = getattr(request, "auth", None)
        if isinstance(auth, ApiToken):
            limits.append((f"token:{auth.pk}", _rate(settings.API_RATE_PER_TOKEN)))
        self._refused.waits = waits = _counter().hit(limits, time.time())
        return not waits

    def wait(self) -> float | None:
        """The longest wait of the limits that refused (None: none can be said)."""
        return max((w for w in self._refused.waits if w is not None), default=None)


@functools.lru_cache(maxsize=16)
def _rate(rate: str) -> tuple[int, int]:
    """ "300/min" as (300, 60), as ninja reads it."""
    count, seconds = SimpleRateThrottle(rate).parse_rate(rate)
    assert count is not None and seconds is not None
    return count, seconds


Limit = tuple[str, tuple[int, int]]  # (key, (requests, seconds))


class _RedisCounter:
    """The limits' windows as Redis lists of request times, newest first, one
    script checking and counting them all (atomic, one round trip)."""

    SCRIPT = """
    local now = tonumber(ARGV[1])
    local answers = {}
    for i, key in ipairs(KEYS) do
        local limit, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
        local oldest = redis.call("LINDEX", key, -1)
        while oldest and tonumber(oldest) <= now - window do
            redis.call("RPOP", key)
            oldest = redis.call("LINDEX", key, -1)
        end
        local count = redis.call("LLEN", key)
        if count < limit then
            redis.call("LPUSH", key, ARGV[1])
            redis.call("EXPIRE", key, window)
            answers[i] = ""
        elseif count == limit then
            answers[i] = tostring(oldest and window - (now - tonumber(oldest)) or window)
        else
            answers[i] = "-"
        end
    end
    return answers
    """
    PREFIX = "aceweb:api-limit:"

    def __init__(self, url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(url)
        self.script = self.client.register_script(self.SCRIPT)

    def hit(self, limits: list[Limit], now: float) -> list[float | None]:
        """Count a request against each limit it is under; the waits of those it is over."""
        args: list[Any] = [repr(now)]
        for _, (count, seconds) in limits:
            args += [count, seconds]
        answers = self.script(keys=[self.PREFIX + key for key, _ in limits], args=args)
        return [None if a == b"-" else float(a) for a in answers if a]

    def forget(self) -> None:
        for key in self.client.scan_iter(self.PREFIX + "*"):
            self.client.delete(key)


class _MemoryCounter:
    """The same windows in this process, for a site without Redis."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.windows: dict[str, collections.deque[float]] = {}

    def hit(self, limits: list[Limit], now: float) -> list[float | None]:
        waits: list[float | None] = []
        with self.lock:
            for key, (count, seconds) in limits:
                window = self.windows.setdefault(key, collections.deque())
                while window and window[-1] <= now - seconds:
                    window.pop()
                if len(window) < count:
                    window.appendleft(now)
                else:
                    waits.append((seconds - (now - window[-1]) if window else seconds)
                                 if len(window) == count else None)
        return waits

    def forget(self) -> None:
        with self.lock:
            self.windows.clear()


@functools.cache
def _counter() -> _RedisCounter | _MemoryCounter:
    return _RedisCounter(settings.REDIS_URL) if settings.REDIS_URL else _MemoryCounter()


def forget_requests() -> None:
    """Start every count afresh (tests)."""
    _counter().forget()
