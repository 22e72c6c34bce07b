"""axe-core in a Playwright page: WCAG 2.0 and 2.1, levels A and AA.

axe-core is kept beside this file (tests/site/axe-core/: axe.min.js 4.14.1
from the npm registry, with its MPL-2.0 licence) so that the tests run
offline. Used by test_accessibility_browser.py (desktop) and
test_language_walk_browser.py (phone, in every language).
"""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).with_name("axe-core") / "axe.min.js"
WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SETTLE_SECONDS = 0.3  # for a socket's second message (presence, lobby lists)

# Every violation as "rule (impact): how many nodes, the first targets".
# First a turn of the event loop: socket messages that came while axe.min.js
# was being loaded are handled (drawn) before axe looks.
RUN_AXE = """async (tags) => {
  await new Promise((resolve) => setTimeout(resolve, 0));
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} node(s), e.g. ` +
    v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
}"""


def load_axe(page: Page, settling_from: float) -> None:
    """Load axe.min.js into PAGE, then wait until SETTLE_SECONDS have passed
    since SETTLING_FROM (time.monotonic()). Loading it (650 kB: 0.15-0.4 s a
    page) is done within those seconds rather than after them."""
    page.add_script_tag(path=str(AXE))
    page.wait_for_timeout(max(0.0, SETTLE_SECONDS - (time.monotonic() - settling_from)) * 1000)


def axe_violations(page: Page) -> list[str]:
    """axe-core's findings on PAGE as it is now (load_axe first)."""
    found: list[str] = page.evaluate(RUN_AXE, WCAG_A_AA)
    return found


def my_turn(page: Page) -> bool:
    """Whether the viewer of a live game page is to move, read from the page's
    data attributes (game-shared.js), whatever language its status speaks."""
    game = page.locator("#game")
    seat = game.get_attribute("data-seat")
    return bool(seat) and game.get_attribute("data-status") == "running" and game.get_attribute("data-to-move") == seat
