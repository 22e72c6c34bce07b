"""The lobby shows each seek's creator with their real rating ("?" while provisional)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ladder import seeks
from tests.ladder.conftest import set_player

pytestmark = pytest.mark.django_db


def test_seeks_carry_the_creators_rating(client: Client, alice: Any, bob: Any, charlie: Any) -> None:
    set_player(alice, 1640, 45)
    set_player(bob, 1512, 12)
    for user in (alice, bob, charlie):
        seeks.create_seek(user, "5+3")
    assert [(s["creator"], s["rating"]) for s in seeks.open_seeks()] == [
        ("alice", "1640"), ("bob", "1512?"), ("charlie", "1500?")]
    page = client.get("/lobby/").content.decode()
    assert '<td class="seek__rating">1640</td>' in page and '<td class="seek__rating">1512?</td>' in page
