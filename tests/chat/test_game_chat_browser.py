"""In Chromium, on real daphne (issue 25): two players chat during and after a
game; a spectator's line is seen by another spectator and by the players only
once the game is over; a team game's players get the preset buttons only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from games import finishing, starting
from games.starting import Setup
from tests.games.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


def people(*names: str) -> dict[str, Any]:
    make = get_user_model().objects.create_user
    return {name: make(name, f"{name}@example.org") for name in names}


def cookies_of(users: dict[str, Any]) -> dict[str, str]:
    return {name: session_cookie(user) for name, user in users.items()}


def game_page(browser: Browser, base: str, cookie: str, game_id: int) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/")
    expect(page.locator("#game")).to_have_attribute("data-connection", "up")
    return page


def say(page: Page, room: str, text: str) -> None:
    line = page.get_by_role("region", name=room).get_by_role("textbox", name="Chat line")
    line.fill(text)
    line.press("Enter")


def test_players_and_spectators_chat_apart_until_the_game_ends(
        daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    users = orm(people, "alice", "bob", "charlie", "dave")
    cookies = orm(cookies_of, users)
    game = orm(lambda: starting.start_game(users["alice"], users["bob"], seed="chat-page").pk)
    alice, bob, charlie, dave = (game_page(chromium_browser, daphne_server, cookies[name], game)
                                 for name in ("alice", "bob", "charlie", "dave"))
    say(alice, "Players' chat", "hello bob, good luck")
    expect(bob.get_by_role("region", name="Players' chat").locator(".chat__line")).to_have_text(
        ["alice hello bob, good luck"])
    expect(charlie.get_by_role("region", name="Players' chat")).to_have_count(0)

    say(charlie, "Spectators' chat", "red looks strong")
    expect(dave.get_by_role("region", name="Spectators' chat").locator(".chat__line")).to_have_text(
        ["charlie red looks strong"])
    expect(alice.get_by_role("region", name="Spectators' chat")).to_have_count(0)

    orm(finishing.resign, game, users["bob"])
    spectators = alice.get_by_role("region", name="Spectators' chat")
    expect(spectators.locator(".chat__line")).to_have_text(["charlie red looks strong"])
    say(alice, "Spectators' chat", "thanks for watching")
    expect(charlie.get_by_role("region", name="Spectators' chat").locator(".chat__line").last).to_have_text(
        "alice thanks for watching")
    bob.get_by_role("region", name="Players' chat").get_by_role("button", name="Good game").click()
    expect(alice.get_by_role("region", name="Players' chat").locator(".chat__line").last).to_have_text(
        "bob Good game")


def test_a_team_games_players_get_the_presets_only_until_the_end(
        daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    users = orm(people, "alice", "bob", "charlie", "dave")
    cookies = orm(cookies_of, users)
    game = orm(lambda: starting.start_game(*users.values(), seed="chat-teams", setup=Setup("rhombus")).pk)
    alice, charlie = (game_page(chromium_browser, daphne_server, cookies[name], game) for name in ("alice", "charlie"))
    box = alice.get_by_role("region", name="Players' chat")
    expect(box.get_by_role("textbox", name="Chat line")).to_be_hidden()
    box.get_by_role("button", name="Have fun").click()
    expect(charlie.get_by_role("region", name="Players' chat").locator(".chat__line")).to_have_text(
        ["alice Have fun"])
    orm(finishing.resign, game, users["bob"])
    expect(box.get_by_role("textbox", name="Chat line")).to_be_visible()
    say(alice, "Players' chat", "well played, partner")
    expect(charlie.get_by_role("region", name="Players' chat").locator(".chat__line").last).to_have_text(
        "alice well played, partner")


def test_a_line_is_reported_from_its_menu_and_a_moderator_acts_on_the_page(
        daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    from chat.models import ChatTimeout
    from moderation.models import ModerationAction, Report
    from tests.helpers import staff_group

    users = orm(people, "alice", "bob", "mona")
    orm(lambda: users["mona"].groups.add(staff_group("Moderators")))
    cookies = orm(cookies_of, users)
    game = orm(lambda: starting.start_game(users["alice"], users["bob"], seed="chat-menu").pk)
    alice, bob = (game_page(chromium_browser, daphne_server, cookies[name], game) for name in ("alice", "bob"))
    say(alice, "Players' chat", "you play like a potato")
    line = bob.get_by_role("region", name="Players' chat").locator(".chat__line").last
    expect(line).to_have_text("alice you play like a potato")
    line.get_by_role("button", name="Menu of the line of alice").click()
    bob.get_by_role("menuitem", name="Report this line").click()
    expect(bob.get_by_role("region", name="Players' chat").get_by_role("alert")).to_have_text(
        "Thank you: the line is with the moderators.")
    report = orm(lambda: Report.objects.get())
    assert (report.reporter_id, report.reported_id, report.reason) == (
        users["bob"].pk, users["alice"].pk, Report.Reason.ABUSE)
    assert "you play like a potato" in report.text
    # alice's own line has no report in its menu, so no menu at all.
    expect(alice.get_by_role("button", name="Menu of the line of alice")).to_have_count(0)

    # The moderator reads the finished game's chat and acts on the page.
    orm(finishing.resign, game, users["bob"])
    mona = game_page(chromium_browser, daphne_server, cookies["mona"], game)
    mona.on("dialog", lambda dialog: dialog.accept())
    spectators = mona.get_by_role("region", name="Spectators' chat")
    expect(spectators).to_be_visible()
    say(alice, "Spectators' chat", "potato again")
    spectator_line = spectators.locator(".chat__line").last
    expect(spectator_line).to_have_text("alice potato again")
    spectator_line.get_by_role("button", name="Menu of the line of alice").click()
    mona.get_by_role("menuitem", name="Time out of chat…").click()
    dialog = spectators.get_by_role("dialog", name="Time out of chat")
    dialog.get_by_label("For").select_option("60")
    dialog.get_by_label("Reason").select_option("insult")
    dialog.get_by_role("button", name="Time out").click()
    expect(spectators.get_by_role("alert")).to_contain_text("Done: out of chat until")
    spectator_line.get_by_role("button", name="Menu of the line of alice").click()
    mona.get_by_role("menuitem", name="Remove this line").click()
    expect(alice.get_by_role("region", name="Spectators' chat").locator(".chat__line").last).to_have_text(
        "alice removed by a moderator")
    say(alice, "Spectators' chat", "hello?")
    expect(alice.get_by_role("region", name="Spectators' chat").get_by_role("alert")).to_contain_text(
        "for disrespecting other players")
    kinds = orm(lambda: sorted(ModerationAction.objects.values_list("kind", flat=True)))
    assert kinds == ["chat_remove", "chat_timeout"]
    assert orm(lambda: ChatTimeout.objects.get().reason) == "insult"
