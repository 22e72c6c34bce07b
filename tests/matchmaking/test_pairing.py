"""The matcher's pure part: windows, who is paired with whom, and colours.

No database: `pairings` and `colours` take plain candidates and a time, so
waiting is simulated by moving `now`.
"""

from __future__ import annotations

import doctest
import random
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone

import pytest

from ladder import matchmaking
from ladder.matchmaking import Candidate, colours, pairings, widens_in, window

T0 = datetime(2026, 11, 22, 9, 0, tzinfo=timezone.utc)


def player(entry: int, rating: int, *, user: int | None = None, waited: float = 0, control: str = "5+3",
           last_opponent: int | None = None, last_colour: str | None = None,
           rules: str = "ace-in-the-hole") -> Candidate:
    """A candidate who joined ``waited`` seconds before T0; user id defaults to 100 + entry."""
    return Candidate(entry, 100 + entry if user is None else user, rating, T0 - timedelta(seconds=waited),
                     control, last_opponent, last_colour, rules)


def pairs(candidates: Sequence[Candidate], now: datetime = T0) -> set[frozenset[int]]:
    return {frozenset((a.entry, b.entry)) for a, b in pairings(candidates, now)}


# --- Windows ----------------------------------------------------------------


def test_the_documented_examples_hold() -> None:
    failed, tried = doctest.testmod(matchmaking)
    assert (failed, tried > 0) == (0, True)


def test_the_window_starts_at_100_and_widens_by_50_every_10_seconds_up_to_600() -> None:
    c = player(1, 1500)
    assert window(c, T0).low == 1400 and window(c, T0).high == 1600
    assert window(c, T0 + timedelta(seconds=9.9)).width == 100
    assert window(c, T0 + timedelta(seconds=10)).width == 150
    assert window(c, T0 + timedelta(seconds=45)).width == 300
    assert window(c, T0 + timedelta(seconds=100)).width == 600
    assert window(c, T0 + timedelta(hours=1)).width == 600


def test_the_next_widening_is_counted_down_and_stops_at_the_widest() -> None:
    c = player(1, 1500)
    assert widens_in(c, T0 + timedelta(seconds=3)) == 7
    assert widens_in(c, T0 + timedelta(seconds=99)) == 1
    assert widens_in(c, T0 + timedelta(seconds=100)) is None


# --- Who meets whom ---------------------------------------------------------


def test_the_closest_ratings_are_paired_first() -> None:
    assert pairs([player(1, 1500), player(2, 1590), player(3, 1520)]) == {frozenset((1, 3))}


def test_the_total_difference_is_smallest_over_the_whole_pool() -> None:
    # Greedy closest-first would pair 1540-1560 (20) and leave 1500-1600 (100):
    # 120 in all; the matching finds 1500-1540 and 1560-1600, 80 in all.
    assert pairs([player(1, 1500), player(2, 1540), player(3, 1560), player(4, 1600)]) == {
        frozenset((1, 2)), frozenset((3, 4))}


def test_as_many_players_as_possible_are_paired() -> None:
    # 1550 is closest to both ends, but pairing it would leave two players waiting.
    assert pairs([player(1, 1500), player(2, 1550), player(3, 1560), player(4, 1600)]) == {
        frozenset((1, 2)), frozenset((3, 4))}


def test_nobody_is_paired_outside_either_window() -> None:
    assert pairs([player(1, 1500), player(2, 1601)]) == set()
    assert pairs([player(1, 1500), player(2, 1600)]) == {frozenset((1, 2))}


def test_the_window_must_admit_the_pair_on_both_sides() -> None:
    # The 1500 has waited 40 s (±300), the 1750 has just come (±100): no pair yet.
    assert pairs([player(1, 1500, waited=40), player(2, 1750)]) == set()
    assert pairs([player(1, 1500, waited=40), player(2, 1750, waited=30)]) == {frozenset((1, 2))}


def test_waiting_widens_the_window_until_a_pair_is_found() -> None:
    pool = [player(1, 1500), player(2, 1760)]
    assert pairs(pool, T0) == set()
    assert pairs(pool, T0 + timedelta(seconds=29)) == set()  # ±200
    assert pairs(pool, T0 + timedelta(seconds=40)) == {frozenset((1, 2))}  # ±300


def test_only_players_of_the_same_control_are_paired() -> None:
    assert pairs([player(1, 1500), player(2, 1500, control="3+2")]) == set()
    assert pairs([player(1, 1500), player(2, 1500, control="3+2"), player(3, 1510, control="3+2"),
                  player(4, 1490)]) == {frozenset((1, 4)), frozenset((2, 3))}


def test_only_players_of_the_same_game_are_paired() -> None:
    """Issue 13: Rhombus waits meet Rhombus waits; its Formation variant is a pool of its own."""
    assert pairs([player(1, 1500), player(2, 1500, rules="rhombus")], T0 + timedelta(hours=1)) == set()
    assert pairs([player(1, 1500, rules="rhombus"), player(2, 1500), player(3, 1510, rules="rhombus"),
                  player(4, 1490), player(5, 1500, rules="rhombus-formation")]) == {frozenset((1, 3)), frozenset((2, 4))}
    # The same game at another control is another pool too.
    assert pairs([player(1, 1500, rules="rhombus"), player(2, 1500, rules="rhombus", control="3+2")]) == set()


def test_a_player_is_never_paired_with_themselves() -> None:
    assert pairs([player(1, 1500, user=7), player(2, 1500, user=7)]) == set()


def test_last_games_opponents_meet_again_only_when_nobody_else_is_there() -> None:
    alice = player(1, 1500, user=1, last_opponent=2)
    bob = player(2, 1510, user=2, last_opponent=1)
    assert pairs([alice, bob]) == {frozenset((1, 2))}
    # Alice-Bob (10) + Carol-Dave (70) would be closest; the repeat makes it
    # Alice-Dave (30) + Bob-Carol (30) instead.
    carol, dave = player(3, 1540, user=3), player(4, 1470, user=4)
    assert pairs([alice, bob, carol, dave]) == {frozenset((1, 4)), frozenset((2, 3))}
    assert pairs([alice, bob, carol]) == {frozenset((2, 3))}


def test_one_sided_repeat_is_avoided_as_well() -> None:
    # Only bob remembers alice (alice played someone else since).
    alice = player(1, 1500, user=1, last_opponent=9)
    bob = player(2, 1500, user=2, last_opponent=1)
    carol = player(3, 1550, user=3)
    assert pairs([alice, bob, carol]) in ({frozenset((1, 3))}, {frozenset((2, 3))})


# --- Colours ----------------------------------------------------------------


def never(options: Sequence[bool]) -> bool:
    raise AssertionError("no draw was needed")


def test_who_had_red_last_gets_black() -> None:
    had_red, fresh = player(1, 1500, last_colour="red"), player(2, 1500)
    assert colours(had_red, fresh, never) == (fresh, had_red)
    assert colours(fresh, had_red, never) == (fresh, had_red)


def test_who_had_black_last_gets_red() -> None:
    had_black, fresh = player(1, 1500, last_colour="black"), player(2, 1500)
    assert colours(fresh, had_black, never) == (had_black, fresh)
    had_red = player(3, 1500, last_colour="red")
    assert colours(had_red, had_black, never) == (had_black, had_red)


def test_colours_are_drawn_when_the_wishes_clash_or_there_are_none() -> None:
    first, second = player(1, 1500, last_colour="red"), player(2, 1500, last_colour="red")
    assert colours(first, second, lambda options: options[0]) == (first, second)
    assert colours(first, second, lambda options: options[1]) == (second, first)
    fresh, newer = player(3, 1500), player(4, 1500)
    seen = {colours(fresh, newer)[0].entry for _ in range(200)}
    assert seen == {3, 4}  # secrets.choice: both ways happen


def test_the_neighbour_limit_pairs_random_pools_as_the_full_graph_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Edges only to the nearest in rating: as many pairs, the same total difference."""
    for seed in range(12):
        rng = random.Random(seed)
        pool = [player(i, int(rng.gauss(1500, 150)), waited=rng.uniform(0, 60), last_opponent=100 + rng.randrange(40),
                       control=rng.choice(["5+3", "3+2"])) for i in range(40)]
        found = []
        for limit in (matchmaking.NEIGHBOURS, len(pool)):
            monkeypatch.setattr(matchmaking, "NEIGHBOURS", limit)
            chosen = pairings(pool, T0)
            found.append((len(chosen), sum(abs(a.rating - b.rating) for a, b in chosen)))
        assert found[0] == found[1], seed
