"""The lobby's seek list says which colour the viewer would play ("You play"):
the opposite of the creator's wish for someone else's seek, the wish itself for
one's own (issue 10, 5.5). Drawn by the server here; by the socket in the browser test."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from ladder import seeks

pytestmark = pytest.mark.django_db


def you_play(client: Client) -> dict[str, str]:
    """{creator: the "You play" cell} of the lobby page's seek rows."""
    html = client.get("/lobby/").content.decode()
    assert re.search(r'<th scope="col">You play</th>', html)
    rows = re.findall(r'class="seek__player">([^<]+)</td>.*?class="seek__colour">([^<]+)</td>', html, re.S)
    return dict(rows)


def test_each_seek_says_what_the_viewer_would_play(alice: Any, bob: Any, charlie: Any, client: Client) -> None:
    seeks.create_seek(alice, "5+3", colour="red")
    seeks.create_seek(bob, "10+5", colour="black")
    seeks.create_seek(charlie, "3+2", colour="random")
    client.force_login(bob)
    assert you_play(client) == {"alice": "Black", "bob": "Black", "charlie": "Random"}  # bob's own: his wish
    client.force_login(alice)
    assert you_play(client) == {"alice": "Red", "bob": "Red", "charlie": "Random"}
    client.logout()
    assert you_play(client) == {"alice": "Black", "bob": "Red", "charlie": "Random"}  # as whoever accepts
