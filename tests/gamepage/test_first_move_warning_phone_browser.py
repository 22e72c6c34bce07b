"""The first-move warning on a phone (issue 22, finding 21), in Chromium against
daphne: until every seat has moved, the side to move has a short window or the
game is aborted (R17, RH27). At phone width the warning sat in the panel below
the board, out of view; it must be in sight while the player looks at the board.
Fixed to the top of the screen, it then covered the navigation for its 30 s
(issue 35, finding 6): the navigation stays in sight beside it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Locator, Page, expect

from games import starting
from tests.games.conftest import cookies, services  # noqa: F401 - fixtures
from tests.helpers import ARTIFACTS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

PHONE = {"width": 390, "height": 844}


class FirstMove(NamedTuple):
    rules: str
    page: Page
    note: Locator  # the warning


@pytest.fixture(params=["ace-in-the-hole", "rhombus"])
def first_move(request: pytest.FixtureRequest, alice: Any, bob: Any, cookies: dict[str, str],  # noqa: F811
               daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any]) -> Iterator[FirstMove]:
    """Alice's new game of each kind at phone width, her first move due (R6, RH9),
    once its warning counts down."""
    game = orm(lambda: starting.start_game(alice, bob, setup=starting.Setup(request.param)))
    context = chromium_browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookies["alice"], "url": daphne_server}])
    page = context.new_page()
    page.goto(f"{daphne_server}/games/{game.pk}/")
    note = page.locator("#game-first-move")
    expect(note).to_contain_text("Make your first move within")
    yield FirstMove(request.param, page, note)
    context.close()


def test_the_first_move_warning_is_in_view_on_a_phone(first_move: FirstMove) -> None:
    page, note = first_move.page, first_move.note
    expect(note).to_be_in_viewport()
    page.locator("#board").evaluate("board => board.scrollIntoView({block: 'end'})")  # down to the board's foot
    expect(note).to_be_in_viewport()
    box = note.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"first-move-warning-phone-{first_move.rules}.png"))


def overlap(first: dict[str, float], second: dict[str, float]) -> float:
    """The height two boxes share on the screen (0 when one is above the other)."""
    return max(0.0, min(first["y"] + first["height"], second["y"] + second["height"]) - max(first["y"], second["y"]))


def test_the_first_move_warning_leaves_the_navigation_in_sight_on_a_phone(first_move: FirstMove) -> None:
    page, note = first_move.page, first_move.note
    nav = page.locator("nav.nav")
    for link in (page.locator(".nav__brand"), nav.get_by_role("link", name="Lobby"),
                 nav.get_by_role("link", name="Tournaments")):
        expect(link).to_be_in_viewport()
        box, warning = link.bounding_box(), note.bounding_box()
        assert box is not None and warning is not None
        assert overlap(box, warning) == 0, f"the warning {warning} covers {link} {box}"
    page.wait_for_timeout(1200)  # a tick of the countdown later, the text changed: still apart
    nav_box, warning = nav.bounding_box(), note.bounding_box()
    assert nav_box is not None and warning is not None and overlap(nav_box, warning) == 0
