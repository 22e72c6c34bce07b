"""The websocket consumer for live games (docs/protocol.md): one Channels group per game.

Players and spectators connect to the same URL; the session decides the seat.
Every message out is built by games.payloads.view_for for this socket's user, so a
socket only ever carries what its own seat may see (R18). Bad frames get an
``error`` message on this socket; they never close it.

Everything a socket words for its own client (refusals, the view's texts) is
worded in that person's language (``self.language``, picked once when the
socket opens: games.sockets): consumers run no LocaleMiddleware.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from games import (botmoves, bots, broadcast, chat, finishing, live, moving, payloads, presence, refusals,
                   rematches, signins, starting, steps, store, watch)
from games.heartbeat import HEARTBEAT
from games.models import Game
from games.sockets import JsonFrameConsumer, SignedOut, db_work
from relation import follows

MAX_ACTION_CHARS = 64
NO_SUCH_GAME = 4404  # close code when the URL names no game
T = TypeVar("T")
log = logging.getLogger(__name__)


class GameConsumer(JsonFrameConsumer):
    game_id: int
    group: str
    step: store.Step | None = None  # the ply and status of the last state sent
    game_kind: str | None = None  # the game's rules (engine.GAMES's name), once a state has been sent
    sending: asyncio.Lock  # one state at a time, so that an older view never follows a newer
    seat: str | None = None  # this socket's seat once it is known to be a player's
    viewer: Any = None  # whose view this socket gets: its user, or None to watch
    watching = False  # ?watch=1: it only follows the game (and acts on nothing)
    api_only = False  # a BOT account's socket: its own view, but no actions
    chat_player: bool | None = None  # the person sits at this game; known with the first chat line
    # _submitted and _options_of check the session with the game's load: one hop and statement fewer each
    checked_in_work = frozenset({"act", "options"})

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = broadcast.group_name(self.game_id)
        self.sending = asyncio.Lock()
        await self.accept()
        # ?watch=1 (the replay page): a spectator's socket whoever opens it, so a
        # player reading the replay in another tab is not counted as present.
        self.watching = _watching(self.scope)
        self.viewer = None if self.watching else self.scope.get("user")
        # Arrive before joining: this socket's own sync already shows it present.
        self.seat = await self._arrive() if self.viewer is not None else None
        # A BOT account sees its own seat's view here but plays only through the API
        # (asked of players only: a spectator's actions are refused anyway).
        self.api_only = self.seat is not None and await db_work(bots.plays_only_through_api)(self.viewer)
        # Join before loading, so that no change between the two is missed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        if not await self._send_state("sync"):
            await self._no_such_game(self.game_id)
        else:
            HEARTBEAT.join(self)  # which keeps a player's seat present while this is open

    async def _no_such_game(self, game_id: int | str) -> None:
        await self._say(gettext_noop("there is no game %(id)s"), id=game_id)
        await self.close(code=NO_SUCH_GAME)

    async def disconnect(self, code: int) -> None:
        HEARTBEAT.leave(self)
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat is not None:
            await self._depart()

    # --- From the client --------------------------------------------------


    def _handlers(self) -> dict[str, Callable[[dict[str, Any]], Awaitable[None]]]:
        if self.watching:
            return {"sync": self._resync, "ping": self._ping}  # "options" too is refused: it only watches
        if self.api_only:
            refuse = self._refuse_api_only
            return {"act": refuse, "resign": refuse, "abort": refuse, "flag": refuse, "claim": refuse,
                    "rematch": refuse, "chat": refuse, "options": refuse, "sync": self._resync, "ping": self._ping}
        return {"act": self._act, "options": self._options, "resign": self._resign, "abort": self._abort,
                "flag": self._flag, "claim": self._claim, "rematch": self._rematch, "chat": self._chat,
                "sync": self._resync, "ping": self._ping}

    async def _act(self, content: dict[str, Any]) -> None:
        ply, action = content.get("ply"), content.get("action")
        bad_ply = not isinstance(ply, int) or isinstance(ply, bool)
        if bad_ply or not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION_CHARS:
            # Checked here, as for any other action, before the frame is answered.
            if not await self._still_signed_in():
                raise SignedOut
            if bad_ply:
                await self._say(gettext_noop('"ply" must be an integer: the ply of the state you are acting on'))
            else:
                await self._say(gettext_noop('"action" must be an action in the rules\' notation, e.g. "5H e1-e6"'))
        else:
            await self._attempt(self._move, ply, action)

    async def _options(self, content: dict[str, Any]) -> None:
        """Which uses can follow (games.steps): answered to this socket only,
        and only for the player to move; anyone else is refused, told nothing."""
        ply, cards, done = content.get("ply"), content.get("cards"), content.get("done", [])
        if not isinstance(ply, int) or isinstance(ply, bool):
            if not await self._still_signed_in():  # as for a bad act: checked before the frame is answered
                raise SignedOut
            await self._say(gettext_noop('"ply" must be an integer: the ply of the state you are acting on'))
            return
        try:
            answer = await self._options_of(ply, cards, done)
        except refusals.Refusal as refusal:
            await self._error(str(refusal))
            return
        await self.send_json({"type": "options", **answer})

    async def _chat(self, content: dict[str, Any]) -> None:
        room = content.get("room")
        if room not in chat.ROOMS:
            await self._say(gettext_noop('"room" must be "player" or "spectator"'))
            return

        def post(user: Any, text: str, preset: str) -> Any:
            return chat.say(self.game_id, user, room, text=text, preset=preset)

        # Its group message is sent from this loop, as a move's is (_announcing).
        await self._say_chat(content, post, run=self._announcing, room=room)

    async def chat_line(self, event: dict[str, Any]) -> None:
        """A line of one of the game's rooms: the players' reaches the players'
        sockets; the spectators' reaches the others', and the players' only once
        the game is over (as this socket last saw it: a line that comes just
        after the end waits for the page's reload of the rooms)."""
        room = event["room"]
        if self.chat_player is None:  # a watching socket's person may sit at the game
            self.chat_player = self.seat is not None or (
                self.watching and await db_work(chat.seated)(self.game_id, self.scope.get("user")))
        if room == chat.PLAYERS and not self.chat_player:
            return
        if room == chat.SPECTATORS and self.chat_player and (
                self.step is None or self.step.status == Game.Status.RUNNING):
            return
        await self._send_chat_line(event["line"], room=room)

    async def _refuse_api_only(self, content: dict[str, Any]) -> None:
        await self._say(gettext_noop("BOT accounts play through the API, not in the browser (see /api/docs)"))

    async def _resign(self, content: dict[str, Any]) -> None:
        await self._attempt(self._change, finishing.resign)

    async def _abort(self, content: dict[str, Any]) -> None:
        await self._attempt(self._change, finishing.abort)

    async def _flag(self, content: dict[str, Any]) -> None:
        await self._attempt(self._change, finishing.flag)

    async def _claim(self, content: dict[str, Any]) -> None:
        await self._attempt(self._change, finishing.claim_abandonment)

    async def _rematch(self, content: dict[str, Any]) -> None:
        await self._attempt(self._change, rematches.rematch)

    async def _resync(self, content: dict[str, Any]) -> None:
        """The client finds itself behind (a ``beat`` or ``pong`` says so): the whole state again."""
        await self._send_state("sync")

    async def _ping(self, content: dict[str, Any]) -> None:
        if self.seat is not None:
            await self._arrive()
        step = await self._current_step()
        if step is not None:
            await self.send_json({"type": "pong", "ply": step.ply, "status": step.status})

    async def _attempt(self, work: Callable[..., Awaitable[None]], *args: Any) -> None:
        """Run a change; a refusal goes back to this socket only. Success reaches
        everyone (this socket included) as an update through the group."""
        try:
            await work(*args)
        except refusals.Refusal as refusal:
            await self._error(str(refusal))

    # --- From the group ---------------------------------------------------

    async def game_changed(self, event: dict[str, Any]) -> None:
        """Someone changed the game: load and send this socket's own view.

        A move this socket made itself has been sent already (``_move``), from
        the row it committed; its ply says so.
        """
        if event.get("moved") and event.get("ply") == self.ply and self.seat is not None:
            return
        await self._send_state("update")

    async def game_left(self, event: dict[str, Any]) -> None:
        """A socket of a player closed: if it was of this socket's seat, this one
        is still here, so say so (which tells the group again if it changes)."""
        if self.seat is not None and self.seat == event.get("seat"):
            await self._arrive()
        await self._send_state("update")

    # --- From the heartbeat (games.heartbeat) ------------------------------

    async def beat(self, now: store.Step, before: store.Step | None) -> None:
        """Tell the client where the game is. If this socket has not been sent
        even what the previous beat read, a whole beat ago, its update was lost
        (or is that late, on a server past its capacity: the bench/soak.py runs
        that overloaded the machine showed such): send the state now rather
        than wait for the client to ask."""
        if before is not None and self.step is not None and before.ahead_of(self.step):
            log.warning("game %s: a socket was still at %s a beat after %s; sent it the state again",
                        self.game_id, self.step, before)
            await self._send_state("sync")
        await self.send_json({"type": "beat", "ply": now.ply, "status": now.status})

    # --- Helpers ----------------------------------------------------------

    @property
    def ply(self) -> int | None:
        """The ply of the last state sent (None before the first); errors carry it."""
        return None if self.step is None else self.step.ply

    async def _send_state(self, kind: str) -> bool:
        async with self.sending:  # loaded and sent in turn: the later load is sent later
            # An update carries only what this socket has not been sent (payloads.seat_view's
            # ``since``); a sync, asked for by a client that may have lost frames, all of it.
            payload = await self._view(self.ply if kind == "update" else None)
            if payload is None:
                return False
            await self._send_now(kind, payload)
        return True

    async def _send_payload(self, kind: str, payload: payloads.PayloadJSON) -> None:
        async with self.sending:
            await self._send_now(kind, payload)

    async def _send_now(self, kind: str, payload: payloads.PayloadJSON) -> None:
        step = store.Step(payload["ply"], payload["game"]["status"])
        if self.step is not None and self.step.ahead_of(step):
            return  # built before the state this socket already has: nothing new
        self.step = step
        self.game_kind = payload["game"]["kind"]
        await self.send_json({"type": kind, **payload})

    async def _move(self, ply: int, action: str) -> None:
        await self._send_payload("update", await self._submit(ply, action))

    async def _error(self, message: str) -> None:
        """Send ``message``, worded already in this socket's language."""
        await self.send_json({"type": "error", "ply": self.ply, "message": message})


    # --- Database work ----------------------------------------------------

    @db_work
    def _view(self, since: int | None) -> payloads.PayloadJSON | None:
        # A view that lists the actions played (Rhombus's) reads them with the
        # game, in its one statement; Ace in the Hole's discards spell its moves.
        actions_from = None if self.game_kind == starting.ACE else since or 0
        with translation.override(self.language):
            game = store.load(self.game_id, actions_from=actions_from)
            if game is None:
                return None
            botmoves.resume_waiting_move(game)  # without a worker, a bot move this process lost
            return payloads.view_for(game, self.viewer, since=since)

    @db_work
    def _options_of(self, ply: int, cards: Any, done: Any) -> steps.OptionsJSON:
        # The session is read with the game, in its one statement, and judged first (checked_in_work).
        session = None if self.signed_in_as is None else (self._session_key, self.signed_in_as)
        game = store.load(self.game_id, session=session)
        if session is not None:
            self._check_signed_in(signins.UNREAD if game is None else game.session_evidence)
        with translation.override(self.language):
            if game is None:
                raise refusals.Refusal(gettext("there is no game %(id)s") % {"id": self.game_id})
            wrong = steps.well_formed(cards, done)
            if wrong is not None:
                raise refusals.Refusal(wrong)
            return steps.options(game, self.scope.get("user"), ply, cards, done)

    async def _current_step(self) -> store.Step | None:
        return (await db_work(store.steps)([self.game_id])).get(self.game_id)

    async def _arrive(self) -> str | None:
        return await self._presence(presence.arrive)

    async def _depart(self) -> None:
        await self._presence(presence.depart)

    async def _presence(self, stamp: Callable[[int, Any], presence.Presence]) -> str | None:
        """Stamp this socket's seat, then announce a change from this event loop
        (see presence.arrive: never from the database thread)."""
        seat, event = await db_work(stamp)(self.game_id, self.scope.get("user"))
        if event is not None:
            await self.channel_layer.group_send(self.group, event)
        return seat

    async def _submit(self, ply: int, action: str) -> payloads.PayloadJSON:
        return await self._announcing(self._submitted, ply, action)

    async def _change(self, change: Callable[[int, Any], Game]) -> None:
        await self._announcing(change, self.game_id, self.scope.get("user"))

    def _submitted(self, ply: int, action: str) -> payloads.PayloadJSON:
        user = self.scope.get("user")
        # The session is read with the game and judged first (checked_in_work).
        session = (None if self.signed_in_as is None
                   else store.SessionCheck(self._session_key, self.signed_in_as, self._check_signed_in))
        # Frames go out in order, so the page already has this socket's ply when this one arrives.
        return payloads.view_for(moving.submit(self.game_id, user, ply, action, session=session), user, since=self.ply)

    async def _announcing(self, work: Callable[..., T], *args: Any) -> T:
        """Run a change on a database thread, then send the group messages it
        left (broadcast.held_notifications) from this event loop."""
        language = self.language or settings.LANGUAGE_CODE
        result, messages = await db_work(_holding_notifications)(language, work, *args)
        await broadcast.send_to_groups(self.channel_layer, [(group, message, self._skipping(group, message))
                                                            for group, message in messages])
        return result

    def _skipping(self, group: str, message: dict[str, Any]) -> str | None:
        """This socket's own move has been sent to it already (``_move``): the
        group message may skip it, which ``game_changed`` would drop anyway."""
        return self.channel_name if message.get("moved") and group == self.group else None


class NoSuchGameConsumer(GameConsumer):
    """A game socket whose digits no game can have (0, or past PostgreSQL's
    bigint: the ``id`` converter refused them) is told so as for a game that
    does not exist, and closed with the same code, without asking the database
    (issue 35, 11)."""

    async def connect(self) -> None:
        self.game_id = 0  # no game's: HEARTBEAT.leave finds nothing to drop
        await self.accept()
        await self._no_such_game(self.scope["url_route"]["kwargs"]["game_id"])


def _watching(scope: dict[str, Any]) -> bool:
    return "watch=1" in scope.get("query_string", b"").decode("latin-1").split("&")


def _holding_notifications(language: str, work: Callable[..., T],
                           *args: Any) -> tuple[T, list[tuple[str, dict[str, Any]]]]:
    """Run ``work`` on the database thread in ``language``, so that a refusal
    it raises is worded for this socket's person (a translation.override in
    the event loop does not reach this thread)."""
    with translation.override(language), broadcast.held_notifications() as messages:
        return work(*args), messages


class LiveConsumer(JsonFrameConsumer):
    """The live-games socket: the live list, the home page's panel and TV
    (docs/protocol.md, "The live-games socket"). It only listens: the process's
    hub (games/watch.py) sends it the boards it shows, encoded once for all."""

    lists: tuple[live.Filters, ...] = ()
    followed: frozenset[int] = frozenset()
    joined = False

    async def connect(self) -> None:
        await self.accept()
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.lists = live.lists_from(query)
        user = self.scope.get("user")
        if query.get("following") == ["1"] and user is not None and user.is_authenticated:
            self.followed = frozenset(await db_work(follows.followed_ids)(user.pk))
        await watch.HUB.join(self)
        self.joined = True

    async def disconnect(self, code: int) -> None:
        if self.joined:
            await watch.HUB.leave(self)

    def _handlers(self) -> dict[str, Callable[[dict[str, Any]], Awaitable[None]]]:
        return {"ping": self._ping}

    async def _ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong"})

    async def _error(self, message: str) -> None:
        await self.send_json({"type": "error", "message": message})

    async def send_frame(self, text: str) -> None:
        """A frame the hub encoded (for every socket showing the same thing)."""
        try:
            await self.send(text_data=text)
        except Disconnected:  # closed meanwhile: its disconnect is on its way (see send_json)
            pass
