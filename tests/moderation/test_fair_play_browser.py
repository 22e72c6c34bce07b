"""Fair play as players meet it, in real Chromium against a real daphne (issue 14):
Bob reports Alice from her profile; Alice, banned for aborting games, is told
in the lobby how long she must wait, and nothing is created."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games import finishing, starting
from ladder import playban
from ladder.models import Seek
from moderation.models import Report
from tests.games.conftest import cookies, services  # noqa: F401 - fixtures
from tests.helpers import ARTIFACTS
from tests.lobby.test_notify_browser import signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory
    (reports and playbans are rows)."""
    return shared_daphne_server


PHONE = {"width": 375, "height": 740}


def test_a_player_reports_another_from_the_profile(
        daphne_server: str, cookies: dict[str, str], browser: Browser, orm: Callable[..., Any]) -> None:
    bob = signed_in(browser, daphne_server, cookies["bob"], PHONE)
    bob.goto(daphne_server + "/@/alice/")
    bob.get_by_role("link", name="Report alice").click()
    bob.get_by_label("Stalling or leaving games").check()
    bob.get_by_label("What happened").fill("She lets her clock run out every time she is losing.")
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the form fits a phone
    ARTIFACTS.mkdir(exist_ok=True)
    bob.screenshot(path=str(ARTIFACTS / "report-form-phone.png"), full_page=True)
    bob.get_by_role("button", name="Send the report").click()
    expect(bob.get_by_text("Thank you: your report on alice is with the moderators.")).to_be_visible()
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    report = orm(lambda: Report.objects.values_list("reporter__username", "reported__username", "reason").get())
    assert report == ("bob", "alice", "stalling")


def test_a_banned_player_is_told_in_the_lobby_how_long_to_wait(
        daphne_server: str, cookies: dict[str, str], browser: Browser, orm: Callable[..., Any],
        alice: Any, bob: Any) -> None:
    def abort_three() -> None:
        for _ in range(playban.LIMIT):
            finishing.abort(starting.start_game(alice, bob).pk, alice)

    orm(abort_three)
    page = signed_in(browser, daphne_server, cookies["alice"], {"width": 1280, "height": 900})
    page.goto(daphne_server + "/lobby/")
    page.get_by_text("5+3", exact=True).click()
    page.get_by_role("button", name="Create seek").click()
    notice = page.locator("[data-notice]")
    expect(notice).to_have_text(re.compile(
        r"You may not start games for 1[45] minutes more\. Reason: a playban for aborting games"))
    expect(notice).to_be_in_viewport()  # brought into sight: the button was far below it
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lobby-playban.png"))
    assert orm(Seek.objects.count) == 0
