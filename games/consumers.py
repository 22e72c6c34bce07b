"""The websocket consumer for live games (docs/protocol.md): one Channels group per game.

Players and spectators connect to the same URL; the session decides the seat.
Every message out is built by games.play.view_for for this socket's user, so a
socket only ever carries what its own seat may see (R18). Bad frames get an
``error`` message on this socket; they never close it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async

from games import play
from games.models import PRESENCE_HEARTBEAT, Game
from games.sockets import JsonFrameConsumer

MAX_ACTION_CHARS = 64
NO_SUCH_GAME = 4404  # close code when the URL names no game


class GameConsumer(JsonFrameConsumer):
    game_id: int
    group: str
    ply: int | None = None  # the ply of the last state sent; errors carry it
    seat: str | None = None  # this socket's seat once it is known to be a player's
    heartbeat: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = play.group_name(self.game_id)
        await self.accept()
        # Arrive before joining: this socket's own sync already shows it present.
        self.seat = await self._arrive()
        # Join before loading, so that no change between the two is missed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        if not await self._send_state("sync"):
            await self._error(f"there is no game {self.game_id}")
            await self.close(code=NO_SUCH_GAME)
        elif self.seat is not None:
            self.heartbeat = asyncio.create_task(self._beat())

    async def disconnect(self, code: int) -> None:
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.heartbeat
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat is not None:
            await self._depart()

    async def _beat(self) -> None:
        """Keep this seat present while the socket is open (games.models, presence)."""
        while True:
            await asyncio.sleep(PRESENCE_HEARTBEAT.total_seconds())
            await self._arrive()

    # --- From the client --------------------------------------------------


    def _handlers(self) -> dict[str, Callable[[dict[str, Any]], Awaitable[None]]]:
        return {"act": self._act, "resign": self._resign, "abort": self._abort, "flag": self._flag,
                "claim": self._claim, "rematch": self._rematch, "ping": self._ping}

    async def _act(self, content: dict[str, Any]) -> None:
        ply, action = content.get("ply"), content.get("action")
        if not isinstance(ply, int) or isinstance(ply, bool):
            await self._error('"ply" must be an integer: the ply of the state you are acting on')
        elif not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION_CHARS:
            await self._error('"action" must be an action in the rules\' notation, e.g. "5H e1-e6"')
        else:
            await self._attempt(self._submit, ply, action)

    async def _resign(self, content: dict[str, Any]) -> None:
        await self._attempt(self._change, play.resign)

    async def _abort(self, content: dict[str, Any]) -> None:
        await self._attempt(self._change, play.abort)

    async def _flag(self, content: dict[str, Any]) -> None:
        await self._attempt(self._change, play.flag)

    async def _claim(self, content: dict[str, Any]) -> None:
        await self._attempt(self._change, play.claim_abandonment)

    async def _rematch(self, content: dict[str, Any]) -> None:
        await self._attempt(self._change, play.rematch)

    async def _ping(self, content: dict[str, Any]) -> None:
        if self.seat is not None:
            await self._arrive()
        await self.send_json({"type": "pong", "ply": self.ply})

    async def _attempt(self, work: Callable[..., Awaitable[None]], *args: Any) -> None:
        """Run a change; a refusal goes back to this socket only. Success reaches
        everyone (this socket included) as an update through the group."""
        try:
            await work(*args)
        except play.Refusal as refusal:
            await self._error(str(refusal))

    # --- From the group ---------------------------------------------------

    async def game_changed(self, event: dict[str, Any]) -> None:
        """Another process changed the game: load and send this socket's own view."""
        await self._send_state("update")

    async def game_left(self, event: dict[str, Any]) -> None:
        """A socket of a player closed: if it was of this socket's seat, this one
        is still here, so say so (which tells the group again if it changes)."""
        if self.seat is not None and self.seat == event.get("seat"):
            await self._arrive()
        await self._send_state("update")

    # --- Helpers ----------------------------------------------------------

    async def _send_state(self, kind: str) -> bool:
        payload = await self._view()
        if payload is None:
            return False
        self.ply = payload["ply"]
        await self.send_json({"type": kind, **payload})
        return True

    async def _error(self, message: str) -> None:
        await self.send_json({"type": "error", "ply": self.ply, "message": message})


    # --- Database work ----------------------------------------------------

    @database_sync_to_async
    def _view(self) -> play.PayloadJSON | None:
        game = Game.objects.select_related("red", "black").filter(pk=self.game_id).first()
        return None if game is None else play.view_for(game, self.scope.get("user"))

    async def _arrive(self) -> str | None:
        return await self._presence(play.arrive)

    async def _depart(self) -> None:
        await self._presence(play.depart)

    async def _presence(self, stamp: Callable[[int, Any], play.Presence]) -> str | None:
        """Stamp this socket's seat, then announce a change from this event loop
        (see play.arrive: never from the database thread)."""
        seat, event = await database_sync_to_async(stamp)(self.game_id, self.scope.get("user"))
        if event is not None:
            await self.channel_layer.group_send(self.group, event)
        return seat

    @database_sync_to_async
    def _submit(self, ply: int, action: str) -> None:
        play.submit(self.game_id, self.scope.get("user"), ply, action)

    @database_sync_to_async
    def _change(self, change: Callable[[int, Any], Game]) -> None:
        change(self.game_id, self.scope.get("user"))
