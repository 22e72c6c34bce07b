"""What the game and lobby sockets share: JSON frames, answered rather than raised.

Every frame is a text frame holding one JSON object with a "type"; anything
else (binary, oversized, not JSON, not an object, an unknown type) gets an
``error`` on this socket only, and the consumer carries on (docs/protocol.md).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

MAX_FRAME_BYTES = 4096

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class JsonFrameConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """Decodes and dispatches frames by "type"; subclasses name their handlers,
    how an error is sent, and which refusals are answered as errors."""

    refusals: tuple[type[Exception], ...] = ()

    def _handlers(self) -> dict[str, Handler]:
        raise NotImplementedError

    async def _error(self, message: str) -> None:
        raise NotImplementedError

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        """Decode here rather than in the base class, so bad JSON is answered, not raised."""
        if text_data is None:
            await self._error("send text frames holding JSON objects")
            return
        if len(text_data.encode()) > MAX_FRAME_BYTES:
            await self._error(f"frame too large (over {MAX_FRAME_BYTES} bytes)")
            return
        try:
            content = await self.decode_json(text_data)
        except (ValueError, RecursionError):
            await self._error("not valid JSON")
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self._error('a message is a JSON object with a "type"')
            return
        kind = content.get("type")
        handler = self._handlers().get(kind) if isinstance(kind, str) else None
        if handler is None:
            await self._error(f"unknown message type: use {', '.join(self._handlers())}")
            return
        try:
            await handler(content)
        except self.refusals as refusal:
            await self._error(str(refusal))

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return json.dumps(content, separators=(",", ":"))
