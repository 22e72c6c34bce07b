"""Requests no page can answer (issue 10): a clear 4xx or an anonymous visitor, never a 500, nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from aceweb.asgi import application
from ladder.models import Challenge

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("method", "url"), [
    ("get", "/@/%00/"),
    ("post", "/@/%00/challenge/"),
    ("get", "/ladder/?q=%00"),
    ("get", "/ladder/?page=-1&q=%00"),
    ("get", "/ladder/?show=all&%00=1"),
    ("get", "/games/import/?x=a%00b"),
])
def test_a_nul_in_the_address_is_a_bad_request(method: str, url: str, alice: Any, bob: Any) -> None:
    client = Client()  # raises any exception a view lets out, as a 500 would be
    client.force_login(alice)
    response = getattr(client, method)(url, {"time_control": "1d"} if method == "post" else None)
    assert response.status_code == 400
    assert b"NUL character (%00)" in response.content
    assert not Challenge.objects.exists()


def test_the_same_pages_without_the_nul_are_served(alice: Any) -> None:
    client = Client()
    assert client.get("/ladder/?page=-1&q=ali").status_code == 200
    assert client.get("/@/alice/").status_code == 200
    assert client.get("/@/nobody/").status_code == 404


def test_a_session_cookie_spelling_nul_is_no_session(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    assert b'class="nav__user"' in client.get("/lobby/").content
    # A quoted cookie, as a client may send it: Django reads the \\000 in it as NUL.
    response = client.get("/lobby/", HTTP_COOKIE='sessionid="abcdefghij\\000"')
    assert response.status_code == 200
    assert b'class="nav__user"' not in response.content  # anonymous now


@pytest.mark.parametrize("path", ["/ws/games/abc/", "/ws/nothing/", "/ws/", "/ws/lobby/x/", "/ws/games/1/%00/"])
async def test_a_websocket_path_that_leads_nowhere_is_refused_at_the_handshake(path: str) -> None:
    headers = [(b"host", b"localhost"), (b"origin", b"http://localhost")]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected is False  # daphne answers the handshake with 403
    # daphne then tells the application the socket is gone; the application
    # must end then, without an exception. (wait() alone cannot fail: on its
    # timeout it cancels the application and returns quietly.)
    await communicator.send_input({"type": "websocket.disconnect", "code": 1006})
    await communicator.wait(timeout=5)
    assert not communicator.future.cancelled(), "the application did not end after the disconnect"
    assert communicator.future.exception() is None
