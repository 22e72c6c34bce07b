"""The /ladder/ page: ranks (ties, pages, filters, search), the viewer's row, bots, query counts."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ladder import leaderboard
from tests.ladder.conftest import set_player

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr class="ladder__row( ladder__row--me)?" data-rank="(\d+)" data-player="([^"]+)"')


def seat(name: str, rating: int, games: int = 40, days_ago: float = 1, **fields: Any) -> Any:
    user = get_user_model().objects.create_user(name, f"{name}@example.org", "password")
    set_player(user, rating, games, last_active=timezone.now() - timedelta(days=days_ago), **fields)
    return user


def rows(client: Client, query: str = "") -> list[tuple[int, str, bool]]:
    """(rank, name, highlighted) for each row shown."""
    response = client.get(f"/ladder/?{query}")
    assert response.status_code == 200
    return [(int(rank), name, bool(me)) for me, rank, name in ROW.findall(response.content.decode())]


@pytest.fixture
def ladder() -> None:
    """Six players; bea and ben tie; old hasn't played for 40 days; robo is a bot."""
    seat("ann", 1700)
    seat("bea", 1600)  # before ben: ties are listed in the order players joined
    seat("ben", 1600)
    seat("old", 1650, days_ago=40)
    seat("robo", 1800, is_bot=True, bot_level="greedy")
    seat("cid", 1500, games=3)


def test_ranks_share_ties_and_skip_after_them(client: Client, ladder: None) -> None:
    assert rows(client) == [(1, "robo", False), (2, "ann", False), (3, "bea", False), (3, "ben", False),
                            (5, "cid", False)]


def test_ranks_carry_on_across_pages_even_through_a_tie(client: Client, ladder: None,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leaderboard, "PAGE_SIZE", 3)
    assert [r[:2] for r in rows(client, "page=2")] == [(3, "ben"), (5, "cid")]
    monkeypatch.setattr(leaderboard, "PAGE_SIZE", 2)
    assert [r[:2] for r in rows(client, "page=2")] == [(3, "bea"), (3, "ben")]
    assert [r[:2] for r in rows(client, "page=last")] == [(5, "cid")]
    assert [r[:2] for r in rows(client, "page=99")] == [(5, "cid")]  # past the end: the last page


def test_inactive_players_are_left_out_by_default_and_ranks_follow_the_filter(client: Client, ladder: None) -> None:
    assert "old" not in [r[1] for r in rows(client)]
    assert [r[:2] for r in rows(client, "show=all")] == [(1, "robo"), (2, "ann"), (3, "old"), (4, "bea"),
                                                        (4, "ben"), (6, "cid")]


def test_bots_are_marked_and_can_be_hidden(client: Client, ladder: None) -> None:
    page = client.get("/ladder/").content.decode()
    assert re.search(r'data-player="robo".*?<span class="badge badge--bot"[^>]*>BOT</span>', page, re.S)
    assert [r[:2] for r in rows(client, "bots=hide")] == [(1, "ann"), (2, "bea"), (2, "ben"), (4, "cid")]


def test_a_search_shows_each_players_true_rank(client: Client, ladder: None) -> None:
    assert [r[:2] for r in rows(client, "q=BE")] == [(3, "bea"), (3, "ben")]
    assert [r[:2] for r in rows(client, "q=c")] == [(5, "cid")]
    assert rows(client, "q=en") == []  # a prefix search: "ben" does not start with "en"
    assert [r[:2] for r in rows(client, "q=ol&show=all")] == [(3, "old")]
    page = client.get("/ladder/?q=zzz").content.decode()
    assert "No player named like “zzz”" in page and not ROW.search(page)


def test_the_viewers_own_row_is_highlighted_with_a_way_to_find_it(
        client: Client, ladder: None, monkeypatch: pytest.MonkeyPatch) -> None:
    client.force_login(get_user_model().objects.get(username="ben"))
    assert [r for r in rows(client) if r[2]] == [(3, "ben", True)]
    monkeypatch.setattr(leaderboard, "PAGE_SIZE", 2)
    page = client.get("/ladder/").content.decode()
    assert 'href="?page=2#me"' in page and "(page 2)" in page
    assert "Find me" not in client.get("/ladder/?show=active&bots=hide&q=ann").content.decode()


def test_each_row_shows_rating_record_streak_and_last_active(client: Client) -> None:
    seat("cid", 1512, games=3, wins=2, draws=0, losses=1, streak=-1)
    page = client.get("/ladder/").content.decode()
    row = page[page.index('data-player="cid"'):page.index("</tr>", page.index('data-player="cid"'))]
    assert 'href="/@/cid/"' in row and "1512?" in row  # provisional under 30 games
    assert "2 / 0 / 1" in row and "L1" in row and "ago</time>" in row


def test_the_nav_links_to_the_ladder(client: Client) -> None:
    assert 'href="/ladder/"' in client.get("/ladder/").content.decode()


def test_the_query_count_is_the_same_on_every_page(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(12):
        seat(f"p{i:02d}", 1400 + 10 * (i % 5))
    client.force_login(get_user_model().objects.get(username="p03"))
    monkeypatch.setattr(leaderboard, "PAGE_SIZE", 4)
    counts = {}
    for query in ("", "page=2", "page=3", "show=all&page=2", "bots=hide&page=3"):
        with CaptureQueriesContext(connection) as captured:
            assert len(rows(client, query)) == 4
        counts[query] = len(captured)
    assert len(set(counts.values())) == 1, counts
    with CaptureQueriesContext(connection) as one:
        rows(client, "q=p0")
    with CaptureQueriesContext(connection) as other:
        rows(client, "q=p1&page=1")
    assert len(one) == len(other)


def test_players_without_a_rated_game_are_not_on_the_ladder(client: Client, ladder: None, charlie: Any) -> None:
    set_player(charlie, 1500, 0)  # a row made on first need, e.g. by visiting a profile
    assert "charlie" not in [r[1] for r in rows(client, "show=all")]
    assert re.search(r"data-rank>–</dd>", client.get("/@/charlie/").content.decode())


def test_a_search_finds_a_renamed_player_by_the_new_name_only(client: Client, ladder: None) -> None:
    get_user_model().objects.filter(username="bea").update(username="zoe")  # an admin's rename, in SQL
    assert [r[:2] for r in rows(client, "q=zo")] == [(3, "zoe")]
    assert rows(client, "q=bea") == []
    seat("bex", 1550)  # a newcomer is found at once, ranked below the tie
    assert [r[:2] for r in rows(client, "q=BE")] == [(3, "ben"), (5, "bex")]


def test_a_deep_page_starts_inside_a_tie_and_every_page_has_its_players_once(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(11):  # 1700, 1600 x4, 1500 x4, 1400 x2: pages of 3 start inside ties
        seat(f"p{i:02d}", 1700 - 100 * ((i + 3) // 4))
    monkeypatch.setattr(leaderboard, "PAGE_SIZE", 3)
    pages = [rows(client, f"page={n}") for n in range(1, 5)]
    assert [[r[:2] for r in page] for page in pages] == [
        [(1, "p00"), (2, "p01"), (2, "p02")], [(2, "p03"), (2, "p04"), (6, "p05")],
        [(6, "p06"), (6, "p07"), (6, "p08")], [(10, "p09"), (10, "p10")]]
    client.force_login(get_user_model().objects.get(username="p07"))
    assert 'href="?page=3#me"' in client.get("/ladder/").content.decode()
