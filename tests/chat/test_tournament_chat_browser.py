"""In Chromium, on real daphne (issue 25): two people on a tournament's page
chat; a spectator reads along and is told why they may not write; the
organizer's switch to announcements closes the players' box without a reload."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from tournaments import entering
from tournaments.models import Tournament
from tests.games.conftest import session_cookie
from tests.helpers import staff_group

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory
    (chat lines, and the flood check over them, are rows)."""
    return shared_daphne_server


def cup_with_players() -> tuple[int, dict[str, str]]:
    make = get_user_model().objects.create_user
    olga = make("olga", "olga@example.org")
    olga.groups.add(staff_group("Organizers"))
    people = {"olga": olga, "alice": make("alice"), "bob": make("bob"), "charlie": make("charlie")}
    cup = Tournament.objects.create(name="Chat Cup", organizer=olga, time_control="5+3",
                                    starts_at=timezone.now() + timedelta(hours=1))
    entering.join(cup.pk, people["alice"])
    entering.join(cup.pk, people["bob"])
    return cup.pk, {name: session_cookie(user) for name, user in people.items()}


def page_for(browser: Browser, base: str, cookie: str, url: str) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    page.goto(base + url)
    expect(page.locator("#tournament")).to_have_attribute("data-state", "live")
    return page


def test_players_chat_on_the_tournament_page_and_a_spectator_reads_along(
        daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    cup, cookies = orm(cup_with_players)
    url = f"/tournaments/{cup}/"
    alice, bob, charlie = (page_for(chromium_browser, daphne_server, cookies[name], url)
                           for name in ("alice", "bob", "charlie"))
    box = alice.get_by_role("region", name="Tournament chat")
    box.get_by_role("textbox", name="Chat line").fill("good luck, bob")
    box.get_by_role("textbox", name="Chat line").press("Enter")
    for page in (alice, bob, charlie):
        expect(page.locator(".chat__line").last).to_have_text("alice good luck, bob")
    bob.get_by_role("button", name="Well played").click()
    expect(charlie.locator(".chat__line").last).to_have_text("bob Well played")
    # charlie entered nothing: no box to write in, and the reason instead.
    expect(charlie.get_by_role("textbox", name="Chat line")).to_be_hidden()
    expect(charlie.locator("[data-chat-closed]")).to_have_text("Only the tournament's players write here.")

    olga = page_for(chromium_browser, daphne_server, cookies["olga"], url)
    olga.get_by_label("Who may write in the chat").select_option("organizer")
    olga.get_by_role("button", name="Save").first.click()
    expect(olga.get_by_text("The chat setting is saved.")).to_be_visible()
    expect(alice.locator("[data-chat-closed]")).to_have_text(
        "Only the organizer writes here: this chat is for announcements.")
    expect(alice.get_by_role("textbox", name="Chat line")).to_be_hidden()
    olga.get_by_role("textbox", name="Chat line").fill("Round 1 in ten minutes")
    olga.get_by_role("textbox", name="Chat line").press("Enter")
    expect(alice.locator(".chat__line").last).to_have_text("olga Round 1 in ten minutes")


def test_a_refused_line_is_shown_to_its_sender_only(
        daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    cup, cookies = orm(cup_with_players)
    url = f"/tournaments/{cup}/"
    alice, bob = (page_for(chromium_browser, daphne_server, cookies[name], url) for name in ("alice", "bob"))
    line = alice.get_by_role("textbox", name="Chat line")
    line.fill("see www.example.com")
    line.press("Enter")
    expect(alice.get_by_role("alert")).to_contain_text("Links may be posted only by accounts with 10 finished games")
    line.fill("fine, no link then")
    line.press("Enter")
    expect(bob.locator(".chat__line")).to_have_text(["alice fine, no link then"])
