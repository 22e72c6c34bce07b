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
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from engine import moves as engine_moves  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from ladder.routing import websocket_urlpatterns as ladder_websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns + ladder_websocket_urlpatterns))
        ),
    }
)

# A full garbage collection pauses the one event loop all sockets of the process
# share (over 100 ms measured under load). So: build the engine's move tables
# now, freeze everything loaded so far (it lives as long as the process) out of
# the collector's view, and collect the young generation less often, which
# makes full collections rarer too. docs/performance.md.
engine_moves.fill_all()
gc.freeze()
gc.set_threshold(20_000, 20, 20)
