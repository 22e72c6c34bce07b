"""Berger tables: FIDE's printed tables exactly, and the round-robin properties
that every field size must have."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.berger import Pairing, cycle_length, round_of, rounds

# FIDE Handbook C.05 Annex 1, "7 or 8 players" and "9 or 10 players", as
# printed: Red (white) first, boards in the printed order.
FIDE_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]

FIDE_10 = [
    [(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)],
    [(10, 6), (7, 5), (8, 4), (9, 3), (1, 2)],
    [(2, 10), (3, 1), (4, 9), (5, 8), (6, 7)],
    [(10, 7), (8, 6), (9, 5), (1, 4), (2, 3)],
    [(3, 10), (4, 2), (5, 1), (6, 9), (7, 8)],
    [(10, 8), (9, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 10), (5, 3), (6, 2), (7, 1), (8, 9)],
    [(10, 9), (1, 8), (2, 7), (3, 6), (4, 5)],
    [(5, 10), (6, 4), (7, 3), (8, 2), (9, 1)],
]

SIZES = range(2, 41)


def colours_of(player: int, cycle: list[Pairing]) -> list[str]:
    """The player's colours in the games he plays, round by round ("R"/"B")."""
    colours = []
    for pairing in cycle:
        for red, black in pairing:
            if red == player and black is not None:
                colours.append("R")
            elif black == player:
                colours.append("B")
    return colours


def repeats(colours: list[str]) -> int:
    return sum(a == b for a, b in zip(colours, colours[1:]))


def cycles(players: int, double: bool) -> list[list[Pairing]]:
    schedule = rounds(players, double)
    length = cycle_length(players)
    return [schedule[start:start + length] for start in range(0, len(schedule), length)]


# --- FIDE's printed tables -------------------------------------------------


def test_eight_players_get_fides_printed_table() -> None:
    assert rounds(8) == FIDE_8


def test_ten_players_get_fides_printed_table() -> None:
    assert rounds(10) == FIDE_10


def test_seven_players_get_the_eight_table_with_player_eight_as_the_bye() -> None:
    expected = [[(a, None) if b == 8 else (b, None) if a == 8 else (a, b) for a, b in pairing]
                for pairing in FIDE_8]
    assert rounds(7) == expected


def test_nine_players_get_the_ten_table_with_player_ten_as_the_bye() -> None:
    expected = [[(a, None) if b == 10 else (b, None) if a == 10 else (a, b) for a, b in pairing]
                for pairing in FIDE_10]
    assert rounds(9) == expected


@pytest.mark.parametrize("table", [FIDE_8, FIDE_10], ids=["8", "10"])
def test_the_printed_tables_follow_bergers_rule(table: list[list[tuple[int, int]]]) -> None:
    # A check on the data above, independent of the code: in round r the
    # players other than n meet where a + b = r + 1 (mod n - 1), and n meets
    # the player with 2a = r + 1 (mod n - 1).
    n = len(table) + 1
    for number, pairing in enumerate(table, start=1):
        for a, b in pairing:
            if n in (a, b):
                other = a + b - n
                assert (2 * other - number - 1) % (n - 1) == 0
            else:
                assert (a + b - number - 1) % (n - 1) == 0


# --- properties of every field size ----------------------------------------


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("double", [False, True])
def test_every_pair_meets_exactly_once_a_cycle(players: int, double: bool) -> None:
    everyone = {frozenset((a, b)) for a in range(1, players + 1) for b in range(a + 1, players + 1)}
    for cycle in cycles(players, double):
        met = Counter(frozenset(board) for pairing in cycle for board in pairing if board[1] is not None)
        assert set(met) == everyone
        assert set(met.values()) == {1}


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("double", [False, True])
def test_each_player_is_on_exactly_one_board_a_round(players: int, double: bool) -> None:
    for pairing in rounds(players, double):
        seated = [player for board in pairing for player in board if player is not None]
        assert sorted(seated) == list(range(1, players + 1))


@pytest.mark.parametrize("players", SIZES)
def test_the_schedule_has_one_cycle_of_n_minus_one_rounds_or_two(players: int) -> None:
    length = players - 1 if players % 2 == 0 else players
    assert len(rounds(players)) == length
    assert len(rounds(players, double=True)) == 2 * length


@pytest.mark.parametrize("players", range(2, 41, 2))
@pytest.mark.parametrize("double", [False, True])
def test_in_an_even_field_colours_differ_by_at_most_one_a_cycle(players: int, double: bool) -> None:
    for cycle in cycles(players, double):
        for player in range(1, players + 1):
            colours = colours_of(player, cycle)
            assert abs(colours.count("R") - colours.count("B")) <= 1


@pytest.mark.parametrize("players", range(2, 41, 2))
def test_in_an_even_field_colours_alternate_but_for_at_most_one_repeat(players: int) -> None:
    # As in the printed tables: player 1 opens Red, Red; nobody has the same
    # colour three times running; the fixed player n strictly alternates.
    for player in range(1, players + 1):
        assert repeats(colours_of(player, rounds(players))) <= 1
    assert repeats(colours_of(players, rounds(players))) == 0


@pytest.mark.parametrize("players", range(3, 41, 2))
def test_in_an_odd_field_colours_alternate_around_the_bye_and_balance(players: int) -> None:
    # The bye takes the place of the one repeat an even table would give.
    for player in range(1, players + 1):
        colours = colours_of(player, rounds(players))
        assert repeats(colours) == 0
        assert colours.count("R") == colours.count("B")


@pytest.mark.parametrize("players", range(3, 41, 2))
@pytest.mark.parametrize("double", [False, True])
def test_in_an_odd_field_everyone_has_one_bye_a_cycle(players: int, double: bool) -> None:
    for cycle in cycles(players, double):
        byes = [red for pairing in cycle for red, black in pairing if black is None]
        assert sorted(byes) == list(range(1, players + 1))
        assert all(sum(black is None for _, black in pairing) == 1 for pairing in cycle)


@pytest.mark.parametrize("players", range(2, 41, 2))
def test_an_even_field_has_no_byes(players: int) -> None:
    assert all(black is not None for pairing in rounds(players, double=True) for _, black in pairing)


@pytest.mark.parametrize("players", SIZES)
def test_the_second_cycle_is_the_table_with_colours_reversed(players: int) -> None:
    first, second = cycles(players, double=True)
    table = rounds(players)
    assert sorted(first) == sorted(table)  # the same rounds (the last two swapped)
    for one, two in zip(table, second):
        assert two == [(red, None) if black is None else (black, red) for red, black in one]


@pytest.mark.parametrize("players", SIZES)
def test_over_two_cycles_each_player_has_each_colour_against_each_opponent(players: int) -> None:
    games = Counter(board for pairing in rounds(players, double=True) for board in pairing if board[1] is not None)
    assert len(games) == players * (players - 1)
    assert set(games.values()) == {1}


# --- the API's edges ------------------------------------------------------


@pytest.mark.parametrize("players", [-1, 0, 1])
def test_fewer_than_two_players_is_refused(players: int) -> None:
    with pytest.raises(ValueError):
        rounds(players)
    with pytest.raises(ValueError):
        round_of(players, 1)


@pytest.mark.parametrize(("players", "number", "double"), [(8, 0, False), (8, 8, False), (8, 15, True), (7, 8, False)])
def test_a_round_outside_the_schedule_is_refused(players: int, number: int, double: bool) -> None:
    with pytest.raises(ValueError):
        round_of(players, number, double)


def test_two_players_meet_once_with_player_one_red_then_reversed() -> None:
    assert rounds(2, double=True) == [[(1, 2)], [(2, 1)]]


@given(st.integers(2, 60), st.booleans(), st.data())
def test_round_of_is_that_round_of_the_schedule(players: int, double: bool, data: st.DataObject) -> None:
    schedule = rounds(players, double)
    number = data.draw(st.integers(1, len(schedule)))
    assert round_of(players, number, double) == schedule[number - 1]


@pytest.mark.parametrize("players", range(2, 41))
def test_a_double_round_robin_never_gives_one_colour_three_times_running(players: int) -> None:
    """FIDE's recommendation (C.05 Annex 1): the first cycle's last two rounds swapped."""
    schedule = rounds(players, double=True)
    for player in range(1, players + 1):
        colours = "".join("w" if board[0] == player else "b"
                          for pairing in schedule for board in pairing
                          if board[1] is not None and player in board)
        assert "www" not in colours and "bbb" not in colours, (player, colours)


def test_a_double_round_robin_swaps_only_the_first_cycles_last_two_rounds() -> None:
    single, double = rounds(8), rounds(8, double=True)
    assert double[:5] == single[:5] and double[5:7] == [single[6], single[5]]
    assert double[7:] == [[(b, r) for r, b in pairing] for pairing in single]
