"""In Chromium, on real daphne (issue 22, finding 18): a 100-character name
does not widen the tournament pages, the whole bracket (grand-final reset
included) fits a 1,280 px window, nothing scrolls sideways on a phone, and an
adjudicated game of a rated tournament does not call itself casual."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from games.models import Game
from tournaments import advancing, entering, organizing
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
LONG = "W" * 100


def page_width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


# The widest thing on the page: a table may be in a box of its own that scrolls
# sideways, where the window's scrollWidth would not show it.
WIDEST = """() => Math.max(...[...document.querySelectorAll("main *, .page *")]
  .filter((el) => !el.closest(".bracket-scroll"))
  .map((el) => Math.max(el.getBoundingClientRect().right, el.scrollWidth)))"""


def long_named_and_bracket(tournament: Callable[..., Tournament], users: list[Any]) -> tuple[int, int]:
    listed = tournament(name=LONG, description="D" * 300)
    double = tournament(name="Double", starts_at=timezone.now(), format=Tournament.Format.DOUBLE)
    for user in users:
        entering.join(double.pk, user)
    advancing.advance(double.pk)
    return listed.pk, double.pk


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_long_names_and_the_bracket_fit_the_window(
        viewport: dict[str, int], tournament: Callable[..., Tournament], players: Callable[[int], list[Any]],
        daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    listed, double = orm(long_named_and_bracket, tournament, orm(players, 8))
    page = chromium_browser.new_page(viewport=viewport)
    for path in ("/tournaments/", f"/tournaments/{listed}/", f"/tournaments/{double}/"):
        page.goto(daphne_server + path)
        assert page_width(page) <= viewport["width"], f"{path} is {page_width(page)} px wide"
        widest = page.evaluate(WIDEST)
        assert widest <= viewport["width"], f"something on {path} reaches {widest} px"
    if viewport is DESKTOP:  # every box in sight, the reset too, with no scrolling inside its box
        scroll = page.locator("#bracket")
        assert scroll.evaluate("box => box.scrollWidth <= box.clientWidth")
        box, reset = scroll.bounding_box(), page.locator('[data-match="GF2"] rect.box').bounding_box()
        assert box and reset and reset["x"] + reset["width"] <= box["x"] + box["width"]


def adjudicated_board(tournament: Callable[..., Tournament], users: list[Any]) -> int:
    t = tournament(rounds=1, starts_at=timezone.now(), rated=True)
    for user in users:
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    pairing = Pairing.objects.get(round__tournament=t)
    organizing.adjudicate(t.pk, t.organizer, pairing.pk, "red", "a power cut")
    return int(pairing.game_id)  # type: ignore[arg-type]


def test_an_adjudicated_game_of_a_rated_tournament_does_not_say_casual(
        tournament: Callable[..., Tournament], players: Callable[[int], list[Any]],
        daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    game_id = orm(adjudicated_board, tournament, orm(players, 2))
    assert not orm(lambda: Game.objects.get(pk=game_id).rated)  # not played out: unrated by design
    page = chromium_browser.new_page(viewport=DESKTOP)
    page.goto(f"{daphne_server}/games/{game_id}/")
    expect(page.locator("#fairness")).to_contain_text("unrated: adjudicated")
    expect(page.locator("#fairness")).not_to_contain_text("casual")
