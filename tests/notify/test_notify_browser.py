"""Issue 26's "done when" for the site, in real Chromium against a real daphne
and a real Celery worker: a correspondence move by bob raises alice's "Your
turn" count and shows a notification live while she reads the leaderboard;
the bell leads to the game and marks the notice read; with the site channel
of "your turn" off, the count still follows the moves but no notice comes.
The lobby page (lobby.js's own socket) keeps the bell and the count live too."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from playwright.sync_api import Browser, Page, expect

from games.models import Seat
from games.tasks import ping
from notify import notices
from notify.models import Notification
from tests.helpers import ARTIFACTS, celery_worker, require_service, wait_for_other_sessions_to_end, \
    worker_database_url
# A real session per user (fast hashing), real PostgreSQL and Redis.
from tests.games.conftest import cookies, fast_password_hashing, services  # noqa: F401
from tests.notify.playing import correspondence, move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory
    (turns and notices are rows and per-user groups; each test has its own worker)."""
    return shared_daphne_server


@pytest.fixture
def worker(daphne_server: str, tmp_path: Path) -> Iterator[Path]:
    """A Celery worker on the test database and Redis, up and answering; yields its log."""
    log = tmp_path / "worker.log"
    env = {"REDIS_URL": require_service("REDIS_URL", "a Celery worker"),
           "DATABASE_URL": worker_database_url(connection)}
    try:
        with celery_worker(log, "notify", **env):
            assert ping.delay().get(timeout=60) == "pong", log.read_text()
            yield log
    finally:
        wait_for_other_sessions_to_end(connection)


def signed_in(browser: Browser, base: str, cookie: str) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context.new_page()


def tasks_done(log: Path, count: int) -> None:
    """Wait (bounded) until the worker has finished ``count`` turn-notice tasks."""
    deadline = time.monotonic() + 30
    while log.read_text().count("games.tasks.tell_turn[") < 2 * count:  # received, then succeeded
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.1)


def away(orm: Callable[..., Any], game_id: int, user: Any) -> None:
    """Wait (bounded) until ``user``'s socket on the game has said goodbye (Seat.left_at)."""
    for _ in range(100):
        seat = orm(lambda: Seat.objects.get(game_id=game_id, user=user))
        if seat.left_at is not None and seat.left_at >= seat.seen_at:
            return
        time.sleep(0.1)
    pytest.fail("the game page's socket did not close")


def test_bob_s_move_reaches_alice_on_the_leaderboard_and_the_bell_leads_to_the_game(
        cookies: dict[str, str], alice: Any, bob: Any, daphne_server: str, worker: Path,
        chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    game = orm(lambda: correspondence(bob, alice))  # bob (Red) moves first
    page = signed_in(chromium_browser, daphne_server, cookies["alice"])
    page.goto(daphne_server + "/ladder/")
    expect(page.locator("[data-toasts]")).to_have_attribute("data-connected", "true")
    count, bell = page.locator("[data-turns-count]"), page.locator("[data-bell-count]")
    expect(count).to_be_hidden()
    expect(bell).to_be_hidden()

    orm(lambda: move(game.pk, bob))
    expect(count).to_have_text("1")
    toast = page.locator(".toast--notice")
    expect(toast).to_contain_text("Your turn It is your move against bob (Ace in the Hole).")
    expect(bell).to_have_text("1")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("[data-bell] summary").click()
    page.screenshot(path=str(ARTIFACTS / "notify-bell.png"))
    page.locator("[data-bell-list] a").first.click()
    page.wait_for_url(re.compile(rf".*/games/{game.pk}/$"))
    assert orm(lambda: list(Notification.objects.filter(user=alice).values_list("kind", "read"))) == [("turn", True)]
    expect(page.locator("[data-bell-count]")).to_be_hidden()

    # "Your turn" off on the site: the count still follows the moves, no notice comes.
    page.goto(daphne_server + "/account/preferences/")
    page.locator("#id_turn__site").uncheck()
    page.get_by_role("button", name="Save notification settings").click()
    expect(page.locator("#id_turn__site")).not_to_be_checked()
    away(orm, game.pk, alice)
    page.goto(daphne_server + "/ladder/")
    expect(page.locator("[data-toasts]")).to_have_attribute("data-connected", "true")
    orm(lambda: move(game.pk, alice))
    expect(page.locator("[data-turns-count]")).to_be_hidden()
    orm(lambda: move(game.pk, bob))
    expect(page.locator("[data-turns-count]")).to_have_text("1")
    tasks_done(worker, 2)  # the turn notice for alice's second turn has been decided
    assert orm(lambda: Notification.objects.filter(user=alice).count()) == 0
    expect(page.locator(".toast--notice")).to_have_count(0)
    page.context.close()


def test_the_lobby_page_s_own_socket_keeps_the_count_and_the_bell_live(
        cookies: dict[str, str], alice: Any, bob: Any, daphne_server: str, worker: Path,
        chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    game = orm(lambda: correspondence(bob, alice))
    page = signed_in(chromium_browser, daphne_server, cookies["alice"])
    page.goto(daphne_server + "/lobby/")
    expect(page.locator("[data-lobby]")).to_have_count(1)
    expect(page.locator("[data-toasts]")).to_have_attribute("data-connected", "true")  # lobby.js's socket
    orm(lambda: move(game.pk, bob))
    expect(page.locator("[data-turns-count]")).to_have_text("1")
    expect(page.locator(".toast--notice")).to_contain_text("It is your move against bob")
    expect(page.locator("[data-bell-count]")).to_have_text("1")
    assert len(page.context.pages) == 1
    page.context.close()


def test_on_a_phone_the_menus_open_from_the_keyboard_and_stay_on_the_screen(
        cookies: dict[str, str], alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser,
        orm: Callable[..., Any]) -> None:
    orm(lambda: correspondence(alice, bob))
    orm(lambda: notices.send(alice.pk, "follower", "user:bob", {"username": "bob"}, url="/@/bob/"))
    context = chromium_browser.new_context(viewport={"width": 375, "height": 740})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookies["alice"], "url": daphne_server}])
    page = context.new_page()
    page.goto(daphne_server + "/")
    for menu, text in (("[data-turns]", "Ace in the Hole · bob"), ("[data-bell]", "bob follows you now.")):
        page.locator(f"{menu} summary").focus()
        page.keyboard.press("Enter")
        panel = page.locator(f"{menu} .menu__panel")
        expect(panel).to_be_visible()
        expect(panel).to_contain_text(text)
        box = panel.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
        page.keyboard.press("Enter")  # closes it again
        expect(panel).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    context.close()
