"""The live Rhombus page in real Chromium, against a real daphne (HTTP + websockets).

Every action is made the way a person makes it: click the cards, then use by
use each piece and its target (or the start square for a new piece), or the
button of a use off the board (zero, Mystery) or of a whole action (elim,
react, entry, discard). The page is never sent the legal list (issue 24): it
asks the server, use by use, what can follow. What to play comes from
tests/gamepage/rhombus_policy.py, which makes the seeded games below end by
the rules (RH25, RH26) within a few dozen actions. Screenshots go to
artifacts/ for a person to look at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from engine import rhombus
from games import payloads, starting
from games.models import Game, Move
from tests.gamepage.rhombus_policy import ENTER, MOVE, choose
from tests.games.conftest import session_cookie
from tests.helpers import ARTIFACTS
from tests.rhombus_steps import FLUSH, deal, flush_on_an_open_board, legal_texts

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Seeds whose games the policy ends by the rules: 2 players in 39 actions
# (NE loses its last piece, RH25), 4 players in 41 (SE+NW has no legal action, RH26).
SEED_2 = "s5"
SEED_4 = "t8"
MOST_ACTIONS = 80  # a bound on every loop; the seeded games end well before it
FORMATION_ACTIONS = 30  # Formation ends only by a Formation or the quiet rule (RH44): then a resignation


def new_page(browser: Browser, base: str, cookie: str | None, viewport: dict[str, int]) -> Page:
    """A page of its own browser context, signed in with ``cookie`` (None: anonymous)."""
    context = browser.new_context(viewport=viewport)
    if cookie is not None:
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context.new_page()


def open_game(browser: Browser, base: str, game_id: int, cookie: str | None, viewport: dict[str, int]) -> Page:
    page = new_page(browser, base, cookie, viewport)
    page.goto(f"{base}/games/{game_id}/")
    expect(page.locator("#game")).to_have_attribute("data-state", "live")
    return page


# --- Reading an action as the page's clicks ---------------------------------


def action_cards(text: str) -> list[str]:
    """The cards an action uses, as the page's card buttons name them (Notation)."""
    words = text.split(" ")
    if words[0] == "discard":
        return text[len("discard "):].split(", ")
    if words[0] == "react":
        return words[1:]
    if words[0] == "elim":
        return words[1:4]
    if words[0] == "entry":
        return words[1:5]
    cards = []
    for use in text.split(", "):
        cards += use.split(" ")[0].split("+")
    return cards


def has_class(name: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{name})\b")


WHOLE = ("elim ", "react ", "entry ", "discard ")


def click_action(page: Page, text: str) -> None:
    """Play ``text`` on ``page`` by clicking: its cards, then use by use a
    piece and its target, a start square, or a use's button (and the use's
    button where a click pair makes more than one use); a whole action by its
    button. The page sends the action once every card is used."""
    for card in action_cards(text):
        page.locator(f'#hand [data-card="{card}"][aria-pressed="false"]').first.click()
    if text.startswith(WHOLE):
        page.locator(f'#hand-actions [data-action="{text}"]').click()
        return
    for use in text.split(", "):
        move, enter = MOVE.search(use), ENTER.search(use)
        if move:
            origin, target = (page.locator(f'#board [data-square="{sq}"]') for sq in (move[1], move[2]))
            expect(origin).to_have_class(has_class("square--from"))  # lit once the options have come
            origin.click()
            expect(target).to_have_class(has_class("square--target|square--capture"))
            target.click()
        elif enter:
            start = page.locator(f'#board [data-square="{enter[1]}"]')
            expect(start).to_have_class(has_class("square--enter|square--capture"))
            start.click()
        else:  # zero or Mystery: a button
            page.locator(f'#hand-actions [data-use="{use}"]').click()
            continue
        # The click handlers run before click() returns: the use is made, or
        # the uses making that move are offered (two kill cards, two cards).
        choice = page.locator(f'#hand-actions [data-use="{use}"]')
        if choice.count():
            choice.click()


def wait_for_ply(pages: list[Page], ply: int) -> None:
    for page in pages:
        expect(page.locator("#game")).to_have_attribute("data-ply", str(ply))


def mover_view(game_id: int) -> tuple[str, dict[str, Any]]:
    """The seat to move and what that seat's page is sent, with the legal
    actions from the rules beside it for the policy (the page gets none)."""
    game = Game.objects.get(pk=game_id)
    view = dict(payloads.view_for(game, game.seat(game.to_move).user))
    assert "legal" not in view and view["sets"]  # issue 24: the card sets, never the list
    return game.to_move, {**view, "legal": legal_texts(game)}


def game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


def play_actions(pages: dict[str, Page], watchers: list[Page], game_id: int, hunters: list[str],
                 orm: Callable[..., Any], most: int) -> int:
    """Click the policy's actions on the movers' pages, at most ``most`` of
    them or until the game ends; the number of actions played."""
    everyone = list(pages.values()) + watchers
    for ply in range(most):
        if orm(game_row, game_id).status != "running":
            return ply
        seat, view = orm(mover_view, game_id)
        text = choose(view, hunters)
        expect(pages[seat].locator("#game-status")).to_have_text("Your turn")
        click_action(pages[seat], text)
        wait_for_ply(everyone, ply + 1)
        for page in everyone:
            expect(page.locator("#moves li").last).to_contain_text(text)
    return most


def play_to_the_end(pages: dict[str, Page], watchers: list[Page], game_id: int, hunters: list[str],
                    orm: Callable[..., Any]) -> int:
    played = play_actions(pages, watchers, game_id, hunters, orm, MOST_ACTIONS)
    assert orm(game_row, game_id).status != "running", f"the game did not end in {MOST_ACTIONS} actions"
    return played


def no_sideways_scroll(page: Page) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# --- The tests ------------------------------------------------------------------


def test_two_players_play_a_whole_game_by_clicking_while_a_spectator_watches(
    alice: Any, bob: Any, charlie: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    game = orm(lambda: starting.start_game(alice, bob, seed=SEED_2, setup=starting.Setup("rhombus")))
    cookies = {user.username: orm(session_cookie, user) for user in (alice, bob, charlie)}
    pages = {
        "SW": open_game(chromium_browser, daphne_server, game.pk, cookies["alice"], DESKTOP),
        "NE": open_game(chromium_browser, daphne_server, game.pk, cookies["bob"], PHONE),
    }
    watcher = open_game(chromium_browser, daphne_server, game.pk, cookies["charlie"], DESKTOP)
    sw, ne = pages["SW"], pages["NE"]

    # The start (RH4): three pieces a side, each player's own three cards, the other's as a count.
    expect(watcher.locator('#board [data-piece="SW"]')).to_have_count(3)
    expect(watcher.locator('#board [data-piece="NE"]')).to_have_count(3)
    expect(sw.locator("#hand [data-card]")).to_have_count(3)
    expect(sw.locator('#hand [data-place="table"]')).to_have_count(2)
    expect(sw.locator('[data-player="NE"] [data-counts]')).to_contain_text("1 in hand · 3 in reserve · 0 eliminated")
    expect(sw.locator('[data-player="NE"] [data-table-card]')).to_have_count(2)
    expect(ne.locator("#game-status")).to_have_text("SW (alice) to move")
    expect(ne.locator('[data-player="NE"]')).to_have_attribute("data-place", "bottom")  # each player at the bottom
    expect(watcher.locator('[data-player="SW"]')).to_have_attribute("data-place", "bottom")
    expect(watcher.locator("#hand")).to_have_count(0)  # RH29: a spectator sees no hand
    expect(watcher.locator("button:visible:not(.language-menu__choice)")).to_have_count(1)  # the nav's sign-out; the footer's language buttons aside
    no_sideways_scroll(ne)

    played = play_to_the_end(pages, [watcher], game.pk, ["SW"], orm)
    assert played > 10

    over = orm(game_row, game.pk)
    assert over.status == "finished" and over.winner == "SW"
    assert over.reason in ("no-pieces", "no-action")
    for page in (sw, ne, watcher):
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        expect(page.locator("#game-status")).to_have_text(re.compile(r"^SW \(alice\) wins by leaving the other side no (piece on the board \(RH25\)|legal action \(RH26\))$"))
        expect(page.locator("#moves li")).to_have_count(played)
    expect(watcher.locator("#fairness")).to_contain_text(over.seed)
    expect(watcher.locator("[data-card]")).to_have_count(0)
    expect(sw.locator('[data-command="rematch"]')).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    sw.screenshot(path=str(ARTIFACTS / "rhombus-2p-over-desktop.png"), full_page=True)
    ne.screenshot(path=str(ARTIFACTS / "rhombus-2p-over-phone.png"), full_page=True)


def test_four_players_play_a_team_game_by_clicking(
    alice: Any, bob: Any, charlie: Any, dave: Any, erin: Any, daphne_server: str, chromium_browser: Browser,
    orm: Callable[..., Any],
) -> None:
    users = (alice, bob, charlie, dave)  # SW, SE, NE, NW (RH31)
    game = orm(lambda: starting.start_game(*users, seed=SEED_4, setup=starting.Setup("rhombus")))
    seats = ("SW", "SE", "NE", "NW")
    sizes = (DESKTOP, PHONE, DESKTOP, PHONE)
    pages = {seat: open_game(chromium_browser, daphne_server, game.pk, orm(session_cookie, user), size)
             for seat, user, size in zip(seats, users, sizes)}
    watcher = open_game(chromium_browser, daphne_server, game.pk, orm(session_cookie, erin), PHONE)

    # RH32: two pieces each on the corner's white neighbours, the corners empty.
    for seat, squares in {"SW": "b1 a2", "SE": "d1 e2", "NE": "d5 e4", "NW": "a4 b5"}.items():
        for square in squares.split():
            expect(watcher.locator(f'#board [data-square="{square}"] [data-piece="{seat}"]')).to_be_visible()
    # Each page puts its own seat at the bottom, the partner on top (RH31).
    expect(pages["SE"].locator('[data-player="SE"]')).to_have_attribute("data-place", "bottom")
    expect(pages["SE"].locator('[data-player="NW"]')).to_have_attribute("data-place", "top")
    expect(pages["SE"].locator('[data-player="NE"]')).to_have_attribute("data-place", "right")
    # RH36: a partner's hand is hidden too; only a count shows.
    expect(pages["NE"].locator('[data-player="SW"] [data-counts]')).to_contain_text("1 in hand")
    expect(pages["NE"].locator("#hand [data-card]")).to_have_count(3)
    expect(watcher.locator("#hand")).to_have_count(0)
    for page in (pages["SE"], watcher):
        no_sideways_scroll(page)

    played = play_to_the_end(pages, [watcher], game.pk, ["SW", "NE"], orm)

    over = orm(game_row, game.pk)
    assert over.status == "finished" and over.winner == "SW+NE"
    for page in [*pages.values(), watcher]:
        expect(page.locator("#game-status")).to_have_text(re.compile(r"^SW\+NE \(alice & charlie\) win "))
        expect(page.locator("#moves li")).to_have_count(played)
    ARTIFACTS.mkdir(exist_ok=True)
    pages["SW"].screenshot(path=str(ARTIFACTS / "rhombus-4p-over-desktop.png"), full_page=True)
    watcher.screenshot(path=str(ARTIFACTS / "rhombus-4p-over-phone-spectator.png"), full_page=True)


def test_a_refused_typed_action_shows_the_rule_and_the_page_fits_a_phone(
    alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    game = orm(lambda: starting.start_game(alice, bob, seed=SEED_2, setup=starting.Setup("rhombus")))
    sw = open_game(chromium_browser, daphne_server, game.pk, orm(session_cookie, alice), PHONE)
    no_sideways_scroll(sw)
    square = sw.locator('#board [data-square="c3"]').bounding_box()
    assert square is not None and square["width"] >= 40  # a thumb can hit it
    expect(sw.locator('[data-command="abort"]')).to_be_visible()  # before every seat has acted (RH27)

    # Picking a card lights up the pieces it can move, and Escape puts it back.
    _, view = orm(mover_view, game.pk)
    mover = next(text for text in view["legal"] if MOVE.search(text) and ", " not in text)
    sw.locator(f'#hand [data-card="{action_cards(mover)[0]}"]').click()
    expect(sw.locator(".square--from").first).to_be_visible()
    sw.screenshot(path=str(ARTIFACTS / "rhombus-phone-choosing.png"), full_page=True)
    no_sideways_scroll(sw)
    sw.keyboard.press("Escape")
    expect(sw.locator(".square--from")).to_have_count(0)

    # A typed action the engine refuses: its message names the rule, and nothing moves.
    board_before = sw.locator("#board").inner_html()
    sw.locator("#notation-input").fill("6H a1-a1")
    sw.locator("#notation-input").press("Enter")
    expect(sw.locator("#game-error")).to_have_text(re.compile(r"RH\d+|N\d+"))
    expect(sw.locator("#game")).to_have_attribute("data-ply", "0")
    assert sw.locator("#board").inner_html() == board_before


def test_either_of_two_alike_pieces_may_make_a_move(
    alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    """Worked example 1 and N1: the legal list names `KC a2-b3, QC b1-d2`, and
    clicking b1 to b3, then a2 to d2, leaves the same board: that action is sent."""
    game = orm(lambda: starting.start_game(alice, bob, seed=SEED_2, setup=starting.Setup("rhombus")))

    def example_one() -> None:
        row = Game.objects.get(pk=game.pk)
        Game.objects.filter(pk=game.pk).update(position=deal(row.position, "SW", ["KC", "QC"], ["9D"]))

    orm(example_one)
    sw = open_game(chromium_browser, daphne_server, game.pk, orm(session_cookie, alice), DESKTOP)
    _, view = orm(mover_view, game.pk)
    assert "KC a2-b3, QC b1-d2" in view["legal"] and "KC b1-b3, QC a2-d2" not in view["legal"]
    # Neither the page nor anyone else lists them: the page asks, use by use, and sends what was clicked.
    sw.locator('#hand [data-card="KC"]').click()
    sw.locator('#hand [data-card="QC"]').click()
    for origin, target in (("b1", "b3"), ("a2", "d2")):
        # The page ignores a click on the board until the server's options for the
        # chosen cards (and the uses made) have come: wait for them to light the piece.
        expect(sw.locator(f'#board [data-square="{origin}"]')).to_have_class(has_class("square--from"))
        sw.locator(f'#board [data-square="{origin}"]').click()
        expect(sw.locator(f'#board [data-square="{target}"]')).to_have_class(has_class("square--target"))
        sw.locator(f'#board [data-square="{target}"]').click()
    expect(sw.locator("#game")).to_have_attribute("data-ply", "1")
    expect(sw.locator("#moves li").last).to_contain_text("KC a2-b3, QC b1-d2")
    for square in ("b3", "d2", "a1"):
        expect(sw.locator(f'#board [data-square="{square}"] [data-piece="SW"]')).to_be_visible()


def test_formation_actions_are_clicked_too(
    alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    """Four cards a player (RH42), identical cards (N6) and the discards of a
    player with no piece on the board (RH47) are clicked like any action. A
    Formation game has no end by RH25, so after 30 clicked actions NE resigns."""
    game = orm(lambda: starting.start_game(alice, bob, seed=SEED_2, setup=starting.Setup("rhombus", "formation")))
    pages = {
        "SW": open_game(chromium_browser, daphne_server, game.pk, orm(session_cookie, alice), DESKTOP),
        "NE": open_game(chromium_browser, daphne_server, game.pk, orm(session_cookie, bob), PHONE),
    }
    expect(pages["SW"].locator("#hand [data-card]")).to_have_count(4)
    expect(pages["SW"].locator('#hand [data-place="table"]')).to_have_count(3)
    played = play_actions(pages, [], game.pk, ["SW"], orm, FORMATION_ACTIONS)
    assert played == FORMATION_ACTIONS
    pages["NE"].once("dialog", lambda dialog: dialog.accept())
    pages["NE"].locator('[data-command="resign"]').click()
    for page in pages.values():
        expect(page.locator("#game-status")).to_have_text("SW (alice) wins by resignation (RH27)")
    no_sideways_scroll(pages["NE"])
    pages["NE"].screenshot(path=str(ARTIFACTS / "rhombus-formation-phone.png"), full_page=True)


def test_an_out_player_clicks_the_partners_pieces(
    alice: Any, bob: Any, charlie: Any, dave: Any, daphne_server: str, chromium_browser: Browser,
    orm: Callable[..., Any],
) -> None:
    """RH34: SW has no piece left, so SW plays NE's: a new NE piece on e5 by a click."""
    game = orm(lambda: starting.start_game(alice, bob, charlie, dave, seed=SEED_4, setup=starting.Setup("rhombus")))

    def sw_is_out() -> None:
        position = Game.objects.get(pk=game.pk).position
        for square in ("b1", "a2"):
            del position["board"][square]
        position["seats"]["SW"].update(reserve=0, eliminated=4, out=True)
        Game.objects.filter(pk=game.pk).update(position=deal(position, "SW", ["QH", "9S"], ["7C"]))

    orm(sw_is_out)
    _, view = orm(mover_view, game.pk)
    assert "9S @e5" in view["legal"] and "QH e4-e3" in view["legal"]
    sw = open_game(chromium_browser, daphne_server, game.pk, orm(session_cookie, alice), DESKTOP)
    expect(sw.locator('[data-player="SW"] [data-counts]')).to_contain_text("out (RH34)")
    sw.locator('#hand [data-card="QH"]').click()
    expect(sw.locator('#board [data-square="e4"]')).to_have_class(has_class("square--from"))  # NE's piece
    sw.locator('#hand [data-card="QH"]').click()  # put it back
    click_action(sw, "9S @e5")
    expect(sw.locator("#game")).to_have_attribute("data-ply", "1")
    expect(sw.locator('#board [data-square="e5"] [data-piece="NE"]')).to_be_visible()
    expect(sw.locator("#moves li").last).to_contain_text("9S @e5")


def test_a_four_card_flush_on_an_open_board_is_built_use_by_use(
    alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    """Issue 24: the page gets the card sets, never the tens of thousands of
    texts; four cards picked, it asks the server use by use which pieces can
    move, each click pair makes a use, and the action goes out when the fourth
    card is used. The record holds the action's canonical text (N1)."""
    game = orm(lambda: starting.start_game(alice, bob, seed=SEED_2, setup=starting.Setup("rhombus", "formation")))
    orm(flush_on_an_open_board, game.pk)
    listed = orm(lambda: len(legal_texts(Game.objects.get(pk=game.pk))))  # the test's count, not the page's
    state_before = orm(lambda: payloads.state_of(Game.objects.get(pk=game.pk)))
    assert listed > 20000

    sw = new_page(chromium_browser, daphne_server, orm(session_cookie, alice), DESKTOP)
    frames: list[str] = []
    sent: list[str] = []
    sw.on("websocket", lambda ws: (ws.on("framereceived", lambda frame: frames.append(frame)),
                                   ws.on("framesent", lambda frame: sent.append(frame))))
    sw.goto(f"{daphne_server}/games/{game.pk}/")
    expect(sw.locator("#game")).to_have_attribute("data-state", "live")
    for card in FLUSH:
        sw.locator(f'#hand [data-card="{card}"][aria-pressed="false"]').first.click()
    for made in range(4):
        piece = sw.locator("#board .square--from").first
        expect(piece).to_be_visible()  # lit from the options answer
        piece.click()
        expect(sw.locator("#board .square--selected")).to_have_count(1)
        if made == 2:  # two uses made, a piece picked: its targets lit, Back and Clear offered
            ARTIFACTS.mkdir(exist_ok=True)
            sw.screenshot(path=str(ARTIFACTS / "rhombus-formation-flush-building.png"), full_page=True)
        sw.locator("#board .square--target, #board .square--capture").first.click()
        choice = sw.locator("#hand-actions [data-use]")  # two cards making that move: either
        if choice.count():
            choice.first.click()
        if made < 3:
            expect(sw.locator("#hand-actions [data-done]")).to_have_attribute(
                "data-done", re.compile(", ".join([r"[^,]+"] * (made + 1)) + "$"))
    expect(sw.locator("#game")).to_have_attribute("data-ply", "1")

    acted = [json.loads(frame)["action"] for frame in sent if json.loads(frame)["type"] == "act"]
    assert len(acted) == 1 and len(acted[0].split(", ")) == 4
    recorded = orm(lambda: Move.objects.get(game_id=game.pk, ply=0).action)
    _, played = rhombus.step(state_before, acted[0])
    assert recorded == played.text  # the canonical text (N1) of what was clicked
    expect(sw.locator("#moves li").last).to_contain_text(recorded)
    received = [json.loads(frame) for frame in frames if isinstance(frame, str)]
    assert received and all("legal" not in frame for frame in received)
    asked = [json.loads(frame) for frame in sent if json.loads(frame)["type"] == "options"]
    # Each choice that is a set is asked about (a single mover is one too); the flush at every use.
    assert all(set(a["cards"]) <= set(FLUSH) for a in asked)
    assert [a["done"] for a in asked if sorted(a["cards"]) == sorted(FLUSH)] == [
        acted[0].split(", ")[:made] for made in range(4)]
    answered = [frame for frame in received if frame["type"] == "options"]
    assert len(answered) >= 4 and max(len(frame["uses"]) for frame in answered) < 200  # a few uses, not the list
    ARTIFACTS.mkdir(exist_ok=True)
    sw.screenshot(path=str(ARTIFACTS / "rhombus-formation-flush.png"), full_page=True)


def focused(page: Page, attribute: str) -> str | None:
    return page.evaluate(f"document.activeElement && document.activeElement.getAttribute({attribute!r})")


def test_an_action_is_built_by_keyboard_alone(
    alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    """static/js/board-keys.js with the use-by-use builder: Enter picks a card;
    once the options have come, Shift+Tab reaches the lit piece, Enter picks it,
    and Tab reaches its moves' buttons, whose Enter plays the action."""
    game = orm(lambda: starting.start_game(alice, bob, seed=SEED_2, setup=starting.Setup("rhombus")))
    sw = open_game(chromium_browser, daphne_server, game.pk, orm(session_cookie, alice), DESKTOP)
    _, view = orm(mover_view, game.pk)
    card = action_cards(next(text for text in view["legal"] if MOVE.search(text) and ", " not in text))[0]
    sw.locator(f'#hand [data-card="{card}"]').focus()
    sw.keyboard.press("Enter")
    expect(sw.locator(f'#hand [data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
    expect(sw.locator("#board .square--from").first).to_be_visible()
    for _ in range(8):  # back past the other cards to the board's tab stop
        if focused(sw, "data-square"):
            break
        sw.keyboard.press("Shift+Tab")
    square = focused(sw, "data-square")
    expect(sw.locator(f'#board [data-square="{square}"]')).to_have_class(has_class("square--from"))
    expect(sw.locator(f'#board [data-square="{square}"]')).to_have_attribute(
        "aria-label", re.compile(r"can move$"))
    sw.keyboard.press("Enter")
    expect(sw.locator(f'#board [data-square="{square}"]')).to_have_class(has_class("square--selected"))
    for _ in range(12):  # on to the picked piece's moves, below the cards
        if focused(sw, "data-use"):
            break
        sw.keyboard.press("Tab")
    use = focused(sw, "data-use")
    assert use is not None and re.match(rf"{card}(\+\S+)? {square}[-x][a-e][1-5]$", use), use
    sw.keyboard.press("Enter")
    expect(sw.locator("#game")).to_have_attribute("data-ply", "1")
    expect(sw.locator("#moves li").last).to_contain_text(use)


def test_two_kill_cards_making_one_move_are_a_choice_and_back_undoes_a_use(
    alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    """RH16, RH21: with QH, 7H and 10H chosen, QH from a2 to NE's piece on c3 kills
    with either kill card, so that click pair offers both uses; Back undoes a use
    (the piece is back on c3), and the 10H's zero is a button (N2)."""
    game = orm(lambda: starting.start_game(alice, bob, seed=SEED_2, setup=starting.Setup("rhombus")))

    def ne_on_c3() -> None:
        position = Game.objects.get(pk=game.pk).position
        position["board"]["c3"] = position["board"].pop("e4")
        Game.objects.filter(pk=game.pk).update(position=deal(position, "SW", ["QH", "7H"], ["10H"]))

    orm(ne_on_c3)
    state_before = orm(lambda: payloads.state_of(Game.objects.get(pk=game.pk)))
    sw = open_game(chromium_browser, daphne_server, game.pk, orm(session_cookie, alice), DESKTOP)
    for card in ("QH", "7H", "10H"):
        sw.locator(f'#hand [data-card="{card}"]').click()
    square = lambda sq: sw.locator(f'#board [data-square="{sq}"]')  # noqa: E731
    expect(square("a2")).to_have_class(has_class("square--from"))
    square("a2").click()
    expect(square("c3")).to_have_class(has_class("square--capture"))
    square("c3").click()
    choices = sw.locator("#hand-actions [data-use]")
    # Worded, the notation beside (issue 35, 3): which card, which piece, where, whose piece it eliminates.
    expect(choices).to_have_text([
        "Q♥ with 10♥: move the piece on a2 to c3 and eliminate NE's piece there (RH16) QH+10H a2xc3",
        "Q♥ with 7♥: move the piece on a2 to c3 and eliminate NE's piece there (RH16) QH+7H a2xc3"])
    expect(choices.locator('.notation[translate="no"]')).to_have_text(["QH+10H a2xc3", "QH+7H a2xc3"])
    expect(sw.locator("#builder-prompt")).to_have_text("Q♥ 7♥ 10♥: more than one use makes that move. Choose one:")
    sw.locator('#hand-actions [data-use="QH+7H a2xc3"]').click()
    expect(sw.locator("#hand-actions [data-done]")).to_have_text(
        "Uses made: Q♥ with 7♥: move the piece on a2 to c3 and eliminate NE's piece there (RH16) QH+7H a2xc3")
    expect(sw.locator('#hand-actions [data-use="10H 0"]')).to_have_text("10♥ as zero: it moves nothing (RH15) 10H 0")
    expect(square("c3").locator('[data-piece="SW"]')).to_be_visible()  # as the use leaves the board
    sw.locator("#hand-actions [data-back]").click()
    expect(sw.locator("#hand-actions [data-done]")).to_have_count(0)
    expect(square("c3").locator('[data-piece="NE"]')).to_be_visible()
    square("a2").click()
    square("c3").click()
    sw.locator('#hand-actions [data-use="QH+10H a2xc3"]').click()
    sw.locator('#hand-actions [data-use="7H 0"]').click()
    expect(sw.locator("#game")).to_have_attribute("data-ply", "1")
    recorded = orm(lambda: Move.objects.get(game_id=game.pk, ply=0).action)
    assert recorded == rhombus.step(state_before, "QH+10H a2xc3, 7H 0")[1].text  # its canonical text (N1)
    expect(sw.locator("#moves li").last).to_contain_text(recorded)


SUIT_SIGNS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}


def face(card: str) -> str:
    """A card as the page shows it in words: "QH" -> "Q♥" (static/js/card-names.js cardText)."""
    return card[:-1] + SUIT_SIGNS[card[-1]]


def without_firsts(message: str) -> str:
    frame = json.loads(message)
    frame.pop("firsts", None)
    return json.dumps(frame)


def test_the_page_says_it_waits_and_drops_an_answer_for_an_older_choice(
    alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    """The server's options answers are held back (Playwright's WebSocket route):
    the page says it is asking, and an answer that comes after the player chose
    other cards is not shown; the answer for the cards chosen now is. The route
    also takes the one-card sets' first answers (``firsts``) out of the views, so
    that one card is a question too."""
    game = orm(lambda: starting.start_game(alice, bob, seed=SEED_2, setup=starting.Setup("rhombus")))
    _, view = orm(mover_view, game.pk)
    singles = [cards[0] for cards in view["sets"] if len(cards) == 1]
    assert len(singles) >= 2
    first, second = singles[:2]
    sw = new_page(chromium_browser, daphne_server, orm(session_cookie, alice), DESKTOP)
    held: list[str] = []
    routes: list[Any] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        routes.append(ws)
        server.on_message(lambda message: held.append(message) if '"type": "options"' in message
                          or '"type":"options"' in message else ws.send(without_firsts(message)))

    sw.route_web_socket(re.compile(r"/ws/games/\d+/$"), route)
    sw.goto(f"{daphne_server}/games/{game.pk}/")
    expect(sw.locator("#game")).to_have_attribute("data-state", "live")
    card = lambda name: sw.locator(f'#hand [data-card="{name}"]').first  # noqa: E731
    card(first).click()
    expect(sw.locator("#builder-prompt")).to_have_text(f"{face(first)}: asking the server which uses can follow…")
    expect(sw.locator("#hand-actions")).to_have_attribute("aria-busy", "true")
    card(first).click()  # put it back, and choose the other
    card(second).click()
    expect(sw.locator("#builder-prompt")).to_have_text(f"{face(second)}: asking the server which uses can follow…")
    for _ in range(50):  # the route's handlers run while the page waits
        if len(held) == 2:
            break
        sw.wait_for_timeout(100)
    assert [json.loads(message)["cards"] for message in held] == [[first], [second]]
    routes[0].send(held[0])  # the older choice's answer: dropped
    sw.wait_for_timeout(300)
    expect(sw.locator("#builder-prompt")).to_have_text(f"{face(second)}: asking the server which uses can follow…")
    expect(sw.locator("#board .square--from, #board .square--enter, #hand-actions [data-use]")).to_have_count(0)
    # A refusal instead (the server's error frame): the page stops waiting and says so.
    routes[0].send(json.dumps({"type": "error", "ply": 0, "message": "stale ply 0: the game is at ply 1"}))
    expect(sw.locator("#builder-prompt")).to_have_text(
        f"{face(second)}: the server gave no answer (see above). Pick the cards again, or Clear.")
    expect(sw.locator("#game-error")).to_have_text("stale ply 0: the game is at ply 1")
    expect(sw.locator("#hand-actions")).not_to_have_attribute("aria-busy", "true")
    routes[0].send(held[1])  # its answer after all: shown, as it is for the cards chosen now
    answer = json.loads(held[1])
    lit = {use.split(" ")[1].split("-")[0].split("x")[0] for use in answer["uses"] if MOVE.search(use)}
    for square in lit:
        expect(sw.locator(f'#board [data-square="{square}"]')).to_have_class(has_class("square--from"))
