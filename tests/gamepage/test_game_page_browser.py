"""The live game page in real Chromium, against a real daphne (HTTP + websockets).

Alice (Red) and Bob (Black) play by clicking card, pawn, target; a spectator
watches. Screenshots go to artifacts/ for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

import engine
from games import moving, payloads
from games.models import Game
from tests.games.conftest import session_cookie
from tests.helpers import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


MOVE = re.compile(r"^(\S+) ([a-h][1-8])[-x]([a-h][1-8])$")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 740}


def open_game(browser: Browser, base: str, game: Game, cookie: str | None, viewport: dict[str, int],
              before: Callable[[Page], None] | None = None) -> Page:
    context = browser.new_context(viewport=viewport)
    if cookie is not None:
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    if before:
        before(page)
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-state", "live")
    return page


@pytest.fixture
def cookies(alice: Any, bob: Any, charlie: Any) -> dict[str, str]:
    return {user.username: session_cookie(user) for user in (alice, bob, charlie)}


@pytest.fixture
def pages(game: Game, cookies: dict[str, str], daphne_server: str,
          chromium_browser: Browser) -> Iterator[dict[str, Page]]:
    """Alice on a laptop, Bob on a phone, Charlie watching."""
    opened = {
        "red": open_game(chromium_browser, daphne_server, game, cookies["alice"], DESKTOP),
        "black": open_game(chromium_browser, daphne_server, game, cookies["bob"], PHONE),
        "spectator": open_game(chromium_browser, daphne_server, game, cookies["charlie"], DESKTOP),
    }
    yield opened
    for page in opened.values():
        page.context.close()


def first_move(game_id: int) -> tuple[str, str, str, str]:
    """(action, card, from, to) of the mover's first legal move, from the server's own view."""
    game = Game.objects.get(pk=game_id)
    mover = game.seat("red").user if game.to_move == "red" else game.seat("black").user
    for action in payloads.view_for(game, mover)["legal"]:
        match = MOVE.match(action)
        if match:
            return action, match[1], match[2], match[3]
    raise AssertionError("no move to click in this position")


def play_by_clicking(page: Page, card: str, origin: str, target: str) -> None:
    page.locator(f'#hand [data-card="{card}"]').click()
    expect(page.locator(f'[data-square="{origin}"]')).to_have_class(re.compile(r"\bsquare--from\b"))
    page.locator(f'[data-square="{origin}"]').click()
    expect(page.locator(f'[data-square="{target}"]')).to_have_class(re.compile(r"\bsquare--(target|capture)\b"))
    page.locator(f'[data-square="{target}"]').click()


def wait_for_ply(pages: dict[str, Page], ply: int) -> None:
    for page in pages.values():
        expect(page.locator("#game")).to_have_attribute("data-ply", str(ply))


def board(game_id: int) -> dict[str, str]:
    return dict(Game.objects.get(pk=game_id).position["board"])


def an_illegal_action(game_id: int) -> tuple[str, str]:
    """A move in notation that Red's engine refuses, with the refusal (which names a rule)."""
    game = Game.objects.get(pk=game_id)
    state = engine.from_json(game.position)
    for card in game.position["hands"]["red"]:
        for origin, pawn in game.position["board"].items():
            if pawn[-1] in "HD":
                text = f"{card} {origin}-{origin[0]}8"
                try:
                    engine.apply(state, text)
                except engine.IllegalAction as error:
                    if "(R" in str(error):
                        return text, str(error)
    raise AssertionError("every move to rank 8 is legal?")


def test_two_players_play_by_clicking_while_a_spectator_watches(
    pages: dict[str, Page], game: Game, orm: Callable[..., Any]
) -> None:
    red, black, spectator = pages["red"], pages["black"], pages["spectator"]
    expect(red.locator("#game-status")).to_have_text("Your turn")
    expect(black.locator("#game-status")).to_have_text("Red (alice) to move")
    expect(red.locator("#hand [data-card]")).to_have_count(3)
    expect(spectator.locator("[data-card]")).to_have_count(0)  # no hand at all (R18)
    expect(spectator.locator("button:visible:not(.language-menu__choice)")).to_have_count(1)  # the nav's sign-out; the footer's language buttons aside

    for ply in range(4):
        action, card, origin, target = orm(first_move, game.pk)
        pawn = orm(board, game.pk)[origin]
        mover = red if ply % 2 == 0 else black
        play_by_clicking(mover, card, origin, target)
        wait_for_ply(pages, ply + 1)
        for page in pages.values():
            expect(page.locator(f'[data-square="{target}"] [data-pawn="{pawn}"]')).to_be_visible()
            expect(page.locator(f'[data-square="{origin}"] [data-pawn]')).to_have_count(0)
        expect(spectator.locator("#moves")).to_contain_text(action.split(" ")[1][:2])

    turns = spectator.locator("#moves li")
    expect(turns).to_have_count(2)  # Red's and Black's discards paired by turn
    expect(spectator.locator("[data-card]")).to_have_count(0)

    # A typed illegal action: the engine's refusal, with its rule, and nothing moves.
    text, refusal = orm(an_illegal_action, game.pk)
    board_before = red.locator("#board").inner_html()
    red.locator("#notation-input").fill(text)
    red.locator("#notation-input").press("Enter")
    expect(red.locator("#game-error")).to_have_text(refusal)
    assert re.search(r"\(R\d+\)", refusal)
    expect(red.locator("#game")).to_have_attribute("data-ply", "4")
    assert red.locator("#board").inner_html() == board_before
    expect(black.locator("#game-error")).to_be_hidden()  # only the sender hears of it

    # Alice picks a card: the pawns it can move light up (for the screenshot).
    action, card, origin, target = orm(first_move, game.pk)
    red.locator(f'#hand [data-card="{card}"]').click()
    red.locator(f'[data-square="{origin}"]').click()
    ARTIFACTS.mkdir(exist_ok=True)
    red.screenshot(path=str(ARTIFACTS / "game-desktop.png"), full_page=True)
    black.screenshot(path=str(ARTIFACTS / "game-phone.png"), full_page=True)
    red.keyboard.press("Escape")
    expect(red.locator(".square--target, .square--capture")).to_have_count(0)

    # Bob resigns, after confirming; everyone sees the result.
    black.once("dialog", lambda dialog: dialog.accept())
    black.locator('[data-command="resign"]').click()
    for page in pages.values():
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        expect(page.locator("#game-status")).to_have_text(re.compile(r"Red \(alice\) wins by resignation"))
    expect(red.locator('[data-command="resign"]')).to_be_hidden()
    expect(red.locator('[data-command="rematch"]')).to_be_visible()
    expect(spectator.locator("#fairness")).to_contain_text(orm(lambda: Game.objects.get(pk=game.pk).seed))
    red.screenshot(path=str(ARTIFACTS / "game-over-desktop.png"), full_page=True)

    # A rematch: Alice offers, Bob accepts, and both pages move to the new game.
    red.locator('[data-command="rematch"]').click()
    expect(red.locator('[data-command="rematch"]')).to_have_text("Rematch offered")
    expect(black.locator('[data-command="rematch"]')).to_have_text("Accept rematch")
    expect(spectator.locator('[data-command="rematch"]')).to_have_count(0)
    black.locator('[data-command="rematch"]').click()
    black.wait_for_url(re.compile(rf"/games/(?!{game.pk}/)\d+/$"))
    new_id = orm(lambda: Game.objects.get(pk=game.pk).rematch_game_id)
    for page in pages.values():  # the spectator follows, as on lichess
        page.wait_for_url(f"**/games/{new_id}/")
        expect(page.locator("#game")).to_have_attribute("data-status", "running")
    expect(black.locator("#game-status")).to_have_text("Your turn")  # colours swap: Bob is Red now


def test_the_board_is_flipped_for_black_and_fits_a_phone(pages: dict[str, Page]) -> None:
    black = pages["black"]
    rows = black.locator("#board .board__row:not(.board__row--files)")
    expect(rows.first.locator("[data-square]").first).to_have_attribute("data-square", "h1")
    expect(rows.last.locator("[data-square]").last).to_have_attribute("data-square", "a8")
    red_rows = pages["red"].locator("#board .board__row:not(.board__row--files)")
    expect(red_rows.first.locator("[data-square]").first).to_have_attribute("data-square", "a8")
    expect(black.locator('[data-command="abort"]')).to_be_visible()  # before each side has moved (R17)
    expect(black.locator('[data-command="rematch"]')).to_be_hidden()
    assert black.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    square = black.locator('[data-square="a1"]').bounding_box()
    assert square is not None and square["width"] >= 30


def test_the_clocks_start_once_each_side_has_moved(
        pages: dict[str, Page], game: Game, alice: Any, bob: Any, orm: Callable[..., Any]) -> None:
    """Until then the side to move has a first-move window, counted down on every page."""
    watcher, red = pages["spectator"], pages["red"]
    expect(watcher.locator("#game-first-move")).to_have_text(
        re.compile(r"^Red \(alice\) has \d+ s to make a first move, or the game is aborted\.$"))
    expect(red.locator("#game-first-move")).to_have_text(
        re.compile(r"^Make your first move within \d+ s, or the game is aborted\.$"))
    clock = watcher.locator('[data-clock="red"]')
    expect(clock).to_have_text("10:00")
    for ply, player in enumerate((alice, bob)):
        orm(moving.submit, game.pk, player, ply, orm(first_move, game.pk)[0])
    expect(watcher.locator("#game")).to_have_attribute("data-ply", "2")
    expect(watcher.locator("#game-first-move")).to_be_hidden()
    expect(clock).to_have_class(re.compile(r"\bclock--running\b"))
    expect(clock).not_to_have_text("10:00", timeout=3000)  # Red's clock runs now
    expect(watcher.locator('[data-clock="black"]')).to_have_text("10:00")


def test_the_page_reconnects_and_gets_a_fresh_sync(
    game: Game, cookies: dict[str, str], alice: Any, daphne_server: str, chromium_browser: Browser,
    orm: Callable[..., Any],
) -> None:
    routes: list[WebSocketRoute] = []

    def through_a_route(page: Page) -> None:
        def forward(route: WebSocketRoute) -> None:
            route.connect_to_server()
            routes.append(route)
        page.route_web_socket(re.compile(r"/ws/games/"), forward)

    red = open_game(chromium_browser, daphne_server, game, cookies["alice"], DESKTOP, through_a_route)
    routes[0].close()  # the connection drops, as on a flaky network
    expect(red.locator("#game-connection")).to_have_text("Reconnecting…")
    action, *_ = orm(first_move, game.pk)
    orm(moving.submit, game.pk, alice, 0, action)  # meanwhile a move is made in another tab
    expect(red.locator("#game")).to_have_attribute("data-ply", "1")
    expect(red.locator("#game-connection")).to_be_hidden()
    assert len(routes) == 2
    red.context.close()


RELEASE_AND_BURN = {
    # The King of Hearts is in Black's captured area; the Queen of Hearts is out of play.
    "board": {"e1": "AH", "d1": "AD", "e8": "AS", "d8": "AC"},
    "captured": {"red": [], "black": ["KH"]},
    "hands": {"red": ["KH", "QH", "5D"], "black": ["5S", "JC", "5C"]},
    "decks": {"red": ["7D", "2H"], "black": ["7S", "2C"]},
    "to_move": "red",
}


def test_a_release_and_a_burn_are_one_click_each(
    game: Game, cookies: dict[str, str], daphne_server: str, chromium_browser: Browser,
    orm: Callable[..., Any],
) -> None:
    orm(lambda: Game.objects.filter(pk=game.pk).update(position=RELEASE_AND_BURN))
    red = open_game(chromium_browser, daphne_server, game, cookies["alice"], DESKTOP)
    expect(red.locator('[data-captured="black"] [data-pawn="KH"]')).to_be_visible()
    expect(red.locator('[data-points="black"]')).to_have_text("20 pts")
    red.locator('#hand [data-card="QH"]').click()
    expect(red.locator("#hand-actions button")).to_have_text(["Burn QH"])
    red.locator('#hand [data-card="5D"]').click()
    expect(red.locator("#hand-actions button").first).to_have_text(re.compile(r"^Move A\u2666 from d1 to "))
    expect(red.locator('#hand-actions [data-action="5D burn"]')).to_have_count(0)  # 5D has a move: no burn (R13)
    red.locator('#hand [data-card="KH"]').click()
    expect(red.locator("#hand-actions button")).to_have_text(["Release KH to f1"])
    red.locator('#hand-actions [data-action="KH @f1"]').click()
    expect(red.locator("#game")).to_have_attribute("data-ply", "1")
    expect(red.locator('[data-square="f1"] [data-pawn="KH"]')).to_be_visible()
    expect(red.locator('[data-captured="black"] [data-pawn]')).to_have_count(0)
    expect(red.locator("#moves")).to_contain_text("KH @f1")
    red.context.close()


def test_a_page_that_missed_an_update_asks_for_a_sync_at_the_next_beat(
    game: Game, cookies: dict[str, str], alice: Any, daphne_server: str, chromium_browser: Browser,
    orm: Callable[..., Any],
) -> None:
    """Issue 10: an update that never arrives. The page learns the game's ply from
    the socket's beat (every 5 s) and asks for the state (docs/protocol.md)."""
    asked: list[str] = []
    losing = [False]

    def losing_updates(page: Page) -> None:
        def handle(route: WebSocketRoute) -> None:
            server = route.connect_to_server()

            def from_page(message: str | bytes) -> None:
                asked.append(str(message))
                server.send(message)

            def from_server(message: str | bytes) -> None:
                if not (losing[0] and '"type":"update"' in str(message)):
                    route.send(message)

            route.on_message(from_page)
            server.on_message(from_server)
        page.route_web_socket(re.compile(r"/ws/games/"), handle)

    red = open_game(chromium_browser, daphne_server, game, cookies["alice"], DESKTOP, losing_updates)
    losing[0] = True
    action, *_ = orm(first_move, game.pk)
    orm(moving.submit, game.pk, alice, 0, action)  # played in another tab; this page never hears of it
    expect(red.locator("#game")).to_have_attribute("data-ply", "1", timeout=12_000)
    assert '{"type":"sync"}' in asked
    red.context.close()
