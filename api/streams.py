"""Streams as newline-delimited JSON over HTTP, as lichess's API (docs/api.md,
"Streams"): one JSON object a line, and an empty line every
``API_STREAM_KEEPALIVE`` seconds so that clients and proxies know the stream
is alive. The first line is empty too, sent once the stream listens: a
client that waits for it misses nothing that happens after.

A stream is an async view that listens on the same Channels groups as the
sockets: the game's group (``game-<id>``) for a seat's stream, the user's
(``user-<id>``) for the account's events. Group messages carry ids only, and
every line is built for this stream's user from the database after commit, by
the same function as the sockets' frames (games.payloads.view_for): nothing
hidden reaches a stream that its seat may not see.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any, Protocol

from channels.layers import get_channel_layer
from django.conf import settings
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import translation
from ninja import Router

from chat import lines as chat_lines
from games import botmoves, broadcast, chat, payloads, presence, signins, sockets, store
from games.models import PRESENCE_HEARTBEAT, Game
from games.sockets import db_work
from ladder import challenges, lobby_groups, lobby_json
from api import answers, stream_lines
from api.auth import StreamToken
from api.playing import seated_game
from api.schemas import errors

router = Router(tags=["streams"])

NDJSON = "application/x-ndjson"
ACCOUNT_CLOSED = "account.closed"  # games.signins.close_sockets, to the user's groups
TOKEN_REVOKED = "token.revoked"  # api.tokens, to the user's groups


def ends(message: dict[str, Any], token_id: int) -> bool:
    """Whether a message of the user's groups ends a stream opened with the
    token ``token_id``: its account closed, or that token revoked. A revoked
    token is refused from the next request on; its open streams end as well."""
    kind = message.get("type")
    return kind == ACCOUNT_CLOSED or (kind == TOKEN_REVOKED and token_id in message.get("tokens", ()))
Line = dict[str, Any]


def _stream_doc(line: str, lines: str) -> dict[str, Any]:
    """The spec's 200 for a stream: its media type, and the schema of ONE of
    its lines (api/stream_lines.py): a oneOf over its line types, told apart
    by ``type``."""
    how = ("The schema is that of ONE line. Read the stream by splitting it on \"\\n\", skip the empty "
           "lines (keep-alives), parse each other line as JSON and dispatch on its \"type\". ")
    return {"responses": {200: {"description": how + lines,
                                "content": {NDJSON: {"schema": stream_lines.line_ref(line)}}}}}


@router.get("/stream/event", response=errors(403), auth=StreamToken("read"), summary="Stream your account's events",
            openapi_extra=_stream_doc(stream_lines.EVENT_STREAM,
                'One line per event: "game_started" (also, on opening, for each game you are playing), '
                '"game_finished", "challenge" (also, on opening, each pending one; its "status" and '
                '"direction" say what happened), "tournament_round_started"; an empty line is a keep-alive.'))
async def event_stream(request: HttpRequest) -> StreamingHttpResponse:
    """Everything that happens to your account, as it happens: what a bot listens
    to, to learn of challenges and of its games' starts."""
    return _streaming((lobby_groups.user_group(request.user.pk),), _EventWatcher(request.user, request.auth.pk))


@router.get("/stream/game/{id:game_id}", response=errors(403, 404), auth=StreamToken("play"),
            summary="Stream your seat's view of a game",
            openapi_extra=_stream_doc(stream_lines.GAME_STREAM,
                'The first line is "sync": your seat\'s view (as GET .../seat answers it, with "type"); then '
                '"update" after every change (a Rhombus update\'s actions are only the new ones, from '
                'actions_from), and "chatLine" for each line of the players\' chat; the stream ends after '
                "the line that shows the game over. An empty line is a keep-alive."))
async def game_stream(request: HttpRequest, game_id: int) -> StreamingHttpResponse:
    """Your seat's own view after every change of one of your games: the same
    payloads as the game socket (docs/protocol.md)."""
    await db_work(seated_game)(game_id, request.user)
    # The user's group too: a mute or unmute reaches an open stream (games.signins).
    groups = (broadcast.group_name(game_id), signins.user_group(request.user.pk))
    return _streaming(groups, _SeatWatcher(game_id, request.user, request.auth.pk))


class _Watcher(Protocol):
    done: bool  # set once the stream has said all it will

    async def opening(self) -> list[Line]: ...

    async def after(self, message: dict[str, Any]) -> list[Line]: ...

    async def idle(self) -> None: ...  # between messages, at least every keep-alive

    async def closing(self) -> None: ...


def _streaming(groups: tuple[str, ...], watcher: _Watcher) -> StreamingHttpResponse:
    response = StreamingHttpResponse(_lines(groups, watcher), content_type=NDJSON)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each line on at once
    return response


async def _lines(groups: tuple[str, ...], watcher: _Watcher) -> AsyncIterator[bytes]:
    """Join the groups first, then read the opening lines, so that no change
    between the two is missed; then the lines each message makes, until the
    watcher is done or the client goes (Django then cancels this)."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    for group in groups:
        await layer.group_add(group, channel)
    # One receive stays pending across keep-alives: a cancelled receive drops
    # the channel's buffer (the layer takes it for a consumer that has gone),
    # and a message already in it would be lost (bench/api_streams.py saw it).
    receiving = asyncio.ensure_future(layer.receive(channel))
    clock = asyncio.get_running_loop().time
    try:
        yield b"\n"  # listening: what happens from now on will be streamed (the headers went out before)
        for line in await watcher.opening():
            yield _encode(line)
        # A keep-alive goes out whenever nothing has for API_STREAM_KEEPALIVE seconds, even
        # while messages come that make no line (a player's group hears of every turn).
        sent = clock()
        while not watcher.done:
            done, _ = await asyncio.wait({receiving}, timeout=max(0.0, sent + settings.API_STREAM_KEEPALIVE - clock()))
            if done:
                message, receiving = receiving.result(), asyncio.ensure_future(layer.receive(channel))
                for line in await watcher.after(message):
                    yield _encode(line)
                    sent = clock()
            if clock() - sent >= settings.API_STREAM_KEEPALIVE:
                yield b"\n"
                sent = clock()
            await watcher.idle()
    finally:
        receiving.cancel()
        for group in groups:
            await layer.group_discard(group, channel)
        await watcher.closing()


def _encode(line: Line) -> bytes:
    return sockets.encode(line).encode() + b"\n"


class _SeatWatcher:
    """One stream's place in a game: the last ply and status it sent, so that
    an update carries only what is new, and the stream ends with the game.

    An open stream keeps its seat present as an open game socket does
    (games.models, presence): stamped on opening, every PRESENCE_HEARTBEAT,
    and as left on closing; so a bot that stays connected is never taken for
    one that left, and one that goes can have the win claimed against it."""

    def __init__(self, game_id: int, user: Any, token_id: int) -> None:
        self.game_id, self.user, self.token_id = game_id, user, token_id
        self.language = translation.get_language()  # the request's (Accept-Language), for chat presets
        self.muted: frozenset[str] | None = None  # read with the first chat line
        self.step: store.Step | None = None
        self.seat: str | None = None
        self.stamped = 0.0
        self.done = False
        self.answered: answers.Answer | None = None  # this user's last API move here, as its POST answered it

    async def opening(self) -> list[Line]:
        answers.listen(self.game_id, self.user.pk, self)
        await self._stamp(presence.arrive)
        return await db_work(self._line)("sync")

    async def after(self, message: dict[str, Any]) -> list[Line]:
        kind = message.get("type")
        if kind == "chat.line":
            return await self._chat_line(message)
        if kind == "mutes.changed":
            self.muted = None  # read again with the next line
            return []
        if ends(message, self.token_id):
            self.done = True
            return []
        if kind in ("session.ended", "session.check", TOKEN_REVOKED):  # the user's group: for sockets, other tokens
            return []
        if message.get("seat") == self.seat:  # this seat's own presence: nothing new to show it
            if message.get("type") == "game.left":
                await self._stamp(presence.arrive)  # another of its sockets closed: this stream is still here
            return []
        answer = answers.answer_to(self, message, self.language)
        if answer is not None:  # this user's own move, whose view its POST has just built
            return self._sent("update", payloads.view_since(answer, None if self.step is None else self.step.ply))
        return await db_work(self._line)("update")

    async def _chat_line(self, message: dict[str, Any]) -> list[Line]:
        """A line of the players' room, as lichess's bot API streams it: the
        spectators' room opens to players only after the game, when this stream
        has ended; a muted author's lines never come (chat.lines.mute)."""
        line = message["line"]
        if message["room"] != chat.PLAYERS:
            return []
        if self.muted is None:
            self.muted = frozenset(await db_work(chat_lines.muted_names)(self.user))
        if line["user"] in self.muted:
            return []
        with translation.override(self.language):
            said = chat_lines.words(line["text"], line["preset"], line["removed"])
        return [{"type": "chatLine", "room": chat.PLAYERS, "id": line["id"], "username": line["user"],
                 "text": said, "preset": line["preset"], "removed": line["removed"]}]

    async def idle(self) -> None:
        if time.monotonic() - self.stamped >= PRESENCE_HEARTBEAT.total_seconds():
            await self._stamp(presence.arrive)

    async def closing(self) -> None:
        answers.stop(self.game_id, self.user.pk, self)
        await self._stamp(presence.depart)

    async def _stamp(self, stamp: Any) -> None:
        """As the game socket does (GameConsumer._presence): stamp on a database
        thread, then tell the game's group from this event loop."""
        self.seat, event = await db_work(stamp)(self.game_id, self.user)
        self.stamped = time.monotonic()
        if event is not None:
            await get_channel_layer().group_send(broadcast.group_name(self.game_id), event)

    def _line(self, kind: str) -> list[Line]:
        game = store.load(self.game_id)
        assert game is not None  # games are never deleted
        botmoves.resume_waiting_move(game)  # shown: without a worker, a bot move this process lost
        return self._sent(kind, payloads.view_for(game, self.user, since=None if self.step is None else self.step.ply))

    def _sent(self, kind: str, payload: payloads.PayloadJSON) -> list[Line]:
        step = store.Step(payload["ply"], payload["game"]["status"])
        if self.step is not None and self.step.ahead_of(step):
            return []  # read before what this stream has sent already
        self.step, self.done = step, step.status != Game.Status.RUNNING
        return [{"type": kind, **payload}]


class _EventWatcher:
    """The account's events: the group's messages hold ids; each line is read
    for this user (a challenge as they see it)."""

    done = False  # an account's events end only with the account (account.closed)

    def __init__(self, user: Any, token_id: int) -> None:
        self.user, self.token_id = user, token_id

    async def opening(self) -> list[Line]:
        return await db_work(self._opening)()

    async def after(self, message: dict[str, Any]) -> list[Line]:
        if ends(message, self.token_id):
            self.done = True
            return []
        return await db_work(self._after)(message)

    async def idle(self) -> None:
        pass

    async def closing(self) -> None:
        pass

    def _opening(self) -> list[Line]:
        running = (Game.objects.filter(seats__user=self.user, status=Game.Status.RUNNING)
                   .order_by("pk").values_list("pk", flat=True))
        return ([_game_started(game_id) for game_id in running]
                + [{"type": "challenge", "challenge": c} for c in challenges.pending_challenges(self.user)])

    def _after(self, message: dict[str, Any]) -> list[Line]:
        kind = message.get("type")
        if kind == "game.started":
            return [_game_started(int(message["game"]))]
        if kind == "game.finished":
            return game_finished_lines(int(message["game"]))
        if kind == "challenge.changed":
            challenge = challenges.challenge_for(int(message["challenge"]), self.user)
            return [] if challenge is None else [{"type": "challenge", "challenge": challenge}]
        if kind == "tournament.round":
            tournament = int(message["tournament"])
            return [{"type": "tournament_round_started", "tournament": tournament, "round": message["round"],
                     "url": f"/tournaments/{tournament}/"}]
        return []  # the pool's own news: for the lobby page only


def game_finished_lines(game_id: int) -> list[Line]:
    """The event stream's line for a finished game: its result too, as the record writes it."""
    game = Game.objects.filter(pk=game_id).only("status", "winner", "reason", "kind", "players").first()
    return [] if game is None else [{"type": "game_finished", "game": game.pk, "status": game.status,
                                     "winner": game.winner or None, "reason": game.reason or None,
                                     "result": game.result}]


def _game_started(game_id: int) -> Line:
    return {"type": "game_started", "game": game_id, "url": lobby_json.game_url(game_id)}
