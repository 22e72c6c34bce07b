"""What the game and lobby sockets share: JSON frames, answered rather than raised.

Every frame is a text frame holding one JSON object with a "type"; anything
else (binary, oversized, not JSON, not an object, an unknown type) gets an
``error`` on this socket only, and the consumer carries on (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import ujson
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from chat import lines as chat_lines
from games import signins
from preferences.languages import language_from_scope

MAX_FRAME_BYTES = 4096
SIGNED_OUT = 4401  # close code: the login this socket was opened with has ended

# Database work of the sockets runs on a small pool of threads, each with its
# own connection, rather than on Channels' single database thread: one thread
# spends most of its time waiting for PostgreSQL, so every game in the process
# queued behind every other (docs/performance.md).
_DB_POOL = ThreadPoolExecutor(max_workers=settings.DB_THREADS, thread_name_prefix="db")

F = TypeVar("F", bound=Callable[..., Any])


def db_work(func: F) -> Any:
    """Like ``channels.db.database_sync_to_async``, on the sockets' thread pool.

    Safe because every change locks its game row (games.store.locked), so two threads
    never act on one game at once; reads see only committed rows. A plain
    ``run_in_executor`` rather than asgiref's SyncToAsync, whose bookkeeping
    (for thread-sensitive calls, which these are not) was a tenth of daphne's
    CPU at 500 games (docs/performance.md).
    """
    @functools.wraps(func)
    async def run(*args: Any, **kwargs: Any) -> Any:
        call = functools.partial(_with_fresh_connection, func, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(_DB_POOL, contextvars.copy_context().run, call)

    return run


def _with_fresh_connection(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """As Channels' DatabaseSyncToAsync does: drop connections that are broken
    or past their age before and after the call."""
    close_old_connections()
    try:
        return func(*args, **kwargs)
    finally:
        _keep_connections()
        close_old_connections()


def _keep_connections() -> None:
    """Let this pool thread keep the pooled connections it took for
    ``DB_THREAD_CONN_AGE`` seconds, rather than CONN_MAX_AGE's 0.

    With Django's connection pool CONN_MAX_AGE must be 0, so every call gave
    its connection back to the pool and took one again on the next: about
    0.07 ms of daphne's CPU a live move (docs/performance.md). These few
    threads live as long as the process and serve nothing else, so each keeps
    one connection (the pool's size counts them, settings.DB_POOL_SIZE). One
    left broken or outside autocommit is still dropped after the call
    (close_old_connections), and one past its age goes back to the pool."""
    for connection in connections.all(initialized_only=True):
        raw = connection.connection
        if raw is None or not _pooled(connection):
            continue  # without a pool, CONN_MAX_AGE says how long connections live
        if getattr(connection, "kept_connection", None) is not raw:
            connection.kept_connection = raw
            connection.close_at = time.monotonic() + settings.DB_THREAD_CONN_AGE


def _pooled(connection: Any) -> bool:
    return connection.vendor == "postgresql" and bool(connection.settings_dict["OPTIONS"].get("pool"))


def close_request_connections(**kwargs: Any) -> None:
    """At the end of an HTTP request, close the connections of its thread.

    Under daphne (ASGI) a request's sync code runs on a thread of its own
    (asgiref's ThreadSensitiveContext), gone when the request ends. Django
    keeps a connection younger than CONN_MAX_AGE for reuse, but on that
    thread it is never used again: it stays open until garbage collection, one
    per request (bench/api_streams.py counted over a thousand). The sockets'
    database threads, which do reuse theirs, serve no requests. A connection
    inside a transaction (the test client's) is left alone."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def drain_db_pool(timeout: float = 30) -> None:
    """Wait for all queued database work of the sockets, then close each pool
    thread's connection.

    For tests: a call still running when a test ends (a departing socket, a
    cancelled heartbeat) would keep its connection open into the next test,
    and past the test database's drop. One task per thread, held at a barrier
    so that each thread takes exactly one, runs after everything queued before.
    """
    size = settings.DB_THREADS
    barrier = threading.Barrier(size)

    def close() -> None:
        try:
            barrier.wait(timeout)
        finally:
            connections.close_all()

    for future in [_DB_POOL.submit(close) for _ in range(size)]:
        future.result(timeout)

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class SignedOut(Exception):
    """Raised by ``JsonFrameConsumer._check_signed_in`` in a handler's database
    work: the socket's session has ended, so the work is not done and the
    socket signs out."""


class JsonFrameConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """Decodes and dispatches frames by "type"; subclasses name their handlers,
    how an error is sent, and which refusals are answered as errors."""

    refusals: tuple[type[Exception], ...] = ()
    reads = frozenset({"sync", "ping"})  # message types that act for nobody: no session check
    # Message types whose handlers check the session themselves, first thing in
    # their own database work (``_check_signed_in``): a move's check and the
    # move then cost one hop to a database thread, not two (issue 24).
    checked_in_work: frozenset[str] = frozenset()
    signed_in_as: int | None = None  # the user this socket acts for, while its session lasts
    session_tag = ""
    sign_in_evidence: tuple[Any, ...] | None = None  # what the last session check judged good
    expiry: asyncio.Task[None] | None = None
    language: str | None = None  # the socket's person's, once known; else the active language

    # Usernames whose chat lines this socket's person muted: read when the first
    # line comes, not on connecting (most sockets never see a line).
    muted: frozenset[str] | None = None

    def _handlers(self) -> dict[str, Handler]:
        raise NotImplementedError

    # --- Chat (issue 25) --------------------------------------------------------

    async def _send_chat_line(self, line: dict[str, Any], **extra: Any) -> None:
        """A new line, unless its author is muted here, worded for this socket:
        a preset in its person's language, a removed line as removed."""
        if self.muted is None:
            user = self.scope.get("user")
            signed_in = user is not None and user.is_authenticated
            self.muted = frozenset(await db_work(chat_lines.muted_names)(user) if signed_in else ())
        if line["user"] in self.muted:
            return
        with translation.override(self.language or translation.get_language()):
            said = chat_lines.words(line["text"], line["preset"], line["removed"])
        await self.send_json({"type": "chatLine", **extra, "line": {**line, "said": said}})

    async def _say_chat(self, content: dict[str, Any], post: Callable[[Any, str, str], Any],
                        run: Callable[..., Awaitable[Any]] | None = None, **extra: Any) -> None:
        """A "chat" frame: {"text": ...} or {"preset": ...}; ``post(user, text,
        preset)`` stores it (the line comes back to every socket that may read
        it through the group), or it is refused to this socket only. ``run``
        runs it on a database thread (default ``db_work``)."""
        text, preset = content.get("text", ""), content.get("preset", "")
        if not isinstance(text, str) or not isinstance(preset, str):
            await self._say(gettext_noop('a chat frame holds a "text" or a "preset" string'))
            return
        try:
            if run is None:
                await db_work(post)(self.scope.get("user"), text, preset)
            else:
                await run(post, self.scope.get("user"), text, preset)
        except chat_lines.Refused as refused:
            await self.send_json({"type": "chatRefused", **extra, "code": refused.code, "message": str(refused)})

    async def _error(self, message: str) -> None:
        raise NotImplementedError

    async def _say(self, msgid: str, **params: Any) -> None:
        """Send the error ``msgid`` (marked with gettext_noop) in this socket's language."""
        with translation.override(self.language or translation.get_language()):
            text = gettext(msgid) % params if params else gettext(msgid)
        await self._error(text)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        """Decode here rather than in the base class, so bad JSON is answered, not raised."""
        if text_data is None:
            await self._say(gettext_noop("send text frames holding JSON objects"))
            return
        if len(text_data.encode()) > MAX_FRAME_BYTES:
            await self._say(gettext_noop("frame too large (over %(size)s bytes)"), size=MAX_FRAME_BYTES)
            return
        try:
            content = await self.decode_json(text_data)
        except (ValueError, RecursionError):
            await self._say(gettext_noop("not valid JSON"))
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self._say(gettext_noop('a message is a JSON object with a "type"'))
            return
        kind = content.get("type")
        handler = self._handlers().get(kind) if isinstance(kind, str) else None
        if handler is None:
            await self._say(gettext_noop("unknown message type: use %(types)s"), types=", ".join(self._handlers()))
            return
        if kind not in self.reads and kind not in self.checked_in_work and not await self._still_signed_in():
            await self._sign_out()
            return
        try:
            with translation.override(self.language or translation.get_language()):
                await handler(content)  # a refusal is worded in this socket's language
        except self.refusals as refusal:
            await self._error(str(refusal))
        except SignedOut:
            await self._sign_out()

    # --- Following the login (games.signins) ---------------------------------

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        # Consumers run no LocaleMiddleware: the person's language, picked as a page would pick it.
        self.language = await db_work(language_from_scope)(self.scope) or settings.LANGUAGE_CODE
        await super().websocket_connect(message)
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.signed_in_as = user.pk
            self.session_tag = signins.session_tag(self._session_key)
            await self.channel_layer.group_add(signins.user_group(user.pk), self.channel_name)
            self.expiry = asyncio.create_task(self._check_at_expiry())

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if self.expiry is not None:
            self.expiry.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.expiry
        if self.signed_in_as is not None:
            await self.channel_layer.group_discard(signins.user_group(self.signed_in_as), self.channel_name)
        await super().websocket_disconnect(message)

    async def session_ended(self, event: dict[str, Any]) -> None:
        """The user logged out of the session this socket was opened with."""
        if event.get("session") == self.session_tag:
            await self._sign_out()

    async def account_closed(self, event: dict[str, Any]) -> None:
        """The user's account was closed (games.signins.close_sockets): sign out now."""
        await self._sign_out()

    async def token_revoked(self, event: dict[str, Any]) -> None:
        """An API token of the user was revoked: for the user's API streams
        (api.streams); a socket follows its session, not a token."""

    async def mutes_changed(self, event: dict[str, Any]) -> None:
        """The user muted or unmuted someone (games.signins): read the list again with the next line."""
        self.muted = None

    async def session_check(self, event: dict[str, Any]) -> None:
        """The user's password changed: sessions other than the new one ended."""
        if not await self._still_signed_in():
            await self._sign_out()

    async def _check_at_expiry(self) -> None:
        while self.signed_in_as is not None:
            ends = await db_work(signins.expires_at)(self._session_key)
            if ends is None:
                break
            await asyncio.sleep(max(0.0, (ends - timezone.now()).total_seconds()) + 0.5)
        if self.signed_in_as is not None:
            self.expiry = None  # this task is ending: _sign_out must not wait for it
            await self._sign_out()

    async def _still_signed_in(self) -> bool:
        """True for a socket opened without a login (it acts for nobody, and
        what it asks for is refused as such), else whether its session lasts."""
        try:
            await db_work(self._check_signed_in)()
        except SignedOut:
            return False
        return True

    def _check_signed_in(self, evidence: Any = signins.UNREAD) -> None:
        """On a database thread: raise SignedOut unless the session still signs
        in the socket's user (a socket opened without a login passes).
        ``evidence``: what a statement of the caller's read of the session
        (games.signins.evidence_sql), if it did."""
        if self.signed_in_as is None:
            return
        still, self.sign_in_evidence = signins.still_signs_in(
            self._session_key, self.signed_in_as, self.sign_in_evidence, evidence)
        if not still:
            raise SignedOut

    async def _sign_out(self) -> None:
        if self.signed_in_as is None:
            return
        self.signed_in_as = None
        await self._say(gettext_noop("you are signed out: this socket closes; sign in again to play"))
        await self.close(code=SIGNED_OUT)

    @property
    def _session_key(self) -> str | None:
        session = self.scope.get("session")
        return None if session is None else session.session_key

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its ``aclose_old_connections`` before every
        message: that is a hop to Channels' single database thread, for every
        frame and group message of every socket, and it has nothing to do here.
        All our database work runs through ``db_work`` or
        ``database_sync_to_async``, which closes stale connections itself, on
        the thread that holds them, before and after each call."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def send_json(self, content: Any, close: bool = False) -> None:
        """Send, unless the socket has closed meanwhile.

        A group message or a heartbeat can be on its way while the client
        closes: daphne then raises autobahn's Disconnected from our send. The
        ``websocket.disconnect`` is already queued behind it, and must still
        run (it records that a player left), so the send is simply dropped.
        """
        try:
            await super().send_json(content, close)
        except Disconnected:
            pass

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """Every frame out, encoded by ujson (``encode``); a game's frames were
        4 % of daphne's CPU with ``json.dumps`` (issue 24)."""
        return encode(content)


def encode(content: Any) -> str:
    """JSON as ``json.dumps(content, separators=(",", ":"))`` writes it (non-ASCII
    escaped), by ujson in about a quarter of the time: every socket frame and
    API stream line goes through here (issue 24)."""
    return ujson.dumps(content, ensure_ascii=True, escape_forward_slashes=False)
