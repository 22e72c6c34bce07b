"""The ASGI application that daphne serves answers HTTP, static files included."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import ApplicationCommunicator

from aceweb.asgi import application


async def get(path: str) -> tuple[int, bytes]:
    """GET through the ASGI app, reading every body chunk.

    (channels' HttpCommunicator trips over a final chunk without a body, which
    the ASGI spec allows and Django sends after a streamed file.)
    """
    scope: dict[str, Any] = {
        "type": "http", "http_version": "1.1", "method": "GET", "path": path,
        "query_string": b"", "headers": [(b"host", b"localhost")],
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(timeout=5)
    body = b""
    while True:
        chunk = await communicator.receive_output(timeout=5)
        body += chunk.get("body", b"")
        if not chunk.get("more_body", False):
            await communicator.wait(timeout=5)  # the handler's end: request_finished has run
            return start["status"], body


@pytest.mark.django_db(transaction=True)  # the home page lists the running games (issue 26)
async def test_the_home_page_comes_through_the_asgi_application() -> None:
    status, body = await get("/")
    assert status == 200
    assert b'data-square="e1"' in body


async def test_the_stylesheet_is_served_without_a_separate_web_server() -> None:
    status, body = await get("/static/css/site.css")
    assert status == 200
    assert b".board" in body
