"""Elimination tournaments on the database: byes to the top seeds, matches of
several games with alternating colours and extra games, walkovers, the double
elimination's losers' bracket and grand-final reset, and the end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from tournaments import advancing, entering, scoring
from tournaments.models import Pairing, Tournament
from tests.tournaments.conftest import play_round

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def started(tournament: Make, players: Any, count: int, **settings: Any) -> Tournament:
    t = tournament(starts_at=timezone.now(), **settings)
    for user in players(count):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    return fresh(t)


def run_to_the_end(t: Tournament, decide: Callable[[Pairing], str | None], limit: int = 60) -> Tournament:
    """Play every game as ``decide`` says and advance (pause 0), until the end."""
    for _ in range(limit):
        t = fresh(t)
        if t.status == "finished":
            return t
        play_round(t, decide)
        advancing.advance(t.pk)
    raise AssertionError("the tournament did not end")


def seed_wins(pairing: Pairing) -> str:
    """The better seed (lower pairing number) wins."""
    return "red" if pairing.red.number < pairing.black.number else "black"


def test_five_players_single_elimination_gives_the_top_three_seeds_byes(tournament: Make, players: Any) -> None:
    t = started(tournament, players, 5, format=Tournament.Format.SINGLE)
    first = Pairing.objects.filter(round__tournament=t)
    # 1, 2 and 3 have byes; 2 v 3 can be played at once, 1 waits for 4 v 5.
    assert [(p.match, p.red.number, p.black.number) for p in first] == [("W1-2", 4, 5), ("W2-2", 2, 3)]
    t = run_to_the_end(t, seed_wins)
    state = scoring.bracket_of(t)
    assert state.champion == 1 and state.runner_up == 2
    assert {(p.match, p.red.number, p.black.number) for p in Pairing.objects.filter(match="W3-1")} == {("W3-1", 1, 2)}


def test_a_best_of_three_alternates_colours_and_stops_when_decided(tournament: Make, players: Any) -> None:
    t = started(tournament, players, 2, format=Tournament.Format.SINGLE, match_length=3)
    t = run_to_the_end(t, seed_wins)
    games = list(Pairing.objects.filter(match="W1-1").order_by("match_game"))
    assert [(g.red.number, g.black.number, g.result) for g in games] == [(1, 2, "1-0"), (2, 1, "0-1")]
    assert scoring.bracket_of(t).champion == 1


def test_a_level_match_goes_to_extra_games(tournament: Make, players: Any) -> None:
    t = started(tournament, players, 2, format=Tournament.Format.SINGLE)
    draws = iter([None, None])  # two draws, then Black wins game 3
    t = run_to_the_end(t, lambda p: next(draws, "black"))
    games = list(Pairing.objects.filter(match="W1-1").order_by("match_game"))
    assert [(g.red.number, g.result) for g in games] == [(1, "1/2"), (2, "1/2"), (1, "0-1")]
    assert scoring.bracket_of(t).champion == 2


def test_a_withdrawn_player_loses_the_match_by_walkover(tournament: Make, players: Any) -> None:
    t = tournament(starts_at=timezone.now(), format=Tournament.Format.SINGLE)
    users = players(4)
    for user in users:
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    entering.withdraw(t.pk, users[3])  # seed 4, in W1-1 against seed 1, mid-game
    t = run_to_the_end(fresh(t), seed_wins)
    assert scoring.bracket_of(t).champion == 1


def test_double_elimination_with_a_reset_and_two_losses_for_everyone_else(tournament: Make, players: Any) -> None:
    t = started(tournament, players, 4, format=Tournament.Format.DOUBLE)

    def upset_in_the_grand_final(pairing: Pairing) -> str:
        if pairing.match == "GF":  # the losers'-bracket winner takes the first grand final
            return "red" if pairing.red.number != 1 else "black"
        return seed_wins(pairing)

    t = run_to_the_end(t, upset_in_the_grand_final)
    state = scoring.bracket_of(t)
    assert state.reset_needed and state.champion == 1
    losses: dict[int, int] = {}
    for slot in state:
        if slot.loser is not None:
            losses[slot.loser] = losses.get(slot.loser, 0) + 1
    assert losses == {1: 1, 2: 2, 3: 2, 4: 2}


def test_without_a_reset_the_grand_final_decides(tournament: Make, players: Any) -> None:
    t = started(tournament, players, 4, format=Tournament.Format.DOUBLE, grand_final_reset=False)
    t = run_to_the_end(t, lambda p: "red" if p.match == "GF" and p.red.number != 1 else (
        "black" if p.match == "GF" else seed_wins(p)))
    assert not Pairing.objects.filter(match="GF2").exists()
    assert t.status == "finished"


def test_an_elimination_game_knows_its_round_s_number_beside_its_match_s_label(
        tournament: Make, players: Any) -> None:
    """Issue 38, 11: the game's JSON gives its round as the number the event
    stream's tournament_round_started has, while the record's label names the match."""
    t = run_to_the_end(started(tournament, players, 5, format=Tournament.Format.SINGLE), seed_wins)
    played = Pairing.objects.filter(round__tournament=t, game__isnull=False).select_related("game", "round")
    assert {(p.game.event_round, p.game.event_round_number) for p in played} == {
        (f"{p.match} game {p.match_game}", p.round.number) for p in played}
    assert {p.round.number for p in played} == {1, 2, 3}
