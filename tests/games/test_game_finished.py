"""A game's end reaches the apps above games through one signal sent inside
the transaction that records the result (games.signals.game_finished); that
games imports none of them is import-linter's contract (tests/site/test_floors.py)."""

from __future__ import annotations

from typing import Any

import pytest

from games import finishing, starting
from games.models import Game
from games.signals import game_finished
from ladder.models import RatingChange


class Refused(Exception):
    pass


@pytest.mark.django_db(transaction=True)
def test_a_subscriber_that_fails_rolls_the_result_back_with_its_ratings(alice: Any, bob: Any) -> None:
    def refuse(sender: Any, game: Game, **kwargs: Any) -> None:
        assert RatingChange.objects.filter(game=game).count() == 2  # the ladder has already rated it
        raise Refused

    game = starting.start_game(alice, bob, seed="tests-game-seed")
    game_finished.connect(refuse, dispatch_uid="test.refuse")
    try:
        with pytest.raises(Refused):
            finishing.resign(game.pk, alice)
    finally:
        game_finished.disconnect(dispatch_uid="test.refuse")
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    assert not RatingChange.objects.filter(game=game).exists()
    finishing.resign(game.pk, alice)
    assert RatingChange.objects.filter(game=game).count() == 2
