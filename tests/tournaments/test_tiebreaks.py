"""Tiebreaks (FIDE C.07, 2023): values worked by hand, direct encounter among
two, three and four tied players, performance ratings FIDE's table gives,
shared places, and the properties every standings table must have."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.results import Colour, Player, Round, check_symmetric
from tournaments.tiebreaks import (
    TIEBREAKS,
    Field,
    Standing,
    average_rating,
    direct_encounter,
    performance_rating,
    rating_difference,
    standings,
)

_OPPOSITE = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+"}

# A board is (red, black, red's result) for a game or a forfeit, or
# (player, code) for a bye or an absence.
Board = tuple[int, int, str] | tuple[int, str]


def tournament(ratings: Sequence[int], rounds: Sequence[Sequence[Board]]) -> list[Player]:
    """Players 1..n with these ratings, and both sides of every board."""
    records: dict[int, list[Round]] = {n: [] for n in range(1, len(ratings) + 1)}
    for boards in rounds:
        for board in boards:
            if len(board) == 3:
                red, black, code = board
                records[red].append(Round(black, "w", code))
                records[black].append(Round(red, "b", _OPPOSITE[code]))
            else:
                player, code = board
                records[player].append(Round(None, None, code))
    players = [Player(n, f"p{n}", rating, tuple(records[n])) for n, rating in zip(records, ratings)]
    assert len({len(p.rounds) for p in players}) == 1, "every player needs a record for every round"
    check_symmetric(players)
    return players


def values(players: Sequence[Player], code: str, round_robin: bool = False) -> dict[int, object]:
    field = Field.of(players, round_robin)
    return dict(TIEBREAKS[code].compute(field, ()))


def halves(**by_player: float) -> dict[int, Fraction]:
    return {int(name[1:]): Fraction(value) for name, value in by_player.items()}


# ---------------------------------------------------------------------------
# A small Swiss with every kind of unplayed round.
#
#   ratings: 1: 2000, 2: 1900, 3: 1800, 4: 1700, 5: 1600, 6: 1500
#   R1: 1-4 1-0     2-5 draw        3-6 1-0
#   R2: 3-1 draw    4-2 0-1         5 pairing-allocated bye (U)   6 absent (" ")
#   R3: 1-2 +/- (2 forfeits)        5-3 1-0         6-4 1-0
#   R4: 5-1 1-0     2-6 draw        4-3 draw
#
#   points: 1: 2.5  2: 2  3: 2  4: 0.5  5: 3.5  6: 1.5
#   Nobody withdrew (each played again after his unplayed round), so the
#   scores opponents count are the points themselves (C.07 16.3.1).
#
#   Buchholz, round by round; an unplayed round counts the player's own
#   score (the dummy opponent of 16.4), marked *, voluntary ones (VUR) v:
#     1: 0.5 + 2 + 2.5* + 3.5 = 8.5      cut 0.5          -> 8
#     2: 3.5 + 0.5 + 2*v + 1.5 = 7.5     cut the VUR 2    -> 5.5 (not 0.5)
#     3: 1.5 + 2.5 + 3.5 + 0.5 = 8       cut 0.5          -> 7.5
#     4: 2.5 + 2 + 1.5 + 2 = 8           cut 1.5          -> 6.5
#     5: 2 + 3.5* + 2 + 2.5 = 10         (U is no VUR) cut 2 -> 8
#     6: 2 + 1.5*v + 0.5 + 2 = 6         cut the VUR 1.5  -> 4.5
#
#   Sonneborn-Berger, opponent's score x points scored against him:
#     1: 0.5x1 + 2x0.5 + 2.5x1 + 3.5x0 = 4
#     2: 3.5x0.5 + 0.5x1 + 2x0 + 1.5x0.5 = 3
#     3: 1.5x1 + 2.5x0.5 + 3.5x0 + 0.5x0.5 = 3
#     4: 0 + 0 + 0 + 2x0.5 = 1
#     5: 2x0.5 + 3.5x1 + 2x1 + 2.5x1 = 9
#     6: 0 + 1.5x0 + 0.5x1 + 2x0.5 = 1.5
#
#   Ratings over games played at the board (the forfeit left out):
#     1: 1700 1800 1600 -> ARO 1700; 1.5/3 = .50 -> TPR 1700
#     2: 1600 1700 1500 -> ARO 1600; 2/3 = .67 (dp 125) -> 1725
#     3: 1500 2000 1600 1700 -> 1700; 2/4 = .50 -> 1700
#     4: 2000 1900 1500 1800 -> 1800; 0.5/4 = .125 -> .13 (dp -322) -> 1478
#     5: 1900 1800 2000 -> 1900; 2.5/3 = .83 (dp 273) -> 2173
#     6: 1800 1700 1900 -> 1800; 1.5/3 = .50 -> 1800

SWISS = tournament(
    [2000, 1900, 1800, 1700, 1600, 1500],
    [
        [(1, 4, "1"), (2, 5, "="), (3, 6, "1")],
        [(3, 1, "="), (4, 2, "0"), (5, "U"), (6, " ")],
        [(1, 2, "+"), (5, 3, "1"), (6, 4, "1")],
        [(5, 1, "1"), (2, 6, "="), (4, 3, "=")],
    ],
)


def test_the_swiss_scores_add_up() -> None:
    assert [p.points for p in SWISS] == [2.5, 2, 2, 0.5, 3.5, 1.5]


def test_buchholz_counts_an_unplayed_round_as_a_dummy_opponent_with_the_players_own_score() -> None:
    assert values(SWISS, "BH") == halves(p1=8.5, p2=7.5, p3=8, p4=8, p5=10, p6=6)


def test_buchholz_cut_1_cuts_a_voluntarily_unplayed_round_before_the_weakest_opponent() -> None:
    assert values(SWISS, "BH-C1") == halves(p1=8, p2=5.5, p3=7.5, p4=6.5, p5=8, p6=4.5)


def test_sonneborn_berger_weighs_each_opponent_by_the_points_taken_from_him() -> None:
    assert values(SWISS, "SB") == halves(p1=4, p2=3, p3=3, p4=1, p5=9, p6=1.5)


def test_games_won_counts_only_wins_at_the_board() -> None:
    assert values(SWISS, "WON") == {1: 1, 2: 1, 3: 1, 4: 0, 5: 2, 6: 1}


def test_rounds_won_also_counts_forfeit_wins_and_byes_worth_a_win() -> None:
    assert values(SWISS, "WIN") == {1: 2, 2: 1, 3: 1, 4: 0, 5: 3, 6: 1}


def test_average_rating_of_opponents_leaves_out_the_forfeit() -> None:
    assert values(SWISS, "ARO") == {1: 1700, 2: 1600, 3: 1700, 4: 1800, 5: 1900, 6: 1800}


def test_performance_rating_uses_fides_dp_table_over_games_played() -> None:
    assert values(SWISS, "TPR") == {1: 1700, 2: 1725, 3: 1700, 4: 1478, 5: 2173, 6: 1800}


def test_the_swiss_standings_break_the_tie_on_two_points_by_buchholz_cut_1() -> None:
    # 2 and 3 never met, so direct encounter leaves them level (place 1 each);
    # Buchholz cut 1 (5.5 against 7.5) puts 3 ahead.
    table = standings(SWISS, ["DE", "BH-C1", "BH", "SB"])
    assert [(s.rank, s.player.number, float(s.points)) for s in table] == [
        (1, 5, 3.5), (2, 1, 2.5), (3, 3, 2), (4, 2, 2), (5, 6, 1.5), (6, 4, 0.5)]
    assert [s.tiebreaks for s in table if s.player.number in (2, 3)] == [
        (1, Fraction(15, 2), 8, 3), (1, Fraction(11, 2), Fraction(15, 2), 3)]
    assert table[0].tiebreaks[0] is None  # nobody else has 3.5


# ---------------------------------------------------------------------------
# FIDE's own exercise for the 2023 rules (TEC, "Tie-break exercise",
# tec.fide.com, 18 March 2024): a 16-player, 5-round Swiss with half-point
# byes, pairing-allocated byes, forfeits and a withdrawal (12 leaves after
# round 3). Crosstable in the exercise's notation: +W9 is a win with White
# against 9, -F11 a forfeit loss to 11, =BYE a half-point bye, +BYE a
# pairing-allocated bye, -- not paired. The answers are the exercise's.

FIDE_EXERCISE = """
1  +W9  =B13 =W2  +B15 =W4
2  +B10 +W7  =B1  +W16 =B3
3  =W11 +B6  +W8  =B4  =W2
4  +B12 =BYE +W13 =W3  =B1
5  -W13 -B15 +W11 =B7  +W10
6  -B14 -W3  +BYE +W10 +B8
7  +W15 -B2  -B16 =W5  -B11
8  =B16 +W14 -B3  +W13 -W6
9  -B1  -W10 =BYE -F11 +BYE
10 -W2  +B9  -W15 -B6  -B5
11 =B3  -W16 -B5  +F9  +W7
12 -W4  +BYE +F14 --   --
13 +B5  =W1  -B4  -B8  -W14
14 +W6  -B8  -F12 --   +B13
15 -B7  +W5  +B10 -W1  -B16
16 =W8  +B11 +W7  -B2  +W15
"""


def from_crosstable(text: str) -> list[Player]:
    codes = {("+", "BYE"): "U", ("=", "BYE"): "H", ("+", "F"): "+", ("-", "F"): "-",
             ("+", "G"): "1", ("=", "G"): "=", ("-", "G"): "0"}
    players = []
    for line in text.strip().splitlines():
        number, *cells = line.split()
        rounds = []
        for cell in cells:
            if cell == "--":
                rounds.append(Round(None, None, " "))
            elif cell[1:] == "BYE":
                rounds.append(Round(None, None, codes[cell[0], "BYE"]))
            else:
                kind = "F" if cell[1] == "F" else "G"
                colour: Colour | None = "w" if cell[1] == "W" else "b" if cell[1] == "B" else None
                rounds.append(Round(int(cell[2:]), colour, codes[cell[0], kind]))
        players.append(Player(int(number), f"p{number}", 1500, tuple(rounds)))
    check_symmetric(players)
    return players


EXERCISE = from_crosstable(FIDE_EXERCISE)


def test_fides_exercise_scores_for_opponents_count_a_withdrawal_as_draws() -> None:
    # 12 scored 2 (a bye and a forfeit win) and left: his two missing rounds
    # count as draws, so his opponents count 3 (16.3.2).
    adjusted = Field.of(EXERCISE).adjusted
    assert {n: adjusted[n] for n in (1, 2, 4, 6, 10, 12, 13, 14)} == {
        1: 3.5, 2: 4, 4: 3.5, 6: 3, 10: 1, 12: 3, 13: 1.5, 14: 2}


def test_fides_exercise_buchholz() -> None:
    bh = values(EXERCISE, "BH")
    assert {n: bh[n] for n in (1, 2, 3, 4, 5, 8, 11, 16)} == halves(
        p1=12.5, p2=13, p3=15.5, p4=15, p5=8.5, p8=13.5, p11=13.5, p16=12.5)


def test_fides_exercise_buchholz_cut_1() -> None:
    cut = values(EXERCISE, "BH-C1")
    assert {n: cut[n] for n in (1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15, 16)} == halves(
        p1=11, p3=13, p4=11.5, p5=7.5, p7=12.5, p8=12, p9=7.5, p11=12, p12=9.5, p13=12, p14=9, p15=11, p16=11)


def test_fides_exercise_sonneborn_berger() -> None:
    sb = values(EXERCISE, "SB")
    assert {n: sb[n] for n in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16)} == halves(
        p1=8, p2=9.5, p3=10.5, p4=9.75, p5=4.25, p6=6.5, p7=3.25, p8=5.25, p10=1.5, p11=5.75,
        p12=4, p13=4.25, p14=4.5, p15=3.5, p16=7.25)


# ---------------------------------------------------------------------------
# A withdrawal (C.07 16.3.2)


def test_a_withdrawn_opponents_missing_rounds_count_as_draws_in_buchholz() -> None:
    # R1: 1 beats 2, 4 beats 3; then 2 withdraws.
    # R2: 1-3 draw, 4 bye; R3: 4 beats 1, 3 bye.
    # 2 has 0 points but brings 0 + 0.5 + 0.5 = 1 to 1's Buchholz:
    # 1: 1 + 1.5 (3) + 3 (4) = 5.5, where counting 2's zero would give 4.5.
    players = tournament([1800, 1700, 1600, 1500], [
        [(1, 2, "1"), (3, 4, "0")],
        [(1, 3, "="), (4, "U"), (2, " ")],
        [(4, 1, "1"), (3, "U"), (2, " ")],
    ])
    assert values(players, "BH")[1] == Fraction(11, 2)
    # 2's own Buchholz: 1.5 for player 1, and his own 0 twice for the absences.
    assert values(players, "BH")[2] == Fraction(3, 2)


def test_a_zero_point_bye_in_mid_tournament_counts_as_scored_for_the_opponents() -> None:
    # 2 takes a zero-point bye in round 1 and plays on, so it is no
    # withdrawal: 3 counts 2's score as it is, 0 + 1 = 1 (not 1.5).
    players = tournament([1800, 1700, 1600, 1500], [
        [(1, 4, "1"), (2, "Z"), (3, "U")],
        [(2, 3, "1"), (1, "H"), (4, "U")],
    ])
    # 3's Buchholz: his own 1 point for the bye (16.4), and 2's 1.
    assert values(players, "BH")[3] == 2


# ---------------------------------------------------------------------------
# Round robins


CYCLE = tournament([1500, 1600, 1700], [
    [(1, 2, "1"), (3, " ")],
    [(2, 3, "1"), (1, " ")],
    [(3, 1, "1"), (2, " ")],
])


def test_in_a_round_robin_the_bye_adds_nothing_to_buchholz() -> None:
    assert values(CYCLE, "BH", round_robin=True) == halves(p1=2, p2=2, p3=2)
    # Read as a Swiss, each counts a dummy opponent with his own 1 point for
    # his round off, and 2, absent in the last round, brings 1 + 0.5 (16.3.2)
    # to his opponents: 1: 1.5 + 1 + 1, 2: 1 + 1 + 1, 3: 1 + 1.5 + 1.
    assert values(CYCLE, "BH") == halves(p1=3.5, p2=3, p3=3.5)


def test_three_players_who_beat_each_other_in_a_circle_share_the_direct_encounter() -> None:
    table = standings(CYCLE, ["DE"], round_robin=True)
    assert [(s.rank, s.tiebreaks) for s in table] == [(1, (1,)), (1, (1,)), (1, (1,))]


def test_a_tie_direct_encounter_cannot_break_goes_to_the_next_tiebreak() -> None:
    # ARO: 1 met 1600 and 1700 (1650), 2 met 1500 and 1700 (1600), 3 1550.
    table = standings(CYCLE, ["DE", "ARO"], round_robin=True)
    assert [(s.rank, s.player.number, s.tiebreaks) for s in table] == [
        (1, 1, (1, 1650)), (2, 2, (1, 1600)), (3, 3, (1, 1550))]


def test_of_two_players_tied_on_points_the_one_who_won_their_game_is_ahead() -> None:
    # 1: 2.5; 3: 1.5; 2 and 4 on 1 point each, and 2 beat 4 in round 3.
    players = tournament([1500, 1500, 1500, 1500], [
        [(1, 4, "1"), (2, 3, "0")],
        [(4, 3, "1"), (1, 2, "1")],
        [(2, 4, "1"), (3, 1, "=")],
    ])
    table = standings(players, ["DE"], round_robin=True)
    assert [(s.rank, s.player.number, s.tiebreaks) for s in table] == [
        (1, 1, (None,)), (2, 3, (None,)), (3, 2, (1,)), (4, 4, (2,))]


def test_direct_encounter_is_applied_again_among_the_players_it_left_level() -> None:
    # Among 1..4: 1 beat 2 and 4, lost to 3; 2 beat 3 and 4; 4 beat 3.
    # Scores among the four: 1: 2, 2: 2, 3: 1, 4: 1. Again among {1, 2}: 1 beat
    # 2; among {3, 4}: 4 beat 3. Places 1, 2, 4, 3 rather than 1, 1, 3, 3.
    players = tournament([1500] * 4, [
        [(1, 2, "1"), (3, 4, "0")],
        [(3, 1, "1"), (2, 4, "1")],
        [(1, 4, "1"), (2, 3, "1")],
    ])
    field = Field.of(players, round_robin=True)
    assert dict(direct_encounter(field, [[1, 2, 3, 4]])) == {1: 1, 2: 2, 3: 4, 4: 3}


# ---------------------------------------------------------------------------
# Direct encounter in a Swiss, where not all the tied players have met


SWISS_DE = tournament([1500] * 5, [
    [(1, 2, "1"), (3, 4, "1"), (5, "U")],
    [(3, 1, "0"), (4, 2, "0"), (5, "U")],
])


def test_a_player_who_outscored_what_the_others_could_have_is_placed_first() -> None:
    # Among 1, 2, 3: 1 beat both (2 points); 2 and 3 never met and could
    # score at most 1 each, so 1 is first and 2 and 3 stay level.
    field = Field.of(SWISS_DE)
    assert dict(direct_encounter(field, [[1, 2, 3]])) == {1: 1, 2: 2, 3: 2, 4: None, 5: None}


def test_when_not_all_have_met_a_lead_the_others_could_still_match_separates_nobody() -> None:
    # Among 1, 2, 4: 1 beat 2 (1 point, could have 2), 2 beat 4 (1 point, all
    # met), 4 has 0 but could have beaten 1. 1's point is no more than the
    # others could have had, so all three share.
    field = Field.of(SWISS_DE)
    assert dict(direct_encounter(field, [[1, 2, 4]])) == {1: 1, 2: 1, 3: None, 4: 1, 5: None}


def test_a_forfeit_is_no_encounter_in_a_swiss_but_counts_in_a_round_robin() -> None:
    players = tournament([1500] * 4, [
        [(1, 2, "+"), (3, 4, "1")],
        [(1, 3, "0"), (2, 4, "1")],
    ])
    assert [s.tiebreaks for s in standings(players, ["DE"]) if s.points == 1] == [(1,), (1,)]
    table = standings(players, ["DE"], round_robin=True)
    assert [(s.rank, s.player.number) for s in table if s.points == 1] == [(2, 1), (3, 2)]


# ---------------------------------------------------------------------------
# Ratings


def test_half_the_points_against_a_2000_average_is_a_2000_performance() -> None:
    assert performance_rating(1, [1900, 2100]) == 2000


def test_all_the_points_is_800_above_the_average_and_none_800_below() -> None:
    assert performance_rating(2, [1900, 2100]) == 2800
    assert performance_rating(0, [1900, 2100]) == 1200


def test_no_games_played_has_no_rating_tiebreak() -> None:
    assert performance_rating(0, []) is None
    assert average_rating([]) is None


def test_the_average_rating_rounds_halves_up() -> None:
    assert average_rating([1500, 1501]) == 1501
    assert average_rating([1500, 1500, 1501]) == 1500


@given(st.integers(0, 100))
def test_the_dp_table_is_antisymmetric_and_rises_with_the_score(percent: int) -> None:
    assert rating_difference(100 - percent) == -rating_difference(percent)
    if percent < 100:
        assert rating_difference(percent + 1) > rating_difference(percent)


# ---------------------------------------------------------------------------
# Shared places, bad input


def test_players_level_on_everything_share_a_place_and_the_next_place_is_skipped() -> None:
    players = tournament([1500] * 4, [[(1, 2, "1"), (3, 4, "1")]])
    table = standings(players, ["BH"])
    assert [(s.rank, s.player.number) for s in table] == [(1, 1), (1, 3), (3, 2), (3, 4)]


def test_an_unknown_tiebreak_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tiebreaks"):
        standings(SWISS, ["BH", "Koya"])


def test_two_players_with_one_pairing_number_are_refused() -> None:
    with pytest.raises(ValueError, match="same pairing number"):
        Field.of([Player(1, "ada", 1500), Player(1, "bob", 1500)])


def test_an_opponent_outside_the_field_is_refused() -> None:
    with pytest.raises(ValueError, match="not in the tournament"):
        Field.of([Player(1, "ada", 1500, (Round(2, "w", "1"),))])


# ---------------------------------------------------------------------------
# Properties of every standings table


@st.composite
def random_tournaments(draw: st.DrawFn) -> list[Player]:
    size = draw(st.integers(2, 8))
    ratings = draw(st.lists(st.integers(1000, 2500), min_size=size, max_size=size))
    rounds: list[list[Board]] = []
    for _ in range(draw(st.integers(0, 4))):
        order = draw(st.permutations(range(1, size + 1)))
        boards: list[Board] = []
        for red, black in zip(order[::2], order[1::2]):
            kind = draw(st.sampled_from(["game", "game", "forfeit", "unpaired"]))
            if kind == "unpaired":
                boards += [(red, draw(st.sampled_from("UFHZ "))), (black, draw(st.sampled_from("HZ ")))]
            else:
                boards.append((red, black, draw(st.sampled_from("1=0" if kind == "game" else "+-"))))
        if size % 2:
            boards.append((order[-1], draw(st.sampled_from("UFHZ "))))
        rounds.append(boards)
    return tournament(ratings, rounds)


@settings(max_examples=80, deadline=None)
@given(random_tournaments(), st.lists(st.sampled_from(list(TIEBREAKS)), unique=True), st.booleans())
def test_standings_rank_every_player_once_in_the_order_of_points_and_tiebreaks(
        players: list[Player], order: list[str], round_robin: bool) -> None:
    table = standings(players, order, round_robin=round_robin)
    assert sorted(s.player.number for s in table) == [p.number for p in players]
    assert all(a.points >= b.points for a, b in zip(table, table[1:]))
    keys = [_line_key(s, order) for s in table]
    assert keys == sorted(keys)
    assert table[0].rank == 1
    for index, (above, below) in enumerate(zip(table, table[1:]), start=1):
        tied = (above.points, above.tiebreaks) == (below.points, below.tiebreaks)
        assert below.rank == (above.rank if tied else index + 1)


def _line_key(line: Standing, order: Sequence[str]) -> tuple[float, ...]:
    """The line's sort key: points, then each tiebreak best first, None last."""
    parts = [-float(line.points)]
    for code, value in zip(order, line.tiebreaks):
        sign = -1.0 if TIEBREAKS[code].higher_is_better else 1.0
        parts.append(float("inf") if value is None else sign * float(value))
    return tuple(parts)


@settings(max_examples=80, deadline=None)
@given(random_tournaments(), st.booleans())
def test_cutting_a_value_never_raises_buchholz(players: list[Player], round_robin: bool) -> None:
    field = Field.of(players, round_robin)
    full = TIEBREAKS["BH"].compute(field, ())
    cut = TIEBREAKS["BH-C1"].compute(field, ())
    assert all(_number(cut[n]) <= _number(full[n]) for n in full)


def _number(value: object) -> Fraction:
    assert isinstance(value, Fraction)
    return value


# ---------------------------------------------------------------------------
# Size


def _big_swiss(players: int, rounds: int, seed: int = 11) -> list[Player]:
    rng = random.Random(seed)
    schedule: list[list[Board]] = []
    for _ in range(rounds):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        schedule.append([(red, black, rng.choice("1110==0000+-")) for red, black in zip(order[::2], order[1::2])])
    return tournament([rng.randrange(1000, 2600) for _ in range(players)], schedule)


def test_standings_for_a_thousand_players_and_eleven_rounds_rank_everyone_by_points_and_tiebreaks() -> None:
    # Its speed is a figure of bench/tournaments.py (the brief: benchmarks, not timed asserts).
    order = list(TIEBREAKS)
    table = standings(_big_swiss(1000, 11), order)
    assert sorted(s.player.number for s in table) == list(range(1, 1001))
    keys = [_line_key(s, order) for s in table]
    assert keys == sorted(keys)
