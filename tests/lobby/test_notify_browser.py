"""A challenge reaches its player on any page, in real Chromium against a real daphne.

Bob reads the home page; Alice challenges him from his profile. A toast offers
Bob Accept and Decline (static/js/notify.js); declining tells Alice, and
accepting the next challenge sends both players to the new game at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from games.models import Game
from ladder import challenges, seeks
from ladder.models import Challenge, Seek
from tests.helpers import ARTIFACTS
from tests.seats import seated

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory
    (challenges, seeks and games are rows; only the first test shows the home
    page's live-games panel, and none reads it)."""
    return shared_daphne_server


GAME_URL = re.compile(r".*/games/(\d+)/$")


def signed_in(browser: Browser, base: str, cookie: str, viewport: dict[str, int]) -> Page:
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context.new_page()


def challenge_bob(alice: Page, time_control: str) -> None:
    alice.locator("[data-challenge-form]").get_by_text(time_control, exact=True).click()
    alice.locator("[data-challenge-form]").get_by_role("button", name="Challenge").click()
    expect(alice.locator("[data-notice]")).to_have_text("Challenge sent to bob: waiting for an answer.")


def test_bob_answers_challenges_from_the_home_page_and_lands_on_the_game(
    daphne_server: str, cookies: dict[str, str], browser: Browser, orm: Callable[..., Any],
) -> None:
    bob = signed_in(browser, daphne_server, cookies["bob"], {"width": 375, "height": 740})
    alice = signed_in(browser, daphne_server, cookies["alice"], {"width": 1280, "height": 900})
    bob.goto(daphne_server + "/")
    expect(bob.locator("[data-toasts]")).to_have_attribute("data-connected", "true")
    alice.goto(daphne_server + "/@/bob/")

    # A first challenge: Bob sees it on the home page, and declines.
    challenge_bob(alice, "10+5")
    toast = bob.locator(".toast--challenge")
    expect(toast).to_have_text(re.compile(r"alice challenges you to a rated 10\+5 game"))
    assert bob.evaluate("document.documentElement.scrollWidth") <= 375  # fits a phone
    toast.get_by_role("button", name="Decline").click()
    expect(toast).to_have_count(0)
    expect(alice.locator("[data-notice]")).to_have_text("bob declined your challenge.")
    assert orm(lambda: list(Challenge.objects.values_list("status", flat=True))) == ["declined"]
    assert orm(Game.objects.count) == 0

    # A second one: Bob accepts from the toast, and both land on the same game.
    challenge_bob(alice, "5+3")
    expect(toast).to_have_text(re.compile(r"alice challenges you to a rated 5\+3 game"))
    ARTIFACTS.mkdir(exist_ok=True)
    bob.screenshot(path=str(ARTIFACTS / "challenge-toast-phone.png"))
    toast.get_by_role("button", name="Accept").click()
    bob.wait_for_url(GAME_URL, timeout=10_000)
    alice.wait_for_url(GAME_URL, timeout=10_000)
    assert alice.url == bob.url
    game_id = int(GAME_URL.match(bob.url)[1])  # type: ignore[index]
    game = orm(lambda: seated(Game.objects.get(pk=game_id)))
    assert {game.seat("red").user.username, game.seat("black").user.username} == {"alice", "bob"}
    assert game.time_control.key == "5+3"
    for page in (alice, bob):
        expect(page.locator("#game")).to_have_attribute("data-state", "live")
        page.context.close()


def test_a_challenge_already_waiting_shows_when_the_page_opens(
    daphne_server: str, cookies: dict[str, str], alice: Any, browser: Browser, orm: Callable[..., Any],
) -> None:
    orm(lambda: challenges.create_challenge(alice, "bob", "3d", rated=False, colour="black"))
    bob = signed_in(browser, daphne_server, cookies["bob"], {"width": 1280, "height": 900})
    bob.goto(daphne_server + "/games/import/")
    expect(bob.locator(".toast--challenge")).to_have_text(
        re.compile(r"alice challenges you to a casual 3 days per move game \(alice plays black\)"))
    bob.context.close()


def test_a_seeker_reading_another_page_is_taken_to_the_game_when_someone_accepts(
    daphne_server: str, cookies: dict[str, str], alice: Any, bob: Any, browser: Browser,
    orm: Callable[..., Any],
) -> None:
    seek = orm(lambda: seeks.create_seek(alice, "3+2"))
    page = signed_in(browser, daphne_server, cookies["alice"], {"width": 1280, "height": 900})
    page.goto(daphne_server + "/games/import/")
    expect(page.locator("[data-toasts]")).to_have_attribute("data-connected", "true")
    orm(lambda: seeks.accept_seek(seek.pk, bob))
    page.wait_for_url(GAME_URL, timeout=10_000)
    game_id = orm(lambda: Seek.objects.get(pk=seek.pk).game_id)
    assert page.url.endswith(f"/games/{game_id}/")
    expect(page.locator("#game")).to_have_attribute("data-seat", re.compile("^(red|black)$"))
    page.context.close()
