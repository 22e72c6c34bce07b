"""/api/docs in real Chromium on a machine that cannot reach the internet: the
Swagger UI comes from our own static files, not a CDN (issue 22, 5)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.games.conftest import services  # noqa: F401 - fixture

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


def test_the_api_docs_page_shows_its_operations_with_no_way_out_to_the_internet(
        daphne_server: str, chromium_browser: Browser) -> None:
    context = chromium_browser.new_context()
    outside: list[str] = []

    def only_this_machine(route: Route) -> None:
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()  # as if the network ended at this machine

    context.route("**/*", only_this_machine)
    page = context.new_page()
    page.goto(daphne_server + "/api/docs")
    expect(page.locator(".opblock-summary-path", has_text="/api/account").first).to_be_visible(timeout=15_000)
    expect(page.get_by_role("heading", name="aceweb API")).to_be_visible()
    assert outside == []
    context.close()
