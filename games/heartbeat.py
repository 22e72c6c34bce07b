"""The game sockets' heartbeat: every socket is told its game's current ply, and
a socket left behind is brought up to date (docs/protocol.md, "Staying in step");
and every player's socket keeps its seat present.

A change reaches a socket as a group message, and a group message can be lost
(aceweb/layers.py tells of the one that was). So, as lila-ws numbers its events,
once a beat (``GAME_BEAT_SECONDS``) this process reads the ply and status of every
game it has sockets for, in one query, and sends each socket a ``beat`` frame
with them: a client behind asks for a ``sync``. The server does not wait for it:
a socket whose last frame is still older than what the previous beat read has
had a whole beat for the update to arrive, so it is sent its view again.

Every PRESENCE_HEARTBEAT the same process stamps the seats of all its players'
sockets as seen, in one statement (``presence.stay_present``), where each socket
used to stamp its own (games.models, presence).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from channels.layers import get_channel_layer
from django.conf import settings

from games import broadcast, presence, pulse, store
from games.models import PRESENCE_HEARTBEAT
from games.sockets import db_work

log = logging.getLogger(__name__)


class Beating(Protocol):
    """What the heartbeat needs of a game socket (games.consumers.GameConsumer)."""

    game_id: int
    seat: str | None  # a player's socket's seat (None: a spectator's)
    viewer: Any  # its user

    async def beat(self, now: store.Step, before: store.Step | None) -> None: ...


class Heartbeat:
    """The sockets of this process by game, the task that beats them and the
    one that keeps their players present."""

    presence_seconds = PRESENCE_HEARTBEAT.total_seconds()

    def __init__(self) -> None:
        self.sockets: dict[int, set[Beating]] = {}
        self.task: asyncio.Task[None] | None = None
        self.presence: asyncio.Task[None] | None = None

    def join(self, socket: Beating) -> None:
        self.sockets.setdefault(socket.game_id, set()).add(socket)
        loop = asyncio.get_running_loop()
        if not _running_on(self.task, loop):
            self.task = loop.create_task(self._run())
        if not _running_on(self.presence, loop):
            self.presence = loop.create_task(self._keep_present())

    def leave(self, socket: Beating) -> None:
        sockets = self.sockets.get(socket.game_id, set())
        sockets.discard(socket)
        if not sockets:
            self.sockets.pop(socket.game_id, None)

    async def _run(self) -> None:
        before: dict[int, store.Step] = {}
        while self.sockets:
            await asyncio.sleep(settings.GAME_BEAT_SECONDS)
            try:
                now = await db_work(store.steps)(list(self.sockets))
                await db_work(pulse.beat)()  # the site is serving (penalties ask, games/pulse.py)
            except Exception:  # the database or Redis is away: beat again next time
                log.exception("heartbeat: could not read the games' plies")
                continue
            for game_id, sockets in list(self.sockets.items()):
                if game_id in now:
                    await self._beat(sockets, now[game_id], before.get(game_id))
            before = now

    async def _keep_present(self) -> None:
        """Stamp the seats of every player socket of this process each period,
        in one statement, and announce a seat that had gone stale."""
        while self.sockets:
            await asyncio.sleep(self.presence_seconds)
            seated = [(socket.game_id, socket.viewer.pk) for sockets in list(self.sockets.values())
                      for socket in sockets if socket.seat is not None]
            try:
                changed = await db_work(presence.stay_present)(seated)
                await broadcast.send_to_groups(get_channel_layer(), [(broadcast.group_name(game_id), event, None)
                                                                     for game_id, event in changed])
            except Exception:  # the database or Redis is away: stamp again next time
                log.exception("heartbeat: could not stamp the players' seats")

    @staticmethod
    async def _beat(sockets: set[Beating], now: store.Step, before: store.Step | None) -> None:
        for socket in list(sockets):
            try:
                await socket.beat(now, before)
            except Exception:  # one socket's trouble must not stop the others' beat
                log.exception("heartbeat: beating a socket of game %s failed", socket.game_id)


def _running_on(task: asyncio.Task[None] | None, loop: asyncio.AbstractEventLoop) -> bool:
    return task is not None and not task.done() and task.get_loop() is loop


HEARTBEAT = Heartbeat()
