"""A tournament page's socket: it listens, and takes chat lines (issue 25). Each change of the tournament
(a round started, a game ended, a player joined) is announced with the
tournament's new version; the page then fetches its live part again.

Self-healing as the game socket is: ``ping`` is answered with the current
version, so a page that missed a message (a reconnect, a lost frame) sees
that it is behind and reloads.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from games.sockets import Handler, JsonFrameConsumer
from tournaments import chat
from tournaments.models import Tournament
from tournaments.changes import group_name


class TournamentConsumer(JsonFrameConsumer):
    group = ""

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.group = group_name(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        version = await self._version()
        if version is None:
            await self.close(code=4404)
            return
        await self.accept()
        await self.send_json({"type": "version", "version": version})

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    def _handlers(self) -> dict[str, Handler]:
        return {"ping": self._ping, "chat": self._chat}

    async def _error(self, message: str) -> None:
        await self.send_json({"type": "error", "message": message})

    async def _ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "version": await self._version()})

    async def _chat(self, content: dict[str, Any]) -> None:
        def post(user: Any, text: str, preset: str) -> Any:
            return chat.say(self.tournament_id, user, text=text, preset=preset)

        await self._say_chat(content, post)

    async def chat_line(self, event: dict[str, Any]) -> None:
        await self._send_chat_line(event["line"])

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed", "version": event["version"]})

    @database_sync_to_async
    def _version(self) -> int | None:
        return Tournament.objects.filter(pk=self.tournament_id).values_list("version", flat=True).first()
