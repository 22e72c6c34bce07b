"""The act form in Chromium (issue 37): only the chosen kind's fields are shown,
and choosing another kind shows its own; without the script every field shows."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.games.conftest import session_cookie
from tests.helpers import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cookie(moderator: Any) -> str:
    """Made before Playwright's loop takes the thread."""
    return session_cookie(moderator)


def test_the_act_form_shows_only_the_chosen_kinds_fields(cookie: str, alice: Any, live_server: LiveServer,
                                                          browser: Browser) -> None:
    def row(name: str) -> Any:
        return page.locator(f"#moderationaction_form .form-row.field-{name}")

    for script in (True, False):
        context = browser.new_context(viewport={"width": 1280, "height": 1000}, java_script_enabled=script)
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
        page = context.new_page()
        page.goto(f"{live_server.url}/admin/moderation/moderationaction/add/?kind=chat_timeout&user={alice.pk}")
        if not script:  # every field, as the server takes them
            for name in ("user", "game", "winner", "room", "since", "minutes", "reason"):
                expect(row(name)).to_be_visible()
            context.close()
            continue
        for name in ("kind", "user", "minutes", "chat_reason", "reason"):
            expect(row(name)).to_be_visible()
        for name in ("game", "winner", "days", "since", "room", "chat_line"):
            expect(row(name)).to_be_hidden()
        page.select_option("select[name=kind]", "adjudicate")
        for name in ("game", "winner", "reason"):
            expect(row(name)).to_be_visible()
        for name in ("minutes", "chat_reason", "days", "room"):
            expect(row(name)).to_be_hidden()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "moderation-act-form-adjudicate.png"), full_page=True)
        page.select_option("select[name=kind]", "")  # no kind yet: everything
        expect(row("room")).to_be_visible()
        context.close()
