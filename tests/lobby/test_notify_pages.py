"""Every page of a signed-in player loads the notifier; a visitor's pages do not.
The nav links to record import."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

NOTIFIER = 'src="/static/js/notify.js"'


@pytest.mark.parametrize("url", ["/", "/games/import/", "/@/bob/", "/accounts/password/change/"])
def test_a_signed_in_player_s_pages_load_the_notifier(client: Client, alice: Any, bob: Any, url: str) -> None:
    client.force_login(alice)
    assert NOTIFIER in client.get(url).content.decode()


def test_a_visitor_s_pages_do_not(client: Client) -> None:
    page = client.get("/").content.decode()
    assert NOTIFIER not in page and "notify.css" not in page


def test_the_nav_links_to_record_import(client: Client) -> None:
    assert '<a href="/games/import/">Import</a>' in client.get("/").content.decode()
