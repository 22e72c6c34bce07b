"""A player's profile: rating and rank, the rating-history chart (SVG), the record
against each opponent, recent games with their replays."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import finishing, starting
from ladder.models import RatingChange

pytestmark = pytest.mark.django_db

SEED = "tests-game-seed"


def chart_values(page: str) -> list[int]:
    svg = re.search(r"<svg[^>]*pygal-chart.*?</svg>", page, re.S)
    assert svg, "no chart on the page"
    return [int(v) for v in re.findall(r'<desc class="value">(\d+)</desc>', svg.group(0))]


@pytest.fixture
def history(alice: Any, bob: Any, charlie: Any) -> None:
    """Alice loses to Bob, then beats him (rated); then a casual loss to Charlie."""
    first = starting.start_game(alice, bob, seed=SEED)
    finishing.resign(first.pk, alice)  # 1500 v 1500, K 40: Alice 1480, Bob 1520
    second = starting.start_game(bob, alice, seed=SEED)
    finishing.resign(second.pk, bob)  # 1480 beats 1520: E 0.442688, +22: Alice 1502, Bob 1498
    casual = starting.start_game(charlie, alice, seed=SEED, rated=False)
    finishing.resign(casual.pk, alice)


def test_the_chart_draws_each_rated_game_from_the_first_rating(client: Client, history: None) -> None:
    page = client.get("/@/alice/").content.decode()
    assert chart_values(page) == [1500, 1480, 1502]
    assert chart_values(client.get("/@/bob/").content.decode()) == [1500, 1520, 1498]
    assert "kozea.github.io" not in page and 'src="http' not in page  # no CDN: the SVG is all there is


def test_rating_and_rank_are_shown_provisional(client: Client, history: None) -> None:
    page = client.get("/@/alice/").content.decode()
    assert re.search(r"data-rating[^>]*>1502\?</dd>", page)
    assert re.search(r"data-rank>#1</dd>", page)
    assert re.search(r"data-rank>#2</dd>", client.get("/@/bob/").content.decode())


def test_the_record_against_each_opponent_counts_every_finished_game(client: Client, history: None) -> None:
    page = client.get("/@/alice/").content.decode()
    against = dict(re.findall(r'<tr data-opponent="(\w+)">(.*?)</tr>', page, re.S))
    cells = {name: re.findall(r'<td class="num">(\d+)</td>', row) for name, row in against.items()}
    assert cells == {"bob": ["2", "1", "0", "1"], "charlie": ["1", "0", "0", "1"]}


def test_recent_games_link_to_their_replays(client: Client, history: None) -> None:
    page = client.get("/@/alice/").content.decode()
    replays = re.findall(r'href="/games/(\d+)/replay/"', page)
    assert len(replays) == 3


def test_an_undone_game_leaves_the_chart(client: Client, history: None) -> None:
    from ladder import ratings

    first = RatingChange.objects.filter(user__username="alice").order_by("pk").first()
    ratings.undo_game(first.game_id)
    # Without the first game: Alice started the second at 1480 and gained 22.
    assert chart_values(client.get("/@/alice/").content.decode()) == [1480, 1502]


def test_a_newcomer_has_no_chart_yet(client: Client, charlie: Any) -> None:
    page = client.get("/@/charlie/").content.decode()
    assert "No rated games yet" in page and "pygal-chart" not in page
    assert re.search(r"data-rating[^>]*>1500\?</dd>", page)


def test_the_game_page_shows_both_players_ratings(client: Client, alice: Any, bob: Any) -> None:
    from tests.ladder.conftest import set_player

    set_player(alice, 1640, 45)
    game = starting.start_game(alice, bob, seed=SEED)
    page = client.get(f"/games/{game.pk}/").content.decode()
    bar = r'class="player__name"[^>]*>(\w+)</a>\s*<span class="player__rating" data-rating>([^<]*)</span>'
    shown = re.findall(bar, page)
    assert sorted(shown) == [("alice", "1640"), ("bob", "1500?")]
