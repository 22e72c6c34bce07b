"""The site's icon: named by every page and served, so browsers log no 404 for it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def icon_href(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    found = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', response.content.decode())
    assert found, f"{path} names no icon"
    return found.group(1)


def served(client: Client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.parametrize("path", ["/", "/lobby/", "/ladder/", "/accounts/login/"])
def test_every_page_links_the_icon_and_it_is_served(client: Client, path: str) -> None:
    assert b"<svg" in served(client, icon_href(client, path))


def test_favicon_ico_leads_to_the_same_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == icon_href(client, "/")
    assert b"<svg" in served(client, response["Location"])
