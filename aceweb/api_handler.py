"""The API's requests (its streams apart) under daphne: each on one of a few
threads kept for the process, in one hop from daphne's event loop and back.

Django's ASGIHandler makes a thread for every request (asgiref's
ThreadSensitiveContext) and hops to it and back three times: for the
request_started signal, for the middleware and the view, and for the
response's close (request_finished). For an API move that was a new thread
and three round trips between threads, a fifth of daphne's CPU for the
request once its middleware was cut (bench/api_move_path.py). Here all of it
(signals, the request object, the middleware, the view, the close) runs in
one call on HTTP_CONCURRENCY threads, as a WSGI server would run it. A
game's news (games.broadcast.notify, after commit) is held and sent from daphne's
loop once the view is done, as the game sockets send theirs, rather than
hopping back to the loop from the thread (async_to_sync) and waiting there;
anything else the view tells the channel layer still hops (asgiref's
SyncToAsync records the loop for the thread).

The pages keep Django's own handler; so do the API's streams (async views,
open as long as their client).
"""

from __future__ import annotations

import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import HttpResponseBase
from django.urls import set_script_prefix

from aceweb.http_limit import STREAMS
from games import broadcast

Told = list[tuple[str, dict[str, Any]]]  # (group, message) for the channel layer

API = "/api/"


class PooledApiHandler(ASGIHandler):
    """Django's ASGI handler for /api/ (but its streams), with the request's
    sync work on a pool of ``threads`` threads; ``other`` serves the rest."""

    def __init__(self, other: Any, threads: int) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)  # the whole chain sync, as under WSGI
        self.other = other
        pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="api")
        self.respond = SyncToAsync(self._respond, thread_sensitive=False, executor=pool)
        self.finish = SyncToAsync(self._finish, thread_sensitive=False, executor=pool)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith(API) or path.startswith(STREAMS):
            await self.other(scope, receive, send)
            return
        try:
            body = await self.read_body(receive)
        except RequestAborted:
            return
        response, told = await self.respond(scope, body)
        if told:
            await broadcast.send_to_groups(get_channel_layer(), [(group, message, None) for group, message in told])
        try:
            await self.send_response(response, send)
        finally:
            if response.streaming:  # no API view streams but its streams; closed once sent, as Django does
                await self.finish(response, body)

    def _respond(self, scope: dict[str, Any],
                 body: tempfile.SpooledTemporaryFile[bytes]) -> tuple[HttpResponseBase, Told]:
        """What ASGIHandler.handle does around the view, in this thread: the
        response is made, then closed (request_finished: the connections go
        back) before its bytes go out; and the game news it committed."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body)
        with broadcast.held_notifications() as told:
            if request is not None:
                response = self.get_response(request)
                response._handler_class = self.__class__
        if not response.streaming:
            self._finish(response, body)
        return response, told

    @staticmethod
    def _finish(response: HttpResponseBase, body: tempfile.SpooledTemporaryFile[bytes]) -> None:
        response.close()
        body.close()
