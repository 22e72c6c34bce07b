"""A websocket option daphne's command line does not offer: close, do not drop.

autobahn, under daphne, fails a connection whose client breaks the websocket
rules itself, before any consumer sees a frame: a text frame that is not UTF-8,
or a message over daphne's ``--websocket-max-message-size`` (1 MiB by
default). Its default, ``failByDrop``, drops the TCP connection there, so the
client sees 1006 and no reason. RFC 6455 7.1.7 says to send a Close frame
first; with ``failByDrop`` off autobahn does, with the code (1007 not UTF-8,
1009 too big) and a reason (docs/protocol.md, "Frames the server cannot read").

daphne builds its factory inside ``Server.run`` and offers no hook, so the
factory class it builds is replaced by one with that option off. daphne's
command line and ``manage.py runserver`` both import daphne.server before the
ASGI application, and run the server after, so aceweb/asgi.py is the place.
"""

from __future__ import annotations

import functools
import sys
from typing import Any


def close_failed_websockets() -> None:
    """Under daphne, make autobahn send a Close frame before ending a connection it fails."""
    server: Any = sys.modules.get("daphne.server")
    # Elsewhere (the tests' in-process sockets, Celery, another ASGI server) there is
    # nothing to set, and importing daphne.server would install Twisted's reactor.
    if server is None or getattr(server.WebSocketFactory, "closes_failed_connections", False):
        return

    class ClosingWebSocketFactory(server.WebSocketFactory):  # type: ignore[misc]
        closes_failed_connections = True

        def resetProtocolOptions(self) -> None:  # noqa: N802 - autobahn's name
            super().resetProtocolOptions()
            self.failByDrop = False

    server.WebSocketFactory = ClosingWebSocketFactory



def cache_content_types() -> None:
    """Under daphne, remember what each Content-Type header line parses to.

    Twisted parses every request's Content-Type with the standard library's
    e-mail package (``twisted.web.http._parseContentType``: a message object, a
    header registry, a header class made per call) only to compare the result
    with the two form types: 5.8 % of daphne's CPU in an API move
    (bench/api_streams.py, issue 24). The function is pure, and clients send a
    handful of distinct lines, so a bounded cache gives the same answer.
    """
    http: Any = sys.modules.get("twisted.web.http")
    parse = getattr(http, "_parseContentType", None)
    if parse is None or hasattr(parse, "cache_info"):
        return
    http._parseContentType = functools.lru_cache(maxsize=256)(parse)


def plain_log_labels() -> None:
    """Under daphne, stop autobahn colouring its debug log's labels for every frame.

    autobahn's ``sendData`` and ``dataReceived`` build the arguments of a
    ``log.debug`` for each frame before the logger drops it: a qualified name
    and a size, each coloured by click (``hltype``, ``hlval``). That was 3 % of
    daphne's CPU at 500 live games (py-spy, issue 24). The labels are passed
    through as they are instead; a debug log still names the same things,
    uncoloured.
    """
    for name in ("autobahn.websocket.protocol", "autobahn.twisted.websocket"):
        module: Any = sys.modules.get(name)
        if module is not None:
            module.hltype = module.hlval = _as_is


def _as_is(value: Any, *args: Any, **kwargs: Any) -> Any:
    return value
