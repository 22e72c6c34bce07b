"""Every page a user reaches fits a phone 390 px wide, in real Chromium against daphne.

Nothing may stick out sideways: not the page (no sideways scroll), and not an
element inside a box that scrolls on its own (the lobby's Accept button once sat
off-screen in a table 492 px wide). The pages are filled as a user finds them:
open seeks and challenges both ways, live and finished games, a game against
the computer, long usernames. Screenshots go to artifacts/phone/.

On the way, each page's rendered text (innerText, which applies CSS
text-transform) must show the long username only as written, never capitalised.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, BrowserContext, Page

from games import botmoves, finishing, moving, payloads, starting
from games.models import Game
from games.timecontrols import TimeControl
from ladder import bot_accounts, challenges, seeks
from tests.games.conftest import fast_password_hashing, services, session_cookie  # noqa: F401 (shared)
from tests.helpers import ARTIFACTS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

PHONE = {"width": 390, "height": 844}
# A long name without spaces: the kind that pushes a row wider than a phone.
LONG_NAME = "magdalena_the_patient_99"

# Every element whose box leaves the viewport sideways, described for the failure message.
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (getComputedStyle(el).visibility === "hidden") continue;
    if (box.left < -0.5 || box.right > width + 0.5) {
      const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
        (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "");
      out.push(`${name} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  return out;
}"""


def first_legal(game_id: int, user: Any) -> str:
    game = Game.objects.get(pk=game_id)
    return str(payloads.view_for(game, user)["legal"][0])


def play_plies(game: Game, plies: int) -> None:
    for _ in range(plies):
        game.refresh_from_db()
        mover = game.seat("red").user if game.to_move == "red" else game.seat("black").user
        moving.submit(game.pk, mover, game.ply, first_legal(game.pk, mover))


@pytest.fixture
def site(alice: Any, bob: Any, charlie: Any, django_user_model: Any) -> dict[str, Any]:
    """The pages' contents, made before Playwright's loop takes the thread."""
    magdalena = django_user_model.objects.create_user(LONG_NAME, "m@example.org", "password")
    seeks.create_seek(magdalena, "10+5", rated=True, colour="black")
    seeks.create_seek(alice, "5+3", rated=False, colour="random")
    challenges.create_challenge(magdalena, "alice", "1d", rated=True, colour="red")
    challenges.create_challenge(alice, "charlie", "10+5", rated=False, colour="random")
    live = starting.start_game(alice, magdalena, seed="phone-live")
    play_plies(live, 6)
    finished = starting.start_game(magdalena, alice, seed="phone-finished")
    play_plies(finished, 30)
    finishing.resign(finished.pk, alice)
    bot_accounts.ensure_bot_accounts()
    computer = botmoves.play_computer(alice, "random", TimeControl.parse("10+5"), colour="red")
    return {"alice": session_cookie(alice), "magdalena": session_cookie(magdalena),
            "live": live.pk, "finished": finished.pk, "computer": computer.pk}


def phone(browser: Browser, base: str, cookie: str | None) -> BrowserContext:
    context = browser.new_context(viewport=PHONE)
    if cookie:
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context


def settled(page: Page, path: str) -> None:
    """Wait until the page has drawn what its socket sends, if it has one."""
    if page.locator("#game").count():
        page.locator('#game[data-state="live"]').wait_for()
    page.wait_for_timeout(300)  # a socket's second message (presence, challenges)


def too_wide(page: Page, path: str, shot: str) -> list[str]:
    settled(page, path)
    (ARTIFACTS / "phone").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "phone" / f"{shot}.png"), full_page=True)
    problems: list[str] = page.evaluate(STICKING_OUT)
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    if scroll_width > PHONE["width"]:
        problems.insert(0, f"page scrolls sideways: scrollWidth {scroll_width}")
    if LONG_NAME.capitalize() in page.evaluate("document.body.innerText"):
        problems.append(f"shows {LONG_NAME.capitalize()!r} for {LONG_NAME!r}")
    return [f"{path}: {problem}" for problem in problems]


def visit_all(context: BrowserContext, base: str, paths: list[str], label: str) -> Iterator[str]:
    page = context.new_page()
    for path in paths:
        page.goto(base + path)
        shot = label + (path.strip("/").replace("/", "-").replace("?", "-").replace("@", "at") or "home")
        yield from too_wide(page, path, shot)
    page.close()


def imported(context: BrowserContext, base: str, finished: int) -> Iterator[str]:
    """The import page with a record pasted: the replay it shows, and the error for a bad one."""
    page = context.new_page()
    record = page.request.get(f"{base}/games/{finished}/record.txt").text()
    for text, shot in ((record, "import-replayed"), ("not a record", "import-error")):
        page.goto(base + "/games/import/")
        page.locator("#record").fill(text)
        page.get_by_role("button", name="Replay").click()
        page.wait_for_load_state()
        yield from too_wide(page, "/games/import/ (posted)", shot)
    page.close()


def test_every_page_fits_a_phone_390_px_wide(site: dict[str, Any], daphne_server: str,
                                             chromium_browser: Browser) -> None:
    live, finished, computer = site["live"], site["finished"], site["computer"]
    common = ["/", "/lobby/", "/ladder/", "/ladder/?q=ali", "/@/alice/", f"/@/{LONG_NAME}/",
              f"/games/{live}/", f"/games/{finished}/", f"/games/{live}/replay/",
              f"/games/{finished}/replay/", f"/games/{computer}/", "/games/import/"]
    visitor = ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
    member = ["/accounts/password/change/", "/accounts/email/", "/accounts/logout/"]
    problems: list[str] = []
    for who, cookie, paths in (("visitor-", None, common + visitor),
                               ("alice-", site["alice"], common + member),
                               ("magdalena-", site["magdalena"], ["/lobby/", f"/games/{live}/",
                                                                   f"/games/{finished}/"])):
        context = phone(chromium_browser, daphne_server, cookie)
        problems += visit_all(context, daphne_server, paths, who)
        if cookie is None:
            problems += imported(context, daphne_server, finished)
        context.close()
    assert not problems, "too wide for a phone:\n" + "\n".join(problems)
