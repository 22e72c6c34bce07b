"""ASGI entry point for daphne: HTTP to Django, websockets to Channels consumers."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceweb.settings")
# Set up Django (apps, models) before anything imports consumers or models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import re_path  # noqa: E402

from aceweb.api_handler import PooledApiHandler  # noqa: E402
from aceweb.daphne_options import cache_content_types, close_failed_websockets, plain_log_labels  # noqa: E402
from aceweb.embedded_beat import EmbeddedBeat  # noqa: E402
from aceweb.http_limit import HttpConcurrencyLimit  # noqa: E402
from engine.ace import moves as engine_moves  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from ladder.routing import websocket_urlpatterns as ladder_websocket_urlpatterns  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_websocket_urlpatterns  # noqa: E402

# Any other path is refused at the handshake (HTTP 403, as for a foreign Origin)
# rather than raising "No route found" into daphne's log and answering 500.
no_such_socket = re_path(r"", WebsocketDenier.as_asgi())

application = EmbeddedBeat(ProtocolTypeRouter(
    {
        "http": HttpConcurrencyLimit(PooledApiHandler(django_asgi_app, settings.HTTP_CONCURRENCY),
                                     settings.HTTP_CONCURRENCY),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns + ladder_websocket_urlpatterns
                                         + tournament_websocket_urlpatterns + [no_such_socket]))
        ),
    }
))
close_failed_websockets()
cache_content_types()
plain_log_labels()

# A full garbage collection pauses the one event loop all sockets of the process
# share (over 100 ms measured under load). So: build the engine's move tables
# now, freeze everything loaded so far (it lives as long as the process) out of
# the collector's view, and collect the young generation less often, which
# makes full collections rarer too. docs/performance.md.
engine_moves.fill_all()
gc.freeze()
gc.set_threshold(20_000, 20, 20)
