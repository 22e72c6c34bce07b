"""results.py: a player's rounds in TRF-16's terms, and what they add up to."""

from __future__ import annotations

import pytest

from tournaments.results import Player, Round, check_symmetric


def test_points_count_wins_draws_forfeits_and_byes_as_trf_says() -> None:
    rounds = (Round(2, "w", "1"), Round(3, "b", "="), Round(4, "w", "+"), Round(None, None, "H"),
              Round(5, "b", "-"), Round(None, None, "U"), Round(None, None, "Z"), Round(None, None, " "))
    assert Player(1, "ada", 1500, rounds).points == 4.0


def test_only_games_played_over_the_board_have_colours_that_count() -> None:
    player = Player(1, "ada", 1500, (Round(2, "w", "1"), Round(3, "b", "+"), Round(None, None, "U"),
                                     Round(4, "b", "0")))
    assert player.colours() == ["w", "b"]
    assert player.opponents() == [2, 3, 4]
    assert player.had_pairing_bye()


@pytest.mark.parametrize("code", ["U", "F", "+"])
def test_a_point_without_playing_counts_as_the_one_bye(code: str) -> None:
    opponent = None if code != "+" else 2
    assert Player(1, "ada", 1500, (Round(opponent, None, code),)).had_pairing_bye()


def test_a_half_point_bye_or_a_loss_is_no_pairing_bye() -> None:
    assert not Player(1, "ada", 1500, (Round(None, None, "H"), Round(2, "b", "-"))).had_pairing_bye()


@pytest.mark.parametrize(("opponent", "code"), [(None, "1"), (2, "U"), (2, "?")])
def test_a_round_that_cannot_be_is_refused(opponent: int | None, code: str) -> None:
    with pytest.raises(ValueError):
        Round(opponent, None, code)


def test_a_game_must_appear_on_both_records_with_opposite_colours_and_results() -> None:
    good = [Player(1, "a", 1500, (Round(2, "w", "1"),)), Player(2, "b", 1500, (Round(1, "b", "0"),))]
    check_symmetric(good)
    for bad in ([Player(1, "a", 1500, (Round(2, "w", "1"),)), Player(2, "b", 1500, (Round(1, "b", "1"),))],
                [Player(1, "a", 1500, (Round(2, "w", "1"),)), Player(2, "b", 1500, (Round(1, "w", "0"),))],
                [Player(1, "a", 1500, (Round(2, "w", "1"),)), Player(2, "b", 1500, (Round(None, None, "U"),))]):
        with pytest.raises(ValueError):
            check_symmetric(bad)


def test_two_absent_players_may_both_lose_by_forfeit() -> None:
    check_symmetric([Player(1, "a", 1500, (Round(2, "w", "-"),)), Player(2, "b", 1500, (Round(1, "b", "-"),))])
