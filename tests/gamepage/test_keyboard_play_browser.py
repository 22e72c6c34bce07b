"""A whole Ace in the Hole game played by keyboard alone, in real Chromium against daphne.

Alice (Red, on a laptop) and Bob (Black, on a phone, his board drawn the other
way up) use only Tab, Shift+Tab, the arrow keys and Enter: no click, no typed
notation. Each turn: Tab to a card that can play, Enter (the focus stays on the
card), then either Tab to one of the card's action buttons and Enter, or
Shift+Tab back to the board, which is one tab stop on a lit square, walk it with
the arrows to the pawn and to its target, Enter on each. The two ways take turns.
On this seed the game runs its 52 turns (R8) and ends on points (R16). Reading
the page (where the focus is, which squares are lit) is allowed; acting on it
only by keys.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from games import starting
from games.models import Game
from tests.games.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SEED = "kb-2"  # with the turns below, all 52 turns are played (R8)
MOST_PLIES = 60  # a bound: a game lasts 52 turns at most (R8)
MOST_KEYS = 80  # a bound on every walk through the tab order

# Where the keyboard's focus is, as the page's own attributes say.
FOCUS = """() => {
  const node = document.activeElement;
  if (!node || node === document.body) return {};
  return {
    card: node.closest("#hand") ? node.dataset.card : null,
    disabled: node.getAttribute("aria-disabled") === "true",
    action: node.closest("#hand-actions") ? node.dataset.action : null,
    square: node.closest("#board") ? node.dataset.square : null,
    command: node.dataset.command || null,
  };
}"""

# Row and column of a square as drawn (rank 8 or rank 1 at the top).
PLACE = """(square) => {
  const rows = [...document.querySelectorAll('#board [role="row"]')]
    .map((row) => [...row.querySelectorAll('[role="gridcell"]')]).filter((cells) => cells.length);
  const r = rows.findIndex((cells) => cells.some((cell) => cell.dataset.square === square));
  return [r, rows[r].findIndex((cell) => cell.dataset.square === square)];
}"""


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    return starting.start_game(alice, bob, seed=SEED)


@pytest.fixture
def cookies(alice: Any, bob: Any) -> dict[str, str]:
    """Sessions made before Playwright's loop takes the thread."""
    return {"red": session_cookie(alice), "black": session_cookie(bob)}


@pytest.fixture
def pages(game: Game, cookies: dict[str, str], daphne_server: str,
          chromium_browser: Browser) -> Iterator[dict[str, Page]]:
    opened = {}
    for seat, viewport in (("red", DESKTOP), ("black", PHONE)):
        context = chromium_browser.new_context(viewport=viewport)
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookies[seat], "url": daphne_server}])
        page = context.new_page()
        page.goto(f"{daphne_server}/games/{game.pk}/")
        expect(page.locator("#game")).to_have_attribute("data-state", "live")
        opened[seat] = page
    yield opened
    for page in opened.values():
        page.context.close()


def focus(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(FOCUS)
    return found


def press_until(page: Page, key: str, wanted: Any, what: str) -> dict[str, Any]:
    """Press KEY until the focus is where WANTED(focus) says; fail after MOST_KEYS presses."""
    for _ in range(MOST_KEYS):
        now = focus(page)
        if wanted(now):
            return now
        page.keyboard.press(key)
    raise AssertionError(f"{MOST_KEYS} presses of {key} never reached {what}; focus: {focus(page)}")


def walk_to(page: Page, square: str) -> None:
    """Arrow keys from the focused square to SQUARE, as the board is drawn."""
    here, there = page.evaluate(PLACE, focus(page)["square"]), page.evaluate(PLACE, square)
    rows, cols = there[0] - here[0], there[1] - here[1]
    for key, count in (("ArrowDown", rows), ("ArrowUp", -rows), ("ArrowRight", cols), ("ArrowLeft", -cols)):
        for _ in range(max(0, count)):
            page.keyboard.press(key)
    assert focus(page)["square"] == square


def lit(page: Page, selector: str) -> list[str]:
    return [cell.get_attribute("data-square") or "" for cell in page.locator(f"#board {selector}").all()]


def choose_a_card(page: Page) -> str:
    """Tab to a card with a legal action, and Enter: the focus stays on it."""
    found = press_until(page, "Tab", lambda f: f.get("card") and not f["disabled"], "a playable card")
    card = found["card"]
    page.keyboard.press("Enter")
    expect(page.locator(f'#hand [data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
    assert focus(page).get("card") == card, "the focus left the card chosen by Enter"
    return str(card)


def play_by_button(page: Page) -> str:
    found = press_until(page, "Tab", lambda f: f.get("action"), "an action button of the chosen card")
    page.keyboard.press("Enter")
    return str(found["action"])


def play_on_the_board(page: Page) -> str:
    """Shift+Tab to the board's one tab stop (on a lit square), arrows to the pawn, Enter,
    arrows to its first target, Enter."""
    assert page.locator('#board [tabindex="0"]').count() == 1  # the board is one tab stop
    press_until(page, "Shift+Tab", lambda f: f.get("square"), "the board")
    if not lit(page, ".square--selected"):
        origin = lit(page, ".square--from")[0]
        walk_to(page, origin)
        page.keyboard.press("Enter")
        expect(page.locator(f'#board [data-square="{origin}"]')).to_have_class(re.compile(r"\bsquare--selected\b"))
    origin = lit(page, ".square--selected")[0]
    target = lit(page, ".square--target, .square--capture")[0]
    walk_to(page, target)
    page.keyboard.press("Enter")
    return f"{origin} -> {target}"


def play_by_keyboard(page: Page, ply: int) -> str:
    """One turn: a card, then its button or, every other turn, the board."""
    card = choose_a_card(page)
    on_board = ply % 4 >= 2 and page.locator("#board .square--from, #board .square--selected").count() > 0
    return f"{card}: {play_on_the_board(page) if on_board else play_by_button(page)}"


def test_a_whole_game_is_played_by_keyboard_alone(game: Game, pages: dict[str, Page],
                                                 orm: Callable[..., Any]) -> None:
    played: list[str] = []
    for ply in range(MOST_PLIES):
        page = pages["red" if ply % 2 == 0 else "black"]
        expect(page.locator("#game")).to_have_attribute("data-ply", str(ply))
        if page.locator("#game").get_attribute("data-status") != "running":
            break
        expect(page.locator("#game-status")).to_have_text("Your turn")
        played.append(play_by_keyboard(page, ply))
        expect(page.locator("#game")).to_have_attribute("data-ply", str(ply + 1))
        # The played card and its buttons are gone: the focus is on a card or a square, not on the page.
        assert focus(page).get("card") or focus(page).get("square"), f"focus after {played[-1]}: {focus(page)}"
    for page in pages.values():
        expect(page.locator("#game-status")).to_have_text(re.compile(r" wins on points"))
    row = orm(lambda: Game.objects.get(pk=game.pk))
    assert (row.status, row.reason, row.ply, len(played)) == ("finished", "points", 52, 52), played
    assert sum("->" in move for move in played) >= 10, played  # the board was walked, not only buttons


@pytest.fixture
def rhombus_page(alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser,
                 orm: Callable[..., Any]) -> Iterator[Page]:
    """Alice (SW, to move first, RH3) on a new two-player Rhombus game, by keyboard."""
    game = orm(lambda: starting.start_game(alice, bob, seed="keyboard-rhombus", setup=starting.Setup("rhombus")))
    cookie = orm(session_cookie, alice)
    context = chromium_browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": daphne_server}])
    page = context.new_page()
    page.goto(f"{daphne_server}/games/{game.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-state", "live")
    yield page
    context.close()


def test_a_rhombus_action_is_played_on_the_board_by_keyboard(rhombus_page: Page) -> None:
    """Rhombus's board has rows: the arrows walk ranks and files; a card chosen by
    Enter keeps the focus; its piece and target are chosen on the board by Enter."""
    page = rhombus_page
    expect(page.locator("#game-status")).to_have_text("Your turn")
    card = choose_a_card(page)
    assert page.locator('#board [tabindex="0"]').count() == 1
    press_until(page, "Shift+Tab", lambda f: f.get("square"), "the board")
    start = focus(page)["square"]
    assert start in lit(page, ".square--from, .square--enter"), "the board's tab stop is not on a lit square"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    assert focus(page)["square"] == start  # up a rank and back: rows, not one run of 25 cells
    origin = lit(page, ".square--from")[0]
    walk_to(page, origin)
    page.keyboard.press("Enter")
    expect(page.locator(f'#board [data-square="{origin}"]')).to_have_class(re.compile(r"\bsquare--selected\b"))
    target = lit(page, ".square--target, .square--capture")[0]
    walk_to(page, target)
    page.keyboard.press("Enter")
    expect(page.locator("#game")).to_have_attribute("data-ply", "1")
    expect(page.locator(f'#board [data-square="{target}"] [data-piece="SW"]')).to_have_count(1)
    expect(page.locator("#moves")).to_contain_text(f"{origin}-{target}")
    assert focus(page).get("square") == target, f"{card}: the focus left the board: {focus(page)}"
