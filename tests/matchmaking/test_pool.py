"""Joining and leaving the rated pool, and a matcher run on the database (ladder.matchmaking)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games import finishing, starting
from games.timecontrols import TimeControl
from ladder import matchmaking, seeks
from ladder.models import PoolEntry, Seek
from tests.matchmaking.conftest import games_of, status_of, wait_longer

pytestmark = pytest.mark.django_db
Rated = Callable[[str, int], Any]


# --- Joining and leaving ----------------------------------------------------


@pytest.mark.parametrize("key, message", [
    ("3d", "the rated pool is for real-time games only: choose one of 1+0, 3+2, 5+3, 10+5, "
           "or create a correspondence seek"),
    ("2+1", "'2+1' is not a rated pool: choose one of 1+0, 3+2, 5+3, 10+5"),
    ("blitz", "'blitz' is not a rated pool: choose one of 1+0, 3+2, 5+3, 10+5"),
    (None, "None is not a rated pool: choose one of 1+0, 3+2, 5+3, 10+5"),
])
def test_only_real_time_controls_have_a_pool(alice: Any, key: Any, message: str) -> None:
    with pytest.raises(matchmaking.PoolRefusal) as refusal:
        matchmaking.join(alice, key)
    assert str(refusal.value) == message
    assert not PoolEntry.objects.exists()


def test_a_visitor_must_log_in_to_join() -> None:
    with pytest.raises(matchmaking.PoolRefusal, match="log in to play rated games"):
        matchmaking.join(AnonymousUser(), "5+3")
    assert not PoolEntry.objects.exists()


def test_joining_records_the_players_rating_and_the_time(rated: Rated) -> None:
    dora = rated("dora", 1620)
    now = timezone.now()
    entry = matchmaking.join(dora, "5+3", now)
    assert (entry.time_control, entry.rating, entry.joined, entry.status) == ("5+3", 1620, now, "waiting")


def test_a_waiting_player_who_joins_another_pool_moves_there(alice: Any) -> None:
    first = matchmaking.join(alice, "5+3")
    second = matchmaking.join(alice, "1+0")
    assert first.pk != second.pk
    assert list(PoolEntry.objects.filter(user=alice, status="waiting")) == [second]
    first.refresh_from_db()
    assert first.status == "left"


def test_asking_again_for_the_same_pool_keeps_the_wait(alice: Any) -> None:
    then = timezone.now() - timedelta(seconds=30)
    first = matchmaking.join(alice, "5+3", then)
    again = matchmaking.join(alice, "5+3")
    assert again.pk == first.pk and again.joined == then
    assert PoolEntry.objects.filter(user=alice).count() == 1


def test_a_player_in_a_real_time_game_cannot_join(alice: Any, bob: Any) -> None:
    starting.start_game(alice, bob, time_control=TimeControl.parse("3+2"))
    with pytest.raises(matchmaking.PoolRefusal,
                       match="you are playing a real-time game: finish it before looking for another"):
        matchmaking.join(alice, "5+3")
    assert not PoolEntry.objects.exists()


def test_a_correspondence_game_does_not_keep_a_player_out(alice: Any, bob: Any) -> None:
    starting.start_game(alice, bob, time_control=TimeControl.parse("3d"))
    assert matchmaking.join(alice, "5+3").status == "waiting"


def test_leaving_ends_the_wait_and_leaving_twice_is_harmless(alice: Any) -> None:
    entry = matchmaking.join(alice, "5+3")
    assert matchmaking.leave(alice) == entry
    assert status_of(alice) == "left"
    assert matchmaking.leave(alice) is None


def test_a_socket_leaves_only_the_wait_it_began(alice: Any) -> None:
    old = matchmaking.join(alice, "5+3")
    new = matchmaking.join(alice, "3+2")  # from another tab
    assert matchmaking.leave(alice, old.pk) is None
    assert matchmaking.waiting_entry(alice) == new


def test_the_waiting_player_sees_window_and_time_waited(rated: Rated) -> None:
    dora = rated("dora", 1620)
    now = timezone.now()
    entry = matchmaking.join(dora, "5+3", now - timedelta(seconds=23.5))
    shown = matchmaking.pool_json(entry, now)
    assert shown is not None
    assert shown["time_control"] == {"key": "5+3", "label": "5+3", "speed": "blitz"}
    assert shown["window"] == {"low": 1420, "high": 1820, "width": 200}
    assert (shown["rating"], shown["waited_ms"], shown["entry"]) == (1620, 23500, entry.pk)
    assert 6500 <= shown["widens_in_ms"] <= 6502
    assert matchmaking.pool_json(matchmaking.leave(dora)) is None


# --- One matcher run --------------------------------------------------------


def test_a_run_pairs_the_closest_ratings_in_a_rated_game_of_that_control(rated: Rated) -> None:
    ann, ben, cal = rated("ann", 1500), rated("ben", 1590), rated("cal", 1520)
    for user in (ann, ben, cal):
        matchmaking.join(user, "5+3")
    [game_id] = matchmaking.match()
    [game] = games_of(ann)
    assert game.pk == game_id and {game.seat("red").user, game.seat("black").user} == {ann, cal}
    assert game.rated and game.running and game.time_control.key == "5+3"
    assert PoolEntry.objects.get(user=ann).game == game and status_of(cal) == "paired"
    assert status_of(ben) == "waiting" and games_of(ben) == []
    assert matchmaking.match() == []  # Ben is alone now


def test_a_run_pairs_far_ratings_once_they_have_waited(rated: Rated) -> None:
    ann, ben = rated("ann", 1500), rated("ben", 1760)
    matchmaking.join(ann, "10+5")
    matchmaking.join(ben, "10+5")
    assert matchmaking.match() == []
    assert matchmaking.match(timezone.now() + timedelta(seconds=41)) != []
    assert [g.time_control.key for g in games_of(ann)] == ["10+5"]


def test_who_had_red_last_time_gets_black(rated: Rated, charlie: Any) -> None:
    ann = rated("ann", 1500)
    for i in range(5):  # with random colours, five right in a row would be luck 1 in 32
        ben = rated(f"ben{i}", 1500)  # no game yet: no wish
        # Ann red last; Charlie calls it off (aborting five times would earn Ann a playban)
        finishing.abort(starting.start_game(ann, charlie).pk, charlie)
        matchmaking.join(ann, "5+3")
        matchmaking.join(ben, "5+3")
        [game_id] = matchmaking.match()
        game = games_of(ann)[0]
        assert (game.pk, game.seat("red").user, game.seat("black").user) == (game_id, ben, ann)
        finishing.abort(game_id, ben)


def test_last_games_opponents_are_not_paired_again_when_others_wait(rated: Rated) -> None:
    ann, ben, cal, dan = rated("ann", 1500), rated("ben", 1505), rated("cal", 1550), rated("dan", 1455)
    finishing.abort(starting.start_game(ann, ben).pk, ann)
    for user in (ann, ben, cal, dan):
        matchmaking.join(user, "5+3")
    assert len(matchmaking.match()) == 2
    opponents = {frozenset((g.seat("red").user.username, g.seat("black").user.username)) for g in games_of(ann) + games_of(ben) if g.running}
    assert frozenset(("ann", "ben")) not in opponents and len(opponents) == 2


def test_last_games_opponents_alone_in_the_pool_play_again(rated: Rated) -> None:
    ann, ben = rated("ann", 1500), rated("ben", 1505)
    finishing.abort(starting.start_game(ann, ben).pk, ann)
    matchmaking.join(ann, "5+3")
    matchmaking.join(ben, "5+3")
    assert len(matchmaking.match()) == 1


def test_a_player_who_sat_down_to_another_game_is_taken_out_not_paired(
        rated: Rated, charlie: Any) -> None:
    ann, ben = rated("ann", 1500), rated("ben", 1500)
    matchmaking.join(ann, "5+3")
    matchmaking.join(ben, "5+3")
    seek = seeks.create_seek(charlie, "3+2")
    seeks.accept_seek(seek.pk, ann)  # Ann accepted a seek while waiting
    assert matchmaking.match() == []
    assert status_of(ann) == "left" and status_of(ben) == "waiting"
    assert len(games_of(ann)) == 1


def test_accepting_a_real_time_seek_ends_both_players_waits_at_once(rated: Rated) -> None:
    """The lobby takes them out in its own transaction (under the matcher's
    lock), not at the next matcher run: no run can pair them in between."""
    ann, ben = rated("ann", 1500), rated("ben", 1500)
    matchmaking.join(ann, "5+3")
    matchmaking.join(ben, "10+5")
    seeks.accept_seek(seeks.create_seek(ben, "3+2").pk, ann)
    assert status_of(ann) == "left" and status_of(ben) == "left"


def test_accepting_a_correspondence_seek_keeps_the_wait(rated: Rated) -> None:
    ann, ben = rated("ann", 1500), rated("ben", 1500)
    matchmaking.join(ann, "5+3")
    seeks.accept_seek(seeks.create_seek(ben, "3d").pk, ann)
    assert status_of(ann) == "waiting"


def test_pairing_withdraws_both_players_real_time_seeks_only(rated: Rated) -> None:
    ann, ben = rated("ann", 1500), rated("ben", 1500)
    blitz, corr = seeks.create_seek(ann, "3+2"), seeks.create_seek(ben, "3d")
    matchmaking.join(ann, "5+3")
    matchmaking.join(ben, "5+3")
    matchmaking.match()
    blitz.refresh_from_db()
    corr.refresh_from_db()
    assert (blitz.status, corr.status) == (Seek.Status.CANCELLED, Seek.Status.OPEN)


def test_a_left_player_is_not_paired(rated: Rated) -> None:
    ann, ben = rated("ann", 1500), rated("ben", 1500)
    matchmaking.join(ann, "5+3")
    matchmaking.join(ben, "5+3")
    matchmaking.leave(ben)
    wait_longer(ann, 200)
    assert matchmaking.match() == [] and games_of(ann) == []
