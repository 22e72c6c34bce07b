"""The API as a person meets it, in real Chromium against a real daphne: a
token made on the account page, shown once, used, and revoked; and a BOT
account's seat flagged BOT on the game page of the person it plays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import requests
from playwright.sync_api import Browser, expect

from games import starting
from ladder import bot_accounts
from tests.games.conftest import cookies, services  # noqa: F401 - fixtures
from tests.lobby.test_notify_browser import signed_in

DESKTOP = {"width": 1280, "height": 900}
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


def test_a_token_is_made_shown_once_used_and_revoked(
        daphne_server: str, cookies: dict[str, str], chromium_browser: Browser) -> None:
    page = signed_in(chromium_browser, daphne_server, cookies["alice"], DESKTOP)
    page.goto(daphne_server + "/@/alice/")
    page.get_by_role("link", name="API access tokens").click()
    page.get_by_role("textbox", name="Name").fill("my scoreboard")
    page.get_by_label("read: Read your account").check()
    page.get_by_role("button", name="Make the token").click()
    expect(page.get_by_text("Copy it now: it is shown only once.")).to_be_visible()
    token = page.locator("[data-token]").inner_text().strip()
    account = requests.get(daphne_server + "/api/account", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert account.status_code == 200 and account.json()["username"] == "alice"

    page.reload()  # shown once: a new load has only its first characters
    expect(page.locator("[data-token]")).to_have_count(0)
    row = page.locator("[data-token-row]")
    expect(row).to_contain_text("my scoreboard")
    expect(row).to_contain_text(token[:10])
    row.get_by_role("button", name="Revoke").click()
    expect(page.get_by_text("Revoked my scoreboard")).to_be_visible()
    refused = requests.get(daphne_server + "/api/account", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert refused.status_code == 401 and refused.json() == {"error": "unknown or revoked token"}


def test_a_bot_account_is_flagged_bot_on_the_game_page(
        daphne_server: str, cookies: dict[str, str], chromium_browser: Browser, alice: Any,
        django_user_model: Any, orm: Callable[..., Any]) -> None:
    def robo_game() -> Any:
        robo = django_user_model.objects.create_user("robo")
        bot_accounts.make_api_bot(robo)
        return starting.start_game(alice, robo)

    game = orm(robo_game)
    page = signed_in(chromium_browser, daphne_server, cookies["alice"], DESKTOP)
    page.goto(f"{daphne_server}/games/{game.pk}/")
    tag = page.locator('[data-player="black"] [data-bot]')
    expect(tag).to_be_visible()
    expect(tag).to_have_attribute("title", "BOT account: a program playing through the API")
    expect(page.locator('[data-player="red"] [data-bot]')).to_have_count(0)
