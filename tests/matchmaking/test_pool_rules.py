"""Quick pairing chooses the game (issue 13): Ace in the Hole, Rhombus or Rhombus
Formation. One pool per game and control, windows on that game's ladder, and the
game started is the one chosen. On the database, no services needed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import finishing, starting
from games.models import Game
from games.timecontrols import TimeControl
from ladder import matchmaking
from ladder.models import PoolEntry, Rating
from tests.matchmaking.conftest import games_of, status_of

pytestmark = pytest.mark.django_db
Rated = Callable[[str, int], Any]


def rhombus_rated(user: Any, rating: int) -> Any:
    """``user`` with ``rating`` on the Rhombus ladder (their Ace rating is left alone)."""
    Rating.objects.update_or_create(user=user, ladder="rhombus", defaults={"rating": rating})
    return user


# --- Joining ------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["chess", "", None, ["rhombus"], "rhombus-teams"])
def test_an_unknown_game_is_refused_with_the_choices_and_nothing_is_stored(alice: Any, rules: Any) -> None:
    with pytest.raises(matchmaking.PoolRefusal) as refusal:
        matchmaking.join(alice, "5+3", rules=rules)
    assert str(refusal.value) == (f"{rules!r} is not a game here: choose one of ace-in-the-hole, rhombus, "
                                  "rhombus-formation")
    assert not PoolEntry.objects.exists()


def test_the_default_is_ace_in_the_hole_as_before(alice: Any) -> None:
    entry = matchmaking.join(alice, "5+3")
    assert (entry.kind, entry.variant) == ("ace-in-the-hole", "classic")


def test_a_rhombus_wait_records_the_rhombus_rating_not_the_ace_one(rated: Rated) -> None:
    dora = rhombus_rated(rated("dora", 1620), 1810)
    entry = matchmaking.join(dora, "3+2", rules="rhombus-formation")
    assert (entry.kind, entry.variant, entry.rating) == ("rhombus", "formation", 1810)
    shown = matchmaking.pool_json(entry)
    assert shown is not None and shown["rules"] == {"key": "rhombus-formation", "title": "Rhombus Formation"}
    assert shown["window"] == {"low": 1710, "high": 1910, "width": 100}


def test_a_newcomer_to_rhombus_waits_at_1500_without_a_row_being_made(rated: Rated) -> None:
    dora = rated("dora", 1900)
    assert matchmaking.join(dora, "5+3", rules="rhombus").rating == 1500
    assert not Rating.objects.exists()  # made when the first rated game ends


def test_one_wait_per_player_choosing_another_game_moves_it(alice: Any) -> None:
    ace = matchmaking.join(alice, "5+3")
    rhombus = matchmaking.join(alice, "5+3", rules="rhombus")
    assert list(PoolEntry.objects.filter(user=alice, status="waiting")) == [rhombus]
    ace.refresh_from_db()
    assert ace.status == "left"


def test_asking_again_for_the_same_game_and_control_keeps_the_wait(alice: Any) -> None:
    then = timezone.now() - timedelta(seconds=30)
    first = matchmaking.join(alice, "5+3", then, rules="rhombus")
    again = matchmaking.join(alice, "5+3", rules="rhombus")
    assert again.pk == first.pk and again.joined == then
    formation = matchmaking.join(alice, "5+3", rules="rhombus-formation")  # same kind, other variant
    assert formation.pk != first.pk and formation.joined != then


# --- One matcher run ----------------------------------------------------------


def test_rhombus_waits_pair_with_each_other_and_never_with_ace_waits(rated: Rated) -> None:
    ann, ben, cal, dan = (rated(name, 1500) for name in ("ann", "ben", "cal", "dan"))
    matchmaking.join(ann, "5+3", rules="rhombus")
    matchmaking.join(ben, "5+3")
    matchmaking.join(cal, "5+3", rules="rhombus")
    matchmaking.join(dan, "5+3", rules="rhombus-formation")
    [game_id] = matchmaking.match(timezone.now() + timedelta(seconds=200))  # all windows at their widest
    game = Game.objects.get(pk=game_id)
    assert {seat.user for seat in game.table} == {ann, cal}
    assert (game.kind, game.variant, game.players, game.rated) == ("rhombus", "classic", 2, True)
    assert game.time_control.key == "5+3"
    assert status_of(ben) == status_of(dan) == "waiting"


def test_the_window_is_on_the_rhombus_ladder(rated: Rated) -> None:
    """Close on Ace in the Hole (1500 and 1510), far apart on Rhombus (1500 and 1760):
    not paired at once, paired once the windows have widened to ±300 (40 s)."""
    ann, ben = rhombus_rated(rated("ann", 1500), 1500), rhombus_rated(rated("ben", 1510), 1760)
    matchmaking.join(ann, "10+5", rules="rhombus")
    matchmaking.join(ben, "10+5", rules="rhombus")
    assert matchmaking.match() == []
    assert status_of(ann) == status_of(ben) == "waiting"
    [game_id] = matchmaking.match(timezone.now() + timedelta(seconds=41))
    assert Game.objects.get(pk=game_id).kind == "rhombus"


def test_far_on_ace_close_on_rhombus_are_paired_at_once(rated: Rated) -> None:
    ann, ben = rhombus_rated(rated("ann", 1200), 1600), rhombus_rated(rated("ben", 2000), 1620)
    matchmaking.join(ann, "3+2", rules="rhombus")
    matchmaking.join(ben, "3+2", rules="rhombus")
    assert len(matchmaking.match()) == 1


def test_the_started_game_is_rhombus_formation_when_chosen(rated: Rated) -> None:
    ann, ben = rated("ann", 1500), rated("ben", 1500)
    matchmaking.join(ann, "1+0", rules="rhombus-formation")
    matchmaking.join(ben, "1+0", rules="rhombus-formation")
    [game_id] = matchmaking.match()
    game = Game.objects.get(pk=game_id)
    assert (game.kind, game.variant, game.players) == ("rhombus", "formation", 2)
    assert [seat.name for seat in game.table] == ["SW", "NE"]
    assert PoolEntry.objects.get(user=ann).game == game and status_of(ben) == "paired"


def test_who_had_sw_in_the_last_rhombus_game_gets_ne(rated: Rated, charlie: Any) -> None:
    """Red's wish carries over: the first seat (SW) last time, the second (NE) now."""
    ann = rated("ann", 1500)
    for i in range(5):  # with random seats, five right in a row would be luck 1 in 32
        ben = rated(f"ben{i}", 1500)  # no game yet: no wish
        # Ann SW last; Charlie calls it off (aborting five times would earn Ann a playban)
        finishing.abort(starting.start_game(ann, charlie, setup=starting.Setup("rhombus")).pk, charlie)
        matchmaking.join(ann, "5+3", rules="rhombus")
        matchmaking.join(ben, "5+3", rules="rhombus")
        [game_id] = matchmaking.match()
        game = Game.objects.get(pk=game_id)
        assert {seat.name: seat.user for seat in game.table} == {"SW": ben, "NE": ann}
        finishing.abort(game_id, ben)


def test_an_ace_game_in_between_does_not_count_as_the_last_rhombus_game(rated: Rated, charlie: Any) -> None:
    """Last game's opponent is looked for among games of the same game: Ann and Ben
    last met at Rhombus, and each has played Ace in the Hole with Charlie since.
    Closest ratings would pair Ann with Ben (0) and Cal with Dan (30); the
    repeat is avoided: Ann and Ben each play Cal or Dan (130 in all)."""
    ann, ben, cal, dan = (rhombus_rated(rated(name, 1500), rating)
                          for name, rating in (("ann", 1500), ("ben", 1500), ("cal", 1450), ("dan", 1420)))
    finishing.abort(starting.start_game(ann, ben, setup=starting.Setup("rhombus")).pk, ann)
    for user in (ann, ben):
        finishing.abort(starting.start_game(user, charlie, time_control=TimeControl.parse("5+3")).pk, user)
    for user in (ann, ben, cal, dan):
        matchmaking.join(user, "5+3", rules="rhombus")
    assert len(matchmaking.match()) == 2
    tables = {frozenset(seat.user.username for seat in g.table) for g in games_of(ann) + games_of(ben)
              if g.running}
    assert frozenset(("ann", "ben")) not in tables and len(tables) == 2


# --- The lobby page -------------------------------------------------------------


def test_the_lobby_offers_the_game_for_quick_pairing(client: Client, alice: Any) -> None:
    client.force_login(alice)
    page = client.get("/lobby/").content.decode()
    pool = page[page.index("data-pool>"):page.index("</section>", page.index("data-pool>"))]
    for key, title in (("ace-in-the-hole", "Ace in the Hole"), ("rhombus", "Rhombus"),
                       ("rhombus-formation", "Rhombus Formation")):
        assert f'name="pool-rules" value="{key}"' in pool and f"<span>{title}</span>" in pool
    # One game and one number of players (2 unless 4 is chosen, Rhombus only) are checked.
    assert pool.count("checked") == 2 and 'value="ace-in-the-hole" checked' in pool
    assert 'name="pool-players" value="2" checked' in pool and 'name="pool-players" value="4"' in pool
    assert "data-pool-rules" in pool  # the waiting line names the game
