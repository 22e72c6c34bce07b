"""The navigation's "Your turn" badge and menu hold the true list on every page
a signed-in player reaches (issue 35, finding 2): a page's own context never
replaces them. An Ace in the Hole replay's move list, once named ``turns`` like
the navigation's list, showed its number of moves as the badge.

The pages are those of the language walk (tests/site/test_no_english_prose.py),
plus replays with moves, the notifications, the live list and TV.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import finishing, starting
from games.models import Game
from games.turns import turns_json
from tests.site.test_accessibility_browser import play_first_legal
from tests.site.test_no_english_prose import Page, World, world  # noqa: F401 (the fixture)
from tests.tournaments.conftest import organizer, players, tournament  # noqa: F401 (world's fixtures)

pytestmark = pytest.mark.django_db

COUNT = re.compile(r"<span class=\"menu__count\" data-turns-count[^>]*>(\d+)</span>")
LIST = re.compile(r"<ul class=\"menu__list\" data-turns-list>(.*?)</ul>", re.S)
LINK = re.compile(r"<a href=\"(/games/\d+/)\">")


def badge(html: str) -> tuple[int, list[str]]:
    """The badge's count and the links of the menu under it."""
    count, menu = COUNT.search(html), LIST.search(html)
    assert count is not None and menu is not None, "no Your turn menu on the page"
    return int(count.group(1)), LINK.findall(menu.group(1))


def replays_with_moves(alice: Any, bob: Any) -> list[Page]:
    """Finished replays of both games with several moves each, so that a
    replay's own move list would show as a number other than the true one."""
    pages = []
    for setup, seed in ((starting.Setup(), "badge-ace"), (starting.Setup("rhombus"), "badge-rh")):
        game = starting.start_game(bob, alice, setup=setup, seed=seed)
        play_first_legal(game, 7)
        finishing.resign(game.pk, bob)
        pages.append(Page(f"{setup.kind} replay with moves", f"/games/{game.pk}/replay/", alice))
        pages.append(Page(f"finished {setup.kind} game", f"/games/{game.pk}/", alice))
    return pages


def test_the_turns_badge_holds_the_true_count_on_every_page(world: World, alice: Any, bob: Any) -> None:  # noqa: F811
    pages = [page for page in world.pages if page.user is not None and page.status == 200]
    pages += replays_with_moves(alice, bob)
    pages += [Page(name, url, alice) for name, url in [
        ("notifications", "/notifications/"), ("live games", "/games/live/"), ("TV", "/tv/")]]
    wrong = []
    for page in pages:
        client = Client()
        client.force_login(page.user)
        response = client.get(page.url)
        assert response.status_code == 200, f"{page.name} ({page.url}) answered {response.status_code}"
        turns = turns_json(page.user.pk)
        shown = badge(response.content.decode())
        if shown != (len(turns), [turn["url"] for turn in turns]):
            wrong.append(f"{page.name} ({page.url}, as {page.user.username}): {shown}, "
                         f"not {len(turns)} {[turn['url'] for turn in turns]}")
    assert Game.objects.filter(status=Game.Status.RUNNING).exists() and turns_json(alice.pk), \
        "alice has a game waiting for her move, so that an empty badge is wrong too"
    assert not wrong, "The Your turn badge is wrong on:\n" + "\n".join(wrong)
