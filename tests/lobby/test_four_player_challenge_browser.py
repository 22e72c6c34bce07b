"""A 4-player challenge in real Chromium against a real daphne (issue 13): alice
challenges from charlie's profile with bob as partner and charlie and dave as
opponents; the three see it live in their lobby, accept one by one, and the
third acceptance sends all four to the same game (its seats are checked in
test_four_player_challenges.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.helpers import ARTIFACTS
from tests.lobby.test_lobby_browser import logged_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory
    (each challenge and game is new, and no page here shows the live-games list)."""
    return shared_daphne_server


GAME_URL = re.compile(r".*/games/(\d+)/$")


def test_three_invitees_accept_live_and_all_four_land_on_the_game(
        daphne_server: str, cookies: dict[str, str], dave_cookie: str, browser: Browser) -> None:
    jar = {**cookies, "dave": dave_cookie}
    alice = logged_in(browser, daphne_server, jar["alice"]).new_page()
    invitees = {name: logged_in(browser, daphne_server, jar[name]).new_page() for name in ("bob", "charlie", "dave")}
    for page in invitees.values():
        page.goto(daphne_server + "/lobby/")
    alice.goto(daphne_server + "/@/charlie/")
    form = alice.locator("[data-challenge-form]")
    form.get_by_text("Rhombus", exact=True).click()
    form.get_by_text("5+3", exact=True).click()
    form.get_by_text("Red", exact=True).click()
    team_fields = form.locator("[data-team-fields]")
    expect(team_fields).to_be_hidden()
    form.get_by_text("4 (Rhombus teams)").click()
    expect(team_fields).to_be_visible()
    form.locator('input[name="partner"]').fill("bob")
    expect(form.locator('input[name="opponent1"]')).to_have_value("charlie")
    form.locator('input[name="opponent2"]').fill("dave")
    form.get_by_role("button", name="Challenge").click()
    expect(alice.locator("[data-challenges] .challenge")).to_contain_text("You challenged bob, charlie, dave",
                                                                          timeout=10_000)

    for count, name in enumerate(("charlie", "bob"), start=1):
        item = invitees[name].locator("[data-challenges] .challenge")
        expect(item).to_contain_text("alice challenges you to a 4-player game", timeout=10_000)
        item.get_by_role("button", name="Accept").click()
        expect(item.get_by_role("button", name="Accept")).to_have_count(0, timeout=10_000)
        accepted = ["charlie", "bob, charlie"][count - 1]  # in invitation order: the partner first
        for page in (alice, *invitees.values()):  # everyone sees who has accepted, live
            expect(page.locator("[data-challenges] .challenge")).to_contain_text(f"accepted: {accepted}",
                                                                                 timeout=10_000)
    ARTIFACTS.mkdir(exist_ok=True)
    invitees["dave"].screenshot(path=str(ARTIFACTS / "lobby-four-player-challenge.png"), full_page=True)

    invitees["dave"].locator("[data-challenges] .challenge").get_by_role("button", name="Accept").click()
    pages = [alice, *invitees.values()]
    for page in pages:
        page.wait_for_url(GAME_URL, timeout=15_000)
    assert len({page.url for page in pages}) == 1
    for page in pages:
        expect(page.locator("#game")).to_have_attribute("data-state", "live", timeout=10_000)


def test_a_decline_closes_it_live_for_everyone(
        daphne_server: str, cookies: dict[str, str], dave_cookie: str, browser: Browser) -> None:
    jar = {**cookies, "dave": dave_cookie}
    pages = {name: logged_in(browser, daphne_server, jar[name]).new_page()
             for name in ("alice", "bob", "charlie", "dave")}
    for page in pages.values():
        page.goto(daphne_server + "/lobby/")
    alice = pages["alice"]
    alice.goto(daphne_server + "/@/charlie/")
    form = alice.locator("[data-challenge-form]")
    form.get_by_text("Rhombus", exact=True).click()
    form.get_by_text("4 (Rhombus teams)").click()
    form.locator('input[name="partner"]').fill("bob")
    form.locator('input[name="opponent2"]').fill("dave")
    form.get_by_role("button", name="Challenge").click()
    dave_item = pages["dave"].locator("[data-challenges] .challenge")
    expect(dave_item).to_contain_text("alice challenges you", timeout=10_000)
    dave_item.get_by_role("button", name="Decline").click()
    for name in ("alice", "bob", "charlie"):
        expect(pages[name].locator("[data-notice]")).to_have_text("dave declined the 4-player challenge.",
                                                                  timeout=10_000)
        expect(pages[name].locator("[data-challenges] .challenge")).to_have_count(0)

