"""Quick pairing with 4 players (issue 13, Rhombus teams, RH31): four waits of
the same rules and control whose windows on the team ladder all overlap make a
table, seated as balanced teams; 2- and 4-player waits never mix. On the
database, no services needed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Game, Seat
from ladder import matchmaking
from ladder.matchmaking import Candidate, pairings
from ladder.models import PoolEntry, Rating
from tests.helpers import require_service
from tests.matchmaking.conftest import status_of
from tests.matchmaking.test_concurrency import at_once

pytestmark = pytest.mark.django_db
Rated = Callable[[str, int], Any]
T0 = datetime(2026, 1, 1, tzinfo=timezone.get_current_timezone())


def teams_rated(user: Any, rating: int) -> Any:
    """``user`` with ``rating`` on the Rhombus teams ladder."""
    Rating.objects.update_or_create(user=user, ladder="rhombus-teams", defaults={"rating": rating})
    return user


def team_of(game: Game, user: Any) -> set[Any]:
    """USER's side: partners sit opposite (SW+NE, SE+NW, RH31)."""
    seats = {seat.name: seat.user for seat in game.table}
    return next({seats[a], seats[b]} for a, b in (("SW", "NE"), ("SE", "NW")) if user in (seats[a], seats[b]))


def candidate(entry: int, rating: int, *, players: int = 4, rules: str = "rhombus", tc: str = "5+3",
              waited: float = 0) -> Candidate:
    return Candidate(entry, entry, rating, T0 - timedelta(seconds=waited), tc, rules=rules, players=players)


# --- Joining ------------------------------------------------------------------


def test_a_four_player_wait_records_the_team_rating(rated: Rated) -> None:
    dora = teams_rated(rated("dora", 1620), 1730)
    entry = matchmaking.join(dora, "5+3", rules="rhombus", players=4)
    assert (entry.kind, entry.players, entry.rating) == ("rhombus", 4, 1730)
    shown = matchmaking.pool_json(entry)
    assert shown is not None and shown["players"] == 4


@pytest.mark.parametrize("rules, players, message", [
    ("ace-in-the-hole", 4, "Ace in the Hole is not played by 4: choose 2 players"),
    ("rhombus", 3, '"players" must be 2 or 4'),
    ("rhombus", "4", '"players" must be 2 or 4'),
    ("rhombus", True, '"players" must be 2 or 4'),
])
def test_bad_player_counts_are_refused_and_nothing_is_stored(alice: Any, rules: str, players: Any,
                                                             message: str) -> None:
    with pytest.raises(matchmaking.PoolRefusal) as refusal:
        matchmaking.join(alice, "5+3", rules=rules, players=players)
    assert str(refusal.value) == message
    assert not PoolEntry.objects.exists()


def test_switching_between_two_and_four_moves_the_wait(alice: Any) -> None:
    two = matchmaking.join(alice, "5+3", rules="rhombus")
    four = matchmaking.join(alice, "5+3", rules="rhombus", players=4)
    assert four.pk != two.pk
    assert list(PoolEntry.objects.filter(user=alice, status="waiting")) == [four]
    assert matchmaking.join(alice, "5+3", rules="rhombus", players=4).pk == four.pk


# --- Pairing: pure --------------------------------------------------------------


def test_four_close_waits_make_one_table() -> None:
    [table] = pairings([candidate(i, 1500 + 10 * i) for i in range(1, 5)], T0)
    assert [c.entry for c in table] == [1, 2, 3, 4]


def test_three_waits_make_no_table_and_five_leave_one_waiting() -> None:
    assert pairings([candidate(i, 1500) for i in range(1, 4)], T0) == []
    tables = pairings([candidate(i, 1500) for i in range(1, 6)], T0)
    assert len(tables) == 1 and len(tables[0]) == 4


def test_every_window_must_admit_every_other_rating() -> None:
    """1400 and 1540 are 140 apart: beyond the ±100 of a fresh wait, within ±150 after 10 s."""
    fresh = [candidate(1, 1400), candidate(2, 1450), candidate(3, 1500), candidate(4, 1540)]
    assert pairings(fresh, T0) == []
    waited = [candidate(c.entry, c.rating, waited=10) for c in fresh]
    assert len(pairings(waited, T0)) == 1


def test_two_and_four_player_waits_never_mix() -> None:
    pool = [candidate(1, 1500, players=2), candidate(2, 1500), candidate(3, 1500), candidate(4, 1500),
            candidate(5, 1500, players=2)]
    [pair] = pairings(pool, T0)
    assert [c.entry for c in pair] == [1, 5]


def test_other_rules_or_controls_make_other_tables() -> None:
    pool = [candidate(1, 1500), candidate(2, 1500), candidate(3, 1500, rules="rhombus-formation"),
            candidate(4, 1500, tc="3+2")]
    assert pairings(pool, T0) == []


def test_one_user_twice_is_never_one_table() -> None:
    same = Candidate(4, 1, 1500, T0, "5+3", rules="rhombus", players=4)
    assert pairings([candidate(1, 1500), candidate(2, 1500), candidate(3, 1500), same], T0) == []


# --- One matcher run ----------------------------------------------------------------


def test_the_matcher_starts_a_team_game_with_balanced_teams(rated: Rated) -> None:
    ann, ben, cal, dan = (teams_rated(rated(name, 1500), r)
                          for name, r in (("ann", 1700), ("ben", 1500), ("cal", 1600), ("dan", 1650)))
    for user in (ann, ben, cal, dan):
        matchmaking.join(user, "5+3", rules="rhombus", players=4)
    [game_id] = matchmaking.match(timezone.now() + timedelta(seconds=200))
    game = Game.objects.get(pk=game_id)
    assert (game.kind, game.players, game.rated) == ("rhombus", 4, True)
    assert team_of(game, ann) == {ann, ben}  # strongest and weakest
    assert team_of(game, cal) == {cal, dan}  # against the middle two
    assert {status_of(user) for user in (ann, ben, cal, dan)} == {"paired"}
    assert set(PoolEntry.objects.values_list("game", flat=True)) == {game_id}


def test_two_player_waits_are_left_waiting_beside_a_team_table(rated: Rated) -> None:
    four = [rated(f"t{i}", 1500) for i in range(4)]
    solo = rated("solo", 1500)
    for user in four:
        matchmaking.join(user, "5+3", rules="rhombus", players=4)
    matchmaking.join(solo, "5+3", rules="rhombus")
    [game_id] = matchmaking.match()
    assert Game.objects.get(pk=game_id).players == 4
    assert status_of(solo) == "waiting"
    assert matchmaking.match() == []  # a paired entry is never taken again


def test_a_table_whose_player_sat_down_elsewhere_does_not_start(rated: Rated, django_user_model: Any) -> None:
    four = [rated(f"t{i}", 1500) for i in range(4)]
    for user in four:
        matchmaking.join(user, "5+3", rules="rhombus", players=4)
    PoolEntry.objects.filter(user=four[0]).update(status=PoolEntry.Status.LEFT)  # as if gone meanwhile
    candidates = [matchmaking._candidate(entry) for entry in PoolEntry.objects.order_by("pk")]
    assert matchmaking._start_table(tuple(candidates)) is None
    assert not Game.objects.exists()
    assert {status_of(user) for user in four[1:]} == {"waiting"}


# --- Several runs at once (PostgreSQL row locks and advisory lock) ------------------------


def fill_mixed_pool(count: int) -> list[Any]:
    """``count`` players waiting for Rhombus 5+3, every third for 2 players, the rest for 4."""
    users = []
    for i in range(count):
        user = get_user_model().objects.create_user(f"q{i:03}", f"q{i:03}@example.org", "password")
        PoolEntry.objects.create(user=user, kind="rhombus", players=2 if i % 3 == 0 else 4, time_control="5+3",
                                 rating=1500 + (i * 37) % 100, joined=timezone.now())
        users.append(user)
    return users


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("advisory_lock", [True, False])
def test_runs_at_once_never_put_a_wait_in_two_games(monkeypatch: pytest.MonkeyPatch, advisory_lock: bool) -> None:
    """Three runs together over 2- and 4-player waits; without the advisory lock the
    entry row locks alone must hold."""
    require_service("DATABASE_URL", "row locks and the advisory lock on PostgreSQL")
    if not advisory_lock:
        monkeypatch.setattr(matchmaking, "_serialize_runs", lambda: None)
    users = fill_mixed_pool(30)  # 10 waiting for 2 players, 20 for 4
    results = at_once(3)
    started = [game for run in results for game in run]
    assert len(started) == len(set(started)) == Game.objects.count() == 5 + 5
    seats = Counter(Seat.objects.values_list("user_id", flat=True))
    assert max(seats.values()) == 1
    for entry in PoolEntry.objects.filter(user__in=users).select_related("game"):
        assert entry.status == "paired" and entry.game is not None
        assert entry.game.players == entry.players
        assert Seat.objects.filter(game=entry.game, user_id=entry.user_id).exists()
