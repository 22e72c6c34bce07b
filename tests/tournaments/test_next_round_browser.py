"""In Chromium, on real daphne (issue 22, finding 17): the page of a finished
tournament game says when the next round starts, as lichess's does: first that
the round's other games are still on, then "Next round in m:ss", with a link
back to the tournament."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games import finishing
from games.models import Game
from tournaments import entering, organizing
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def swiss_in_round_one(tournament: Callable[..., Tournament], users: list[Any]) -> list[int]:
    t = tournament(rounds=3, pause_seconds=300)
    for user in users:
        entering.join(t.pk, user)
    organizing.start_early(t.pk, t.organizer)
    return list(Pairing.objects.filter(round__tournament=t).order_by("board").values_list("game_id", flat=True))


def resign(game_id: int) -> None:
    finishing.resign(game_id, Game.objects.get(pk=game_id).table[1].user)


def test_a_finished_games_page_counts_down_to_the_next_round(
        tournament: Callable[..., Tournament], players: Callable[[int], list[Any]], daphne_server: str,
        chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    first, second = orm(swiss_in_round_one, tournament, orm(players, 4))
    orm(resign, first)
    page = chromium_browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{daphne_server}/games/{first}/")
    note = page.locator("#game-next-round")
    expect(note).to_contain_text("Next round when this round's other games end")
    expect(note.get_by_role("link", name="Back to the tournament")).to_have_attribute(
        "href", re.compile(r"^/tournaments/\d+/$"))
    orm(resign, second)  # the round is over: the pause of 5 minutes begins
    expect(note).to_contain_text(re.compile(r"Next round in [45]:\d\d"), timeout=15_000)
