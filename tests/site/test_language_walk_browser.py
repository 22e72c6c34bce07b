"""A Chromium walk in each language at phone width (390×844) over every page
kind (issue 35, "Done when"): what the test client cannot see, since the
sockets and scripts write it (the Rhombus page's buttons, chat lines, clocks,
live lists, replays), read as a person meets it.

The world is tests/site/world.py's: alice sits in running games of each kind,
all at her turn; she, a spectator, the organizer, a restricted player and an
anonymous visitor open every page theirs. Each game page at alice's turn has
cards chosen (the Rhombus page then draws its prompt and use buttons); a chat
line's menu is opened and a preset said where alice may; the home page has the
navigation's menus open. On every page, once
settled, in the same load:

- axe-core finds no WCAG 2.0/2.1 A or AA violation (the phone pass of
  test_accessibility_browser.py, which keeps the desktop one);
- asked in German, Spanish or Russian, the visible text (innerText, titles,
  aria-labels, placeholders, alts; not what is marked ``translate="no"``, nor
  code, kbd, samp) holds no English word of tests/site/english.py, and
  ``<html lang>`` names the language; asked in English, it holds some (the
  reading works);
- no button, link, label, option, heading, spoken name or visible text outside
  ``translate="no"`` is raw notation (tests/site/notation.py): notation shown
  beside words sits in ``<span class="notation" translate="no">``, and a spoken
  name may repeat the marked notation it names (a name holds the visible text,
  WCAG 2.5.3: "7♥ as zero: it moves nothing (RH15) 7H 0"). A drawn
  card (``.card``, ``.pawn``: rank and suit on a face) is a picture, named in
  words by its title, as is a little board's (``.live-pawn``).

Each failure names the page, the viewer, the language and what was found.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, BrowserContext, Page

from tests.games.conftest import fast_password_hashing, services, session_cookie  # noqa: F401 (shared)
from tests.site.axe import axe_violations, load_axe, my_turn
from tests.site.english import english_found
from tests.site.notation import card_codes, is_raw_notation
from tests.site.world import Page as WorldPage
from tests.site.world import World, world  # noqa: F401 (the fixture)
from tests.tournaments.conftest import organizer, players, tournament  # noqa: F401 (the world's)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

LANGUAGES = ["en", "de", "es", "ru"]
PHONE = {"width": 390, "height": 844}
# What differs for someone not signed in: the navigation, the sign-in pages,
# a game watched anonymously. The rest is alice's page less her name in the menu.
VISITOR_PAGES = {"home", "lobby", "live games", "finished Swiss tournament", "running Rhombus for four game",
                 "Rhombus replay", "sign-in", "sign-up", "password reset"}
# Pages in English in every language, and saying so in <html lang>: the API's
# guide and Swagger UI (the API's names, and its messages unless asked in
# another language, are English: docs/api.md). Not in the world: the server
# walk asks every page of it for no English.
IN_ENGLISH = {"/api/docs": WorldPage("API docs", "/api/docs", None)}


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


# What a reader meets, read from the rendered page: the text of every visible
# text node and the spoken attributes of every visible element; for the
# notation, with where each is for the failure message, the visible text
# nodes and the whole text and spoken names of every element a reader picks
# or scans by (buttons, links, labels, options, headings). A board square's
# name is its coordinate, as on every board, and no such element. What is
# marked translate="no", and code, is left out; a drawn card's face is left
# out of the notation only (NOTATION_EXEMPT).
READ_PAGE = """() => {
  const SKIPPED = '[translate="no"], code, kbd, samp, script, style, noscript, template';
  const DRAWN = '.card, .pawn, .live-pawn';
  const NOTATION_EXEMPT = SKIPPED + ', ' + DRAWN;
  const PICKED = 'button, a, label, option, h1, h2, h3, h4, h5, h6, summary, legend, caption, th, ' +
    '[role="button"], [role="link"], [role="tab"], [role="menuitem"], [role="option"], [role="heading"]';
  const SPOKEN = ["aria-label", "title", "placeholder", "alt"];
  const squeeze = (text) => (text || "").replace(/\\s+/g, " ").trim();
  // An option is met by opening its select; an SVG title is a tooltip of its picture.
  const shown = (el) => {
    const holder = el.closest("select, datalist") || (el.closest("svg") && el.matches("svg title, svg desc") ? el.closest("svg") : el);
    return holder.checkVisibility({visibilityProperty: true});
  };
  const where = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\\s+/).join(".") : "");
  // An element's visible text less the drawn cards in it (a link round a little board)
  // and the notation marked as such beside its words.
  const wordsOf = (el) => Array.from(el.querySelectorAll(NOTATION_EXEMPT)).reduce(
    (text, inner) => text.replace(inner.innerText, " "), el.innerText);
  // A spoken name holds the visible text it names (WCAG 2.5.3, axe's
  // label-content-name-mismatch), the marked notation too: read without it.
  const nameOf = (el, value) => Array.from(el.querySelectorAll(SKIPPED)).reduce(
    (text, inner) => text.replace(squeeze(inner.textContent), " "), value);
  const texts = [document.title];
  const notation = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = squeeze(node.data);
    if (!text || !parent || parent.closest(SKIPPED) || !shown(parent)) continue;
    texts.push(text);
    if (!parent.closest(NOTATION_EXEMPT)) notation.push([where(parent), text]);
  }
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest(SKIPPED) || !shown(el)) continue;
    const picked = el.matches(PICKED) && !el.closest(NOTATION_EXEMPT);
    for (const name of SPOKEN) {
      const value = squeeze(el.getAttribute(name));
      if (!value) continue;
      texts.push(value);
      if (picked) notation.push([`${where(el)}[${name}]`, nameOf(el, value)]);
    }
    if (el.matches('input[type="submit"], input[type="button"], input[type="reset"]') && el.value) texts.push(el.value);
    if (picked) notation.push([where(el), squeeze(el.matches("option") ? el.textContent : wordsOf(el))]);
  }
  return {lang: document.documentElement.lang, texts, notation};
}"""


@dataclass(frozen=True)
class Visit:
    """One page load: what, by whom, in which language."""

    name: str
    url: str
    who: str  # a username, or "a visitor"
    language: str

    def __str__(self) -> str:
        return f"{self.name} ({self.url}, as {self.who}, {self.language})"


def choose_cards(page: Page, picks: dict[int, list[str]]) -> None:
    """At the viewer's turn, choose cards as a player does: Rhombus, the
    world's pick (a 7-10 alone: its zero use is a button, RH15); Ace in the
    Hole, the first playable card (its actions are buttons)."""
    game_id = int(page.locator("#game").get_attribute("data-game-id") or 0)
    if game_id in picks:
        for card in picks[game_id]:
            page.locator(f'#hand [data-card="{card}"][aria-pressed="false"]').first.click()
    else:
        page.locator("#hand .card:not(.card--idle)").first.click()
    page.locator("#hand-actions button, #board .square--from").first.wait_for()


def use_chat(page: Page) -> None:
    """Say a preset where only presets may be said (a team game's players,
    RH36), and open a line's menu (report it), so that both are drawn."""
    preset = page.locator(".chat__preset:visible")
    if preset.count():
        lines = page.locator(".chat__line").count()
        preset.first.click()
        page.locator(f".chat__line >> nth={lines}").or_(page.locator("[data-chat-refused]:not(:empty)")).first.wait_for()
    menu = page.locator(".chat__menu-button:visible")
    if menu.count():
        menu.first.click()
        page.locator(".chat__menu:visible").wait_for()


def open_menus(page: Page) -> None:
    """Open the navigation's menus (the bell, "Your turn"), which notify.js keeps up to date."""
    for summary in page.locator("nav details.menu > summary:visible").element_handles():
        summary.click()


def settle(page: Page, visit: Visit, picks: dict[int, list[str]]) -> float:
    """Wait for what the sockets draw and act as a player would (choose
    cards, chat; on the home page, open the menus); the moment from which
    axe's settling time counts."""
    if visit.url == "/":
        open_menus(page)
    if page.locator("#game").count():
        page.locator('#game[data-state="live"]').wait_for()
        if my_turn(page):
            choose_cards(page, picks)
    if page.locator("#swagger-ui").count():
        page.locator("#swagger-ui .opblock").first.wait_for()  # drawn from /api/openapi.json
    use_chat(page)
    return time.monotonic()


def findings(read: dict[str, Any], visit: Visit, kept: tuple[str, ...]) -> list[str]:
    """What is wrong with a page's reading (READ_PAGE) on VISIT."""
    problems = []
    language = "en" if visit.url in IN_ENGLISH else visit.language
    english = english_found(" ".join(read["texts"]), kept)
    if language != "en":
        problems += [f"English: {found}" for found in english]
    elif not english:
        problems.append("no English word read on a page in English: the reading is broken")
    if read["lang"] != language:
        problems.append(f"<html lang> is {read['lang']!r}, not {language!r}")
    raw = {text: where for where, text in reversed(read["notation"]) if is_raw_notation(text) or card_codes(text)}
    problems += [f"raw notation in {where}: «{text}»" for text, where in raw.items()]
    return problems


def check(page: Page, visit: Visit, world: World) -> list[str]:
    """Every check of one loaded page, on the same load."""
    load_axe(page, settle(page, visit, world.picks))
    read: dict[str, Any] = page.evaluate(READ_PAGE)
    problems = [f"axe-core: {violation}" for violation in axe_violations(page)]
    problems += findings(read, visit, world.kept)
    return [f"{visit}: {problem}" for problem in problems]


def phone(browser: Browser, base: str, language: str, cookie: str | None) -> BrowserContext:
    """A phone-sized browser asking for LANGUAGE (Accept-Language), signed in with COOKIE."""
    context = browser.new_context(viewport=PHONE, locale=language)
    if cookie:
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context


def walked(page: WorldPage) -> bool:
    """Whether the walk opens PAGE: a visitor only the pages that differ for
    them, and no 404 (daphne runs with DEBUG: Django's own page, never a user's)."""
    if page.status == 404:
        return False
    return page.user is not None or page.name in VISITOR_PAGES


def viewers(world: World) -> dict[str, list[WorldPage]]:
    """The pages the walk opens, by who opens them ("a visitor" for no one signed in)."""
    by_viewer: dict[str, list[WorldPage]] = {}
    for page in [*filter(walked, world.pages), *IN_ENGLISH.values()]:
        by_viewer.setdefault(page.user.username if page.user else "a visitor", []).append(page)
    return by_viewer


def walk(page: Page, base: str, pages: list[WorldPage], who: str, language: str, world: World) -> Iterator[str]:
    for shown in pages:
        visit = Visit(shown.name, shown.url, who, language)
        response = page.goto(base + shown.url)
        status = response.status if response else 0
        if status != shown.status:
            yield f"{visit}: answered {status}, not {shown.status}"
            continue
        yield from check(page, visit, world)


def imported(page: Page, base: str, game_id: int, language: str, world: World) -> list[str]:
    """The import page with a finished game's record pasted: the replay it draws."""
    record = page.request.get(f"{base}/games/{game_id}/record.txt").text()
    page.goto(base + "/games/import/")
    page.locator("#record").fill(record)
    with page.expect_navigation():
        page.locator("#record").evaluate("(field) => field.form.requestSubmit()")
    return check(page, Visit("imported record", "/games/import/ (posted)", "a visitor", language), world)


@pytest.fixture
def cookies(world: World) -> dict[str, str]:
    """A session for each signed-in viewer, made before Playwright's loop takes the thread."""
    return {who: session_cookie(pages[0].user) for who, pages in viewers(world).items() if pages[0].user}


def test_every_page_kind_in_every_language_at_phone_width(
        world: World, cookies: dict[str, str], daphne_server: str, chromium_browser: Browser) -> None:
    problems: list[str] = []
    for language in LANGUAGES:
        for who, pages in viewers(world).items():
            context = phone(chromium_browser, daphne_server, language, cookies.get(who))
            page = context.new_page()
            problems += walk(page, daphne_server, pages, who, language, world)
            if who == "a visitor":
                problems += imported(page, daphne_server, world.games["finished Rhombus"], language, world)
            context.close()
    assert not problems, f"{len(problems)} problem(s) found:\n" + "\n".join(problems)
