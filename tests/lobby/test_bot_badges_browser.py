"""lobby.js and notify.js flag bots BOT in what they draw from the sockets, in
real Chromium against a real daphne: the pages are open before the bots
arrive, so every badge seen was drawn by the script from the payload's ``bots``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from ladder import challenges, seeks
from ladder.models import Seek
from tests.badges import ACCOUNT_TITLE, COMPUTER_TITLE, api_bot, computer_player
from tests.badges import bot_cache_forgotten  # noqa: F401 (autouse: the bots' ids are forgotten after each test)
from tests.helpers import ARTIFACTS
from tests.lobby.test_lobby_browser import logged_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


def bots_arrive(alice: Any, bob: Any) -> None:
    """A computer player's seek (written directly: the lobby refuses it one), a
    BOT account's challenges to Alice and Bob, and Bob's 4-player seek holding
    a seat for the BOT account; each announced to the sockets as the lobby does."""
    Seek.objects.create(creator=computer_player("cpu1"), time_control="10+5")
    api_bot("api1")
    challenger = api_bot("api2")
    challenges.create_challenge(challenger, "alice", "5+3")
    challenges.create_challenge(challenger, "bob", "5+3")
    seeks.create_seek(bob, "5+3", rules="rhombus", players=4, partner="api1")


def test_the_live_lists_and_the_challenge_toast_flag_bots(
        daphne_server: str, cookies: dict[str, str], alice: Any, bob: Any, browser: Browser,
        orm: Callable[..., Any]) -> None:
    alice_page = logged_in(browser, daphne_server, cookies["alice"]).new_page()
    bob_page = logged_in(browser, daphne_server, cookies["bob"]).new_page()
    alice_page.goto(daphne_server + "/lobby/")
    alice_page.locator("[data-seeks-empty]").wait_for(state="visible")
    bob_page.goto(daphne_server + "/")
    expect(bob_page.locator("[data-toasts]")).to_have_attribute("data-connected", "true")
    orm(bots_arrive, alice, bob)

    challenge = alice_page.locator("[data-challenges] .challenge")
    expect(challenge).to_contain_text("api2 BOT challenges you", timeout=10_000)
    expect(challenge.locator(".badge--bot")).to_have_attribute("title", ACCOUNT_TITLE)
    computer = alice_page.locator("tr.seek", has_text="cpu1")
    expect(computer.locator(".seek__player .badge--bot")).to_have_attribute("title", COMPUTER_TITLE, timeout=10_000)
    team = alice_page.locator("tr.seek", has_text="bob")
    expect(team.locator(".seek__seats")).to_contain_text("1 of 4 joined: bob (a seat is held for api1 BOT)")
    expect(team.locator(".badge--bot")).to_have_count(1)  # api1's, not bob's
    expect(team.locator(".badge--bot")).to_have_attribute("title", ACCOUNT_TITLE)

    toast = bob_page.locator(".toast--challenge")
    expect(toast).to_contain_text("api2 BOT challenges you to a rated 5+3 game", timeout=10_000)
    expect(toast.locator(".badge--bot")).to_have_attribute("title", ACCOUNT_TITLE)
    ARTIFACTS.mkdir(exist_ok=True)
    alice_page.screenshot(path=str(ARTIFACTS / "lobby-bot-badges.png"), full_page=True)
