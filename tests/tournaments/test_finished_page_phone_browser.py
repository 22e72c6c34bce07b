"""A finished tournament's page on a phone (390 px), in Chromium against daphne
(issue 35, findings 5 and 7), for every format: Swiss, round robin, single and
double elimination.

- axe-core (WCAG 2.0 and 2.1, A and AA; the helpers of
  tests/site/test_accessibility_browser.py) finds nothing, as a visitor and as
  one of the players: a table that scrolls sideways is a region a keyboard can
  reach and a screen reader can name.
- The standings, crosstable and boards keep every name on one line: the tables
  scroll sideways, so a name is never broken mid-word ("ivan_r|u").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser

from ladder.models import Player as LadderPlayer
from tournaments.models import Tournament
from tests.games.conftest import services, session_cookie  # noqa: F401 (shared)
from tests.site.test_accessibility_browser import violations
from tests.site.test_phone_width_browser import PHONE
from tests.tournaments.finished import FORMATS, finished

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

# Names as players choose them: with the marks a browser may break at ("-", "+"),
# and long enough to be squeezed in a phone's standings.
EVERY_TIEBREAK = "BH-C1,BH,SB,DE,WON,WIN,ARO,TPR"
NAMES = ["ivan_ru", "bot-greedy+2", "magdalena_the_patient_99", "kowalski", "jo", "anna-lena"]


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


@pytest.fixture
def site(django_user_model: Any, tournament: Callable[..., Tournament]) -> dict[str, Any]:
    """Each format's tournament, finished; the first name's session. Made before
    Playwright's loop takes the thread."""
    entrants = []
    for index, name in enumerate(NAMES):
        user = django_user_model.objects.create_user(name, f"{index}@example.org")
        LadderPlayer.objects.create(user=user, rating=1900 - 10 * index, rated_games=20)
        entrants.append(user)
    # Every tiebreak a column: the standings as wide as an organizer can make them.
    made = {str(format): finished(tournament, entrants, format, rounds=3, tiebreaks=EVERY_TIEBREAK)
            for format in FORMATS}
    pages = {format: f"/tournaments/{t.pk}/" for format, t in made.items()}
    return {"pages": pages, "cookie": session_cookie(entrants[0])}


def test_axe_core_finds_nothing_on_finished_tournaments_at_phone_width(
        site: dict[str, Any], daphne_server: str, chromium_browser: Browser) -> None:
    problems: list[str] = []
    for who, cookie in (("visitor", None), ("player", site["cookie"])):
        context = chromium_browser.new_context(viewport=PHONE)
        if cookie:
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": daphne_server}])
        page = context.new_page()
        for format, path in site["pages"].items():
            page.goto(daphne_server + path)
            problems += [f"{format}, {who}, {problem}" for problem in violations(page, path)]
        context.close()
    assert not problems, "axe-core found:\n" + "\n".join(problems)


# Each name in a table, with the number of lines its text takes (an inline
# element broken over lines has one client rectangle per line).
NAME_LINES = """() => [...document.querySelectorAll(
    ".standings tbody td:nth-child(2) a, .crosstable tbody td:nth-child(2), .pairings tbody td")]
  .filter((cell) => /[a-z]/.test(cell.textContent))
  .map((cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell.firstChild.nodeType === Node.TEXT_NODE ? cell : cell.firstChild);
    const tops = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
    return [cell.textContent.trim(), tops.size];
  })"""


def test_names_in_the_tables_stay_whole_at_phone_width(
        site: dict[str, Any], daphne_server: str, chromium_browser: Browser) -> None:
    page = chromium_browser.new_page(viewport=PHONE)
    broken, seen = [], set()
    for format, path in site["pages"].items():
        page.goto(daphne_server + path)
        for name, lines in page.evaluate(NAME_LINES):
            seen.add(name)
            if lines != 1:
                broken.append(f"{format}: {name!r} on {lines} lines")
    assert {"ivan_ru", "bot-greedy+2", "magdalena_the_patient_99"} <= seen, seen
    assert not broken, "Names broken across lines at 390 px:\n" + "\n".join(broken)
