"""Tournaments of two-player Rhombus (issue 13): each format is played to the
end with Rhombus games, seeded and rated on the Rhombus ladder."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import starting
from games.models import Game
from ladder.models import Rating, RatingChange
from tournaments import advancing, entering
from tournaments.models import Pairing, Tournament
from tests.tournaments.conftest import play_round

pytestmark = pytest.mark.django_db

FORMATS = [({"format": Tournament.Format.ROUND_ROBIN}, 3), ({"format": Tournament.Format.SWISS, "rounds": 2}, 2),
           ({"format": Tournament.Format.SINGLE}, 2)]


def test_the_tournament_choices_are_the_games_a_player_can_choose() -> None:
    field = Tournament._meta.get_field("rules")
    assert dict(field.choices) == {key: setup.title for key, setup in starting.setups().items()}


@pytest.mark.parametrize("options, rounds", FORMATS)
def test_a_rhombus_tournament_is_played_to_the_end_on_rhombus_s_ladder(
        tournament: Callable[..., Tournament], players: Any, options: dict[str, Any], rounds: int) -> None:
    people = players(4)  # Ace in the Hole ratings 1900, 1890, 1880, 1870 ...
    for index, user in enumerate(people):  # ... but at Rhombus the last is the strongest
        Rating.objects.create(user=user, ladder="rhombus", rating=1600 + 10 * index, rated_games=10)
    t = tournament(rules="rhombus", starts_at=timezone.now(), **options)
    for user in people:
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    seeded = dict(t.entries.values_list("number", "user__username"))
    assert seeded[1] == people[-1].username and t.entries.get(number=1).rating == 1630
    for _ in range(rounds):
        t = Tournament.objects.get(pk=t.pk)
        round_games = Game.objects.filter(tournament_pairing__round__tournament=t,
                                          tournament_pairing__round__number=t.current_round)
        assert {(g.kind, g.players, g.event) for g in round_games} == {("rhombus", 2, "Autumn Cup")}
        play_round(t, lambda p: "red" if p.red.number < p.black.number else "black")
        advancing.advance(t.pk)
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == "finished", t.end_note
    assert set(RatingChange.objects.values_list("ladder", flat=True)) == {"rhombus"}
    first_board = Pairing.objects.filter(round__tournament=t).select_related("red", "game").first()
    assert first_board.game.seat_of(first_board.red.user) == "SW"  # the pairing's red sits first


def test_the_organizer_chooses_the_game_on_the_form(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    assert 'value="rhombus-formation"' in client.get("/tournaments/new/").content.decode()
