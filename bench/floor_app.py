"""The floor under a live move: an ASGI application for daphne that does what a
live Ace in the Hole move does on the way through the site, and none of the
game's own work (issue 24; bench/live_floor.py serves it and plays against it).

A move here, as in ``games.consumers.GameConsumer``: the mover's frame is
received and decoded, one hop to the sockets' database threads
(``games.sockets.db_work``, the same pool and connection handling) and back,
the mover's update encoded and sent, the game's group told in one call
(``games.broadcast.send_to_groups`` on ``aceweb.layers.RedisChannelLayer``, the
mover's socket skipped); in the other seat's process the layer's reader pops
the message, the socket dispatches it, hops to a database thread and back, and
sends its update. The updates are a real Ace in the Hole view, as large as the
site's, built once at start: no database, no rules, no session, no clock.

What this costs per move is the part of ``bench/live_play.py``'s daphne CPU a
move that the game's own work cannot cut, on this machine and this stack
(daphne, Twisted, autobahn, Channels, redis-py).
"""

from __future__ import annotations

import gc
import os
import random
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceweb.settings")
import django  # noqa: E402

django.setup()

from channels.generic.websocket import AsyncJsonWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

import engine  # noqa: E402
from aceweb.daphne_options import plain_log_labels  # noqa: E402
from games import broadcast  # noqa: E402
from games.sockets import db_work, encode  # noqa: E402


def _sample_view() -> dict[str, Any]:
    """Red's view of an Ace in the Hole game some twenty plies in, with the
    keys and sizes of the site's frames (``games.payloads.seat_view``)."""
    rules = engine.GAMES["ace-in-the-hole"]
    state = rules.start("floor", 2)
    rng = random.Random(1)
    for _ in range(20):
        view = rules.seat_view(state, rules.seats_for(2)[state.to_move]).to_json()
        if not view.get("legal"):
            break
        state, _text = rules.play(state, rng.choice(view["legal"]))
    red, black = rules.seats_for(2)
    view = dict(rules.seat_view(state, red).to_json())
    clock = {"ms": {red: 10_799_000, black: 10_799_000}, "running": red,
             "turn_started_at": "2026-11-27T07:00:00.000000+00:00", "initial_seconds": 10_800,
             "increment_seconds": 0, "days_per_move": None, "time_control": "classical", "abort_at": None}
    view["game"] = {"id": 1, "kind": "ace-in-the-hole", "title": "Ace in the Hole", "variant": "classic",
                    "seats": [red, black], "sides": [[red], [black]], "players": {red: "bench-a-1", black: "bench-b-1"},
                    "status": "running", "winner": None, "reason": None, "result": None, "score": None,
                    "rated": False, "commitment": "0" * 64, "seed": None, "clock": clock,
                    "presence": {red: True, black: True}, "claim_win_at": None,
                    "rematch": {"offered_by": [], "game_id": None}, "bot": None, "ratings": None,
                    "event": None, "adjudication": None, "ending": None}
    return view


VIEW = _sample_view()


def _update(ply: int) -> dict[str, Any]:
    """What a database thread hands back: the view, at the new ply."""
    return {**VIEW, "ply": ply}


class FloorConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """One seat's socket of a game: "act" frames as the game socket takes them."""

    async def connect(self) -> None:
        self.group = f"floor-{self.scope['url_route']['kwargs']['game_id']}"
        self.ply = 0
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "sync", **_update(0)})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        if content.get("type") != "act":
            return
        self.ply = int(content["ply"]) + 1
        payload = await db_work(_update)(self.ply)
        await self.send_json({"type": "update", **payload})
        await broadcast.send_to_groups(self.channel_layer, [
            (self.group, {"type": "game.changed", "ply": self.ply, "moved": True}, self.channel_name)])

    async def game_changed(self, event: dict[str, Any]) -> None:
        self.ply = event["ply"]
        await self.send_json({"type": "update", **await db_work(_update)(self.ply)})

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return encode(content)


async def _answer_http(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Any page: 200, empty (bench/live_play.py's readiness and drain checks)."""
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


application = ProtocolTypeRouter({
    "http": _answer_http,
    "websocket": URLRouter([path("ws/games/<int:game_id>/", FloorConsumer.as_asgi())]),
})
plain_log_labels()
gc.freeze()  # as aceweb/asgi.py tunes the site's processes
gc.set_threshold(20_000, 20, 20)
