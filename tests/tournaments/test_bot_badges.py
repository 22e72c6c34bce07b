"""Bots are flagged BOT on a tournament's page wherever a name is shown: the
standings, the crosstable, a round's boards, the players, the places, the
bracket and the organizer's lists; who is a bot is one query, whatever the field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments import advancing, entering
from tournaments.models import Entry, Tournament
from tests.badges import ACCOUNT_TITLE, COMPUTER_TITLE, api_bot, badge_titles, computer_player, shown
from tests.badges import bot_cache_forgotten  # noqa: F401 (autouse: the bots' ids are forgotten after each test)
from tests.tournaments.conftest import play_round

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


def entrants(t: Tournament, players: Any, people: int, computers: int = 1, accounts: int = 1) -> None:
    """People p01..., computer players cpu1... and BOT accounts api1... enter
    ``t`` (the bots' names numbered on from those made already)."""
    made = Entry.objects.filter(user__player__is_bot=True).values("user").distinct().count()
    users = players(people) + [computer_player(f"cpu{made + i + 1}") for i in range(computers)] \
        + [api_bot(f"api{made + i + 1}") for i in range(accounts)]
    for user in users:
        entering.join(t.pk, user)


def started_round_robin(tournament: Make, players: Any, people: int, computers: int = 1,
                        accounts: int = 1) -> Tournament:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now(), bots_allowed=True)
    entrants(t, players, people, computers, accounts)
    advancing.advance(t.pk)
    play_round(Tournament.objects.get(pk=t.pk), lambda p: "black")
    return t


def test_the_standings_crosstable_and_boards_flag_each_bot(tournament: Make, players: Any) -> None:
    t = started_round_robin(tournament, players, 2)
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    # The standings, the crosstable and round 1's boards name each player once.
    assert badge_titles(page, "cpu1") == [COMPUTER_TITLE] * 3
    assert badge_titles(page, "api1") == [ACCOUNT_TITLE] * 3
    assert shown(page, "p01") == 3 and badge_titles(page, "p01") == []


def test_the_live_part_fetched_again_flags_them_too(tournament: Make, players: Any) -> None:
    t = started_round_robin(tournament, players, 2)
    live = Client().get(f"/tournaments/{t.pk}/live/").content.decode()
    assert badge_titles(live, "cpu1") == [COMPUTER_TITLE] * 3 and badge_titles(live, "api1") == [ACCOUNT_TITLE] * 3
    assert badge_titles(live, "p02") == []


def test_the_players_list_of_an_upcoming_tournament_flags_each_bot(tournament: Make, players: Any) -> None:
    t = tournament(bots_allowed=True)
    entrants(t, players, 1)
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert badge_titles(page, "cpu1") == [COMPUTER_TITLE] and badge_titles(page, "api1") == [ACCOUNT_TITLE]
    assert shown(page, "p01") == 1 and badge_titles(page, "p01") == []


def test_the_organizers_seeding_and_forbidden_lists_flag_each_bot(tournament: Make, players: Any,
                                                                  organizer: Any) -> None:
    t = tournament(format=Tournament.Format.SWISS, rounds=3, seeding=Tournament.Seeding.MANUAL, bots_allowed=True)
    entrants(t, players, 2)
    cpu, person = (Entry.objects.get(user__username=name).pk for name in ("cpu1", "p01"))
    client = Client()
    client.force_login(organizer)
    client.post(f"/tournaments/{t.pk}/forbid/", {"first": cpu, "second": person})
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    # The players' list, the seeding form and the forbidden pairing ("cpu1 – p01").
    assert badge_titles(page, "cpu1") == [COMPUTER_TITLE] * 3
    assert badge_titles(page, "api1") == [ACCOUNT_TITLE] * 2
    assert badge_titles(page, "p01") == []
    assert f'<option value="{cpu}">cpu1 (BOT)</option>' in page and f'<option value="{person}">p01</option>' in page


def test_an_elimination_flags_bots_in_its_bracket_and_places(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.SINGLE, starts_at=timezone.now(), bots_allowed=True)
    entrants(t, players, 2)
    advancing.advance(t.pk)
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert ">BOT cpu1<" in svg and ">BOT api1<" in svg and ">p01<" in svg and "BOT p01" not in svg
    # The players' list and the round's boards.
    assert badge_titles(page, "cpu1") == [COMPUTER_TITLE] * 2 and badge_titles(page, "p02") == []


def test_an_eliminations_places_flag_each_bot(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.SINGLE, starts_at=timezone.now(), bots_allowed=True)
    entrants(t, players, 0)
    advancing.advance(t.pk)
    play_round(Tournament.objects.get(pk=t.pk), lambda p: "red")
    advancing.advance(t.pk)
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    places = page[page.index('<ol class="tournament__places">'):]
    places = places[:places.index("</ol>")]
    assert badge_titles(places, "cpu1") == [COMPUTER_TITLE] and badge_titles(places, "api1") == [ACCOUNT_TITLE]


def test_the_standings_cost_the_same_queries_for_one_bot_or_eight(tournament: Make, players: Any) -> None:
    counts = []
    for computers, accounts in ((1, 0), (4, 4)):
        t = started_round_robin(tournament, players, 4, computers, accounts)
        with CaptureQueriesContext(connection) as queries:
            page = Client().get(f"/tournaments/{t.pk}/").content.decode()
        assert page.count('class="badge badge--bot"') == 3 * (computers + accounts)
        counts.append(len(queries))
    assert counts[0] == counts[1]
