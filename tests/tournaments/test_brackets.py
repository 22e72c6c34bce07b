"""Elimination brackets: the seeding and byes of every field from 2 to 64, and
whole tournaments played to the end (seeds winning, and random results) with
the counts a tournament director would check: one champion, one loss each in
single elimination, two in double, the reset, the ranking."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.brackets import (
    Bracket,
    BracketError,
    BracketState,
    LoserOf,
    Seed,
    Slot,
    WinnerOf,
    build,
    double_elimination,
    drop_order,
    final_ranking,
    resolve,
    seeding_order,
    single_elimination,
)

SIZES = range(2, 65)
Chooser = Callable[[Slot], int]


def seeds_win(slot: Slot) -> int:
    """Players are their seed numbers in these tests, so the lower one is the better seed."""
    assert slot.top is not None and slot.bottom is not None
    return min(slot.top, slot.bottom)


def at_random(rng: random.Random) -> Chooser:
    def choose(slot: Slot) -> int:
        assert slot.top is not None and slot.bottom is not None
        return rng.choice([slot.top, slot.bottom])
    return choose


def play_out(bracket: Bracket, choose: Chooser) -> BracketState:
    """Play every ready match, a round of ready matches at a time, until none is left."""
    players = list(range(1, bracket.entrants + 1))
    winners: dict[str, int] = {}
    while True:
        state = resolve(bracket, players, winners)
        if not state.ready:
            return state
        for match_id in state.ready:
            winners[match_id] = choose(state[match_id])


def losses(state: BracketState) -> Counter[int]:
    return Counter(slot.loser for slot in state if slot.status == "done" and slot.loser is not None)


def played(state: BracketState) -> list[Slot]:
    return [slot for slot in state if slot.status == "done"]


def met_before(state: BracketState) -> list[tuple[str, int, int]]:
    """Losers'-bracket drop-in matches whose two players had already met, in playing order."""
    met: set[frozenset[int]] = set()
    rematches = []
    for slot in played(state):
        assert slot.top is not None and slot.bottom is not None
        pair = frozenset((slot.top, slot.bottom))
        if slot.match.section == "L" and isinstance(slot.match.bottom, LoserOf) and pair in met:
            rematches.append((slot.id, slot.top, slot.bottom))
        met.add(pair)
    return rematches


# --- seeding and byes -----------------------------------------------------


def test_the_seeding_order_is_the_classic_one() -> None:
    assert seeding_order(2) == [1, 2]
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seeding_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128])
def test_the_top_seeds_are_kept_apart_until_the_round_of_their_number(size: int) -> None:
    # Seeds 1..2^j sit one in each block of size/2^j lines: 1 and 2 only meet in the final.
    order = seeding_order(size)
    assert sorted(order) == list(range(1, size + 1))
    groups = 1
    while groups <= size:
        block = size // groups
        homes = [order.index(seed) // block for seed in range(1, groups + 1)]
        assert sorted(homes) == list(range(groups))
        groups *= 2


@pytest.mark.parametrize("entrants", SIZES)
def test_the_top_seeds_get_the_byes_and_start_in_round_two(entrants: int) -> None:
    bracket = single_elimination(entrants)
    byes = bracket.size - entrants
    assert bracket.byes == tuple(range(1, byes + 1))
    first_round = [s.number for m in bracket.rounds("W")[0] if m.round == 1
                   for s in (m.top, m.bottom) if isinstance(s, Seed)]
    second_round = [s.number for m in bracket.matches if m.round == 2 and m.section == "W"
                    for s in (m.top, m.bottom) if isinstance(s, Seed)]
    assert sorted(first_round) == list(range(byes + 1, entrants + 1))
    assert sorted(second_round) == list(range(1, byes + 1))
    # Round one is bye-free: every match in it has two seeds of the field.
    assert len(first_round) == 2 * len(bracket.rounds("W")[0])


def test_a_field_of_six_gives_seeds_one_and_two_a_bye() -> None:
    bracket = single_elimination(6)
    assert [(m.id, m.top, m.bottom) for m in bracket.matches] == [
        ("W1-2", Seed(4), Seed(5)),
        ("W1-4", Seed(3), Seed(6)),
        ("W2-1", Seed(1), WinnerOf("W1-2")),
        ("W2-2", Seed(2), WinnerOf("W1-4")),
        ("W3-1", WinnerOf("W2-1"), WinnerOf("W2-2")),
    ]


def test_double_elimination_of_four_is_the_textbook_bracket() -> None:
    bracket = double_elimination(4)
    assert [(m.id, m.top, m.bottom, m.winner_to, m.loser_to) for m in bracket.matches] == [
        ("W1-1", Seed(1), Seed(4), "W2-1", "L1-1"),
        ("W1-2", Seed(2), Seed(3), "W2-1", "L1-1"),
        ("W2-1", WinnerOf("W1-1"), WinnerOf("W1-2"), "GF", "L2-1"),
        ("L1-1", LoserOf("W1-1"), LoserOf("W1-2"), "L2-1", None),
        ("L2-1", WinnerOf("L1-1"), LoserOf("W2-1"), "GF", None),
        ("GF", WinnerOf("W2-1"), WinnerOf("L2-1"), "GF2", "GF2"),
        ("GF2", LoserOf("GF"), WinnerOf("GF"), None, None),
    ]


@pytest.mark.parametrize("entrants", SIZES)
def test_match_counts(entrants: int) -> None:
    assert len(single_elimination(entrants).matches) == entrants - 1
    assert len(single_elimination(entrants, third_place=True).matches) == entrants - 1 + (entrants >= 4)
    # Winners' n - 1, losers' n - 2, the grand final and its reset.
    assert len(double_elimination(entrants).matches) == 2 * entrants - 1


@pytest.mark.parametrize("entrants", SIZES)
def test_every_source_names_a_match_that_comes_earlier(entrants: int) -> None:
    for bracket in (double_elimination(entrants), single_elimination(entrants, third_place=True)):
        seen: set[str] = set()
        fed: Counter[object] = Counter()
        for match in bracket.matches:
            for source in (match.top, match.bottom):
                if not isinstance(source, Seed):
                    assert source.match in seen, (match.id, source)
                fed[source] += 1
            seen.add(match.id)
        # Each seed, winner and loser goes to exactly one place.
        assert max(fed.values()) == 1
        assert len({m.id for m in bracket.matches}) == len(bracket.matches)


def test_it_refuses_a_field_of_one_and_a_third_place_match_in_double_elimination() -> None:
    with pytest.raises(ValueError):
        single_elimination(1)
    with pytest.raises(ValueError):
        build(8, double=True, third_place=True)


# --- single elimination played out ---------------------------------------


@pytest.mark.parametrize("entrants", SIZES)
@pytest.mark.parametrize("third_place", [False, True])
def test_single_elimination_everybody_but_the_champion_loses_once(entrants: int, third_place: bool) -> None:
    for choose in (seeds_win, at_random(random.Random(entrants))):
        state = play_out(single_elimination(entrants, third_place), choose)
        assert state.complete
        lost = losses(state)
        champion = state.champion
        assert champion is not None and champion not in lost
        # The third-place match gives its loser a second loss; nobody else has one.
        third_loser = state["3P"].loser if "3P" in state.bracket else None
        assert {p: n for p, n in lost.items() if p != third_loser} == {
            p: 1 for p in range(1, entrants + 1) if p not in (champion, third_loser)}
        if third_loser is not None:
            assert lost[third_loser] == 2


@pytest.mark.parametrize("entrants", range(4, 65))
def test_with_the_seeds_winning_the_semis_are_1_v_4_and_2_v_3(entrants: int) -> None:
    state = play_out(single_elimination(entrants, third_place=True), seeds_win)
    final_round = state.bracket.round_count("W")
    final = state[f"W{final_round}-1"]
    semis = [state[f"W{final_round - 1}-{i}"] for i in (1, 2)]
    assert (final.top, final.bottom, final.winner) == (1, 2, 1)
    assert [(s.top, s.bottom) for s in semis] == [(1, 4), (2, 3)]
    assert (state["3P"].top, state["3P"].bottom, state["3P"].winner) == (4, 3, 3)


def test_the_third_place_match_waits_for_both_semis() -> None:
    bracket = single_elimination(4, third_place=True)
    state = resolve(bracket, [1, 2, 3, 4], {"W1-1": 4})
    assert state["3P"].status == "waiting"
    assert state["3P"].top == 1 and state["3P"].bottom is None
    state = resolve(bracket, [1, 2, 3, 4], {"W1-1": 4, "W1-2": 2})
    assert state.ready == ("W2-1", "3P")


def test_single_elimination_ranking_shares_places_by_round() -> None:
    state = play_out(single_elimination(8), seeds_win)
    assert final_ranking(state) == [(1, 1), (2, 2), (3, 3), (3, 4), (5, 5), (5, 6), (5, 7), (5, 8)]
    state = play_out(single_elimination(8, third_place=True), seeds_win)
    assert final_ranking(state)[:4] == [(1, 1), (2, 2), (3, 3), (4, 4)]


def test_a_ranking_before_the_end_places_only_those_who_are_out() -> None:
    bracket = single_elimination(6)
    assert final_ranking(resolve(bracket, list(range(1, 7)), {})) == []
    # Seed 5 beats 4, 6 beats 3: 4 and 3 are out in round one, which is places 5 and 6.
    state = resolve(bracket, list(range(1, 7)), {"W1-2": 5, "W1-4": 6})
    assert final_ranking(state) == [(5, 3), (5, 4)]


# --- double elimination played out ---------------------------------------


def check_double_elimination(state: BracketState) -> None:
    entrants = state.bracket.entrants
    assert state.complete
    champion = state.champion
    assert champion is not None
    lost = losses(state)
    assert lost[champion] <= 1
    assert all(lost[p] == 2 for p in range(1, entrants + 1) if p != champion)
    # A reset is played exactly when the losers'-bracket winner took the first final.
    assert (state["GF2"].status == "done") == (state["GF"].winner == state["GF"].bottom)
    assert len(played(state)) == 2 * entrants - 2 + (state["GF2"].status == "done")
    assert [place for place, _ in final_ranking(state)][:2] == [1, 2]
    assert sorted(p for _, p in final_ranking(state)) == list(range(1, entrants + 1))


@pytest.mark.parametrize("entrants", SIZES)
def test_double_elimination_everybody_but_the_champion_loses_twice(entrants: int) -> None:
    bracket = double_elimination(entrants)
    check_double_elimination(play_out(bracket, seeds_win))
    for trial in range(3):
        check_double_elimination(play_out(bracket, at_random(random.Random(1000 * entrants + trial))))


@settings(max_examples=60, deadline=None)
@given(entrants=st.integers(2, 64), rng=st.randoms(use_true_random=False))
def test_double_elimination_holds_for_any_results(entrants: int, rng: random.Random) -> None:
    check_double_elimination(play_out(double_elimination(entrants), at_random(rng)))


@pytest.mark.parametrize("entrants", SIZES)
def test_with_the_seeds_winning_the_grand_final_is_1_v_2_without_a_reset(entrants: int) -> None:
    state = play_out(double_elimination(entrants), seeds_win)
    assert (state["GF"].top, state["GF"].bottom, state["GF"].winner) == (1, 2, 1)
    assert state["GF2"].status == "void" and state.reset_needed is False
    assert (state.champion, state.runner_up) == (1, 2)


def test_the_reset_is_played_when_the_losers_bracket_winner_takes_the_first_final() -> None:
    bracket = double_elimination(4)
    seeds = [1, 2, 3, 4]
    results = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 3, "L2-1": 2}
    state = resolve(bracket, seeds, results)
    assert state.ready == ("GF",) and state.reset_needed is None and state.champion is None
    state = resolve(bracket, seeds, {**results, "GF": 2})
    assert state.reset_needed is True and state.ready == ("GF2",)
    assert (state["GF2"].top, state["GF2"].bottom) == (1, 2)
    assert state.champion is None
    state = resolve(bracket, seeds, {**results, "GF": 2, "GF2": 1})
    assert (state.champion, state.runner_up) == (1, 2)
    assert losses(state) == Counter({1: 1, 2: 2, 3: 2, 4: 2})


def test_a_result_for_an_unneeded_reset_is_refused() -> None:
    results = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 3, "L2-1": 2, "GF": 1, "GF2": 2}
    with pytest.raises(BracketError):
        resolve(double_elimination(4), [1, 2, 3, 4], results)


def test_double_elimination_of_two_is_a_grand_final_and_its_reset() -> None:
    bracket = double_elimination(2)
    assert [m.id for m in bracket.matches] == ["W1-1", "GF", "GF2"]
    state = resolve(bracket, [7, 9], {"W1-1": 9, "GF": 7, "GF2": 7})
    assert (state.champion, state.runner_up) == (7, 9)


def test_double_elimination_ranking_follows_the_losers_bracket() -> None:
    state = play_out(double_elimination(8), seeds_win)
    assert final_ranking(state) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6), (7, 7), (7, 8)]


def test_byes_are_not_losses() -> None:
    # Five players: seeds 1-3 have byes. Seed 1 loses in round two and in the
    # losers' bracket; with a bye counted as a loss he would be out a match early.
    bracket = double_elimination(5)
    assert "W1-1" not in bracket and "L1-1" not in bracket
    state = play_out(bracket, lambda slot: max(slot.top or 0, slot.bottom or 0))
    check_double_elimination(state)
    assert losses(state)[1] == 2
    games_of_seed_one = [s.id for s in played(state) if 1 in (s.top, s.bottom)]
    assert games_of_seed_one == ["W2-1", "L3-1"]


# --- the losers' bracket draw ---------------------------------------------


def test_drop_in_orders() -> None:
    assert drop_order(1, 8) == [8, 7, 6, 5, 4, 3, 2, 1]
    assert drop_order(2, 8) == [5, 6, 7, 8, 1, 2, 3, 4]
    assert drop_order(3, 4) == [4, 3, 2, 1]
    assert drop_order(1, 1) == [1]


@pytest.mark.parametrize("entrants", [8, 16, 32, 64])
def test_with_the_seeds_winning_no_drop_in_meets_an_old_opponent_before_the_losers_final(entrants: int) -> None:
    state = play_out(double_elimination(entrants), seeds_win)
    rematches = met_before(state)
    # The losers' final cannot avoid it: seed 2 lost the winners' final and
    # meets the best of the rest, seed 3, whom he beat in the semi-final.
    final = f"L{2 * (state.bracket.round_count('W') - 1)}-1"
    assert rematches == [(final, 3, 2)]


@pytest.mark.parametrize("entrants", [8, 16, 32, 64])
def test_the_early_losers_rounds_never_hold_a_rematch(entrants: int) -> None:
    # Round 2 of the losers' bracket pairs winners'-round-1 losers from one
    # part of the draw with winners'-round-2 losers from another, and the
    # alternating drop-in order keeps that up until the round numbered like
    # the winners' final: there no result can make two old opponents meet.
    bracket = double_elimination(entrants)
    last_clean_round = bracket.round_count("W") - 1
    for trial in range(20):
        state = play_out(bracket, at_random(random.Random(trial)))
        met: set[frozenset[int]] = set()
        for slot in played(state):
            assert slot.top is not None and slot.bottom is not None
            pair = frozenset((slot.top, slot.bottom))
            if slot.match.section == "L" and slot.match.round <= last_clean_round:
                assert pair not in met, (trial, slot.id)
            met.add(pair)


# --- refusing results that tell no story ---------------------------------


def test_it_refuses_results_it_cannot_place() -> None:
    bracket = single_elimination(4)
    seeds = [1, 2, 3, 4]
    with pytest.raises(BracketError, match="did not play"):
        resolve(bracket, seeds, {"W1-1": 2})
    with pytest.raises(BracketError, match="not yet both players"):
        resolve(bracket, seeds, {"W1-1": 1, "W2-1": 1})
    with pytest.raises(BracketError, match="no such match"):
        resolve(bracket, seeds, {"W1-3": 1})
    with pytest.raises(BracketError, match="4 entrants"):
        resolve(bracket, [1, 2, 3], {})
    with pytest.raises(BracketError, match="twice"):
        resolve(bracket, [1, 2, 3, 3], {})


def test_players_are_whatever_ids_the_site_uses() -> None:
    state = resolve(single_elimination(3), [501, 77, 12], {"W1-2": 12})
    assert state["W2-1"].top == 501 and state["W2-1"].bottom == 12
    assert state.ready == ("W2-1",) and state.finished == ("W1-2",)
