"""The lobby flags bots BOT: its seek list and challenge list (page and
payload, ``bots``: {name: {level, title}}), with one query for all of a list's
bots. A BOT account plays challenges (and may be named a seek's partner); a
computer player is refused both, so its seek here is a row written directly,
as an older seek of a since-converted account could be."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ladder import challenges, seeks
from ladder.models import Seek
from tests.badges import ACCOUNT_TITLE, COMPUTER_TITLE, api_bot, badge_titles, computer_player, shown
from tests.badges import bot_cache_forgotten  # noqa: F401 (autouse: the bots' ids are forgotten after each test)

pytestmark = pytest.mark.django_db


def lobby_page(user: Any) -> str:
    """The page's own content: the navigation bar's bell names challengers too (issue 26)."""
    client = Client()
    client.force_login(user)
    return client.get("/lobby/").content.decode().split("<main", 1)[1]


def test_a_challenge_from_a_bot_account_is_flagged_both_ways(alice: Any, bob: Any) -> None:
    bot = api_bot("api1")
    challenges.create_challenge(bot, "alice", "5+3")
    challenges.create_challenge(alice, "api1", "10+5")
    challenges.create_challenge(bob, "alice", "5+3")
    page = lobby_page(alice)
    assert badge_titles(page, "api1") == [ACCOUNT_TITLE] * 2  # incoming and outgoing
    assert shown(page, "bob") == 1 and badge_titles(page, "bob") == []
    [incoming] = [c for c in challenges.pending_challenges(alice) if c["challenger"] == "api1"]
    assert incoming["bots"] == {"api1": {"level": "", "title": ACCOUNT_TITLE}}
    assert [c["bots"] for c in challenges.pending_challenges(alice) if c["challenger"] == "bob"] == [{}]


def test_a_four_player_challenge_flags_the_bot_account_among_the_opponents(
        alice: Any, bob: Any, charlie: Any) -> None:
    api_bot("api1")
    challenge = challenges.create_team_challenge(alice, "bob", ["charlie", "api1"], "5+3", rules="rhombus")
    json = challenges.challenge_for(challenge.pk, alice)
    assert json is not None and json["bots"] == {"api1": {"level": "", "title": ACCOUNT_TITLE}}
    page = lobby_page(alice)
    # "You challenged bob, charlie, api1" and the teams "(alice and bob v charlie and api1 ...)".
    assert badge_titles(page, "api1") == [ACCOUNT_TITLE] * 2 and badge_titles(page, "charlie") == []


def test_a_seek_flags_a_computer_creator_and_a_bot_account_partner(alice: Any, bob: Any) -> None:
    computer = computer_player("cpu1")
    Seek.objects.create(creator=computer, time_control="5+3")
    api_bot("api1")
    seeks.create_seek(alice, "5+3", rules="rhombus", players=4, partner="api1")
    seeks.create_seek(bob, "10+5")
    shown = {seek["creator"]: seek for seek in seeks.open_seeks(alice)}
    assert shown["cpu1"]["bots"] == {"cpu1": {"level": "greedy", "title": COMPUTER_TITLE}}
    assert shown["alice"]["bots"] == {"api1": {"level": "", "title": ACCOUNT_TITLE}}
    assert shown["bob"]["bots"] == {}
    page = lobby_page(bob)
    assert badge_titles(page, "cpu1") == [COMPUTER_TITLE]
    assert f'(a seat is held for api1 <span class="badge badge--bot" title="{ACCOUNT_TITLE}">BOT</span>)' in page
    assert badge_titles(page, "bob") == [] and badge_titles(page, "alice") == []


def test_the_lists_cost_the_same_queries_for_one_bot_or_six(alice: Any, django_user_model: Any) -> None:
    """More bots means more seeks and challenges too: a query per row or per bot would show."""
    counts = []
    for first, last in ((1, 1), (2, 6)):
        for i in range(first, last + 1):
            Seek.objects.create(creator=computer_player(f"cpu{i}"), time_control="5+3")
            challenges.create_challenge(api_bot(f"api{i}"), "alice", "5+3")
        with CaptureQueriesContext(connection) as queries:
            open_seeks, pending = seeks.open_seeks(alice), challenges.pending_challenges(alice)
        assert sum(len(s["bots"]) for s in open_seeks) == sum(len(c["bots"]) for c in pending) == last
        counts.append(len(queries))
    assert counts[0] == counts[1]
