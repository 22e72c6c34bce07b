"""A card typed from the wrong hand is refused as not in the player's hand (R7), not as the wrong turn."""

from __future__ import annotations

import pytest

from games import moving, refusals
from games.models import Game

pytestmark = pytest.mark.django_db


def test_red_typing_one_of_blacks_cards_on_reds_turn_is_told_it_is_not_in_her_hand(game: Game) -> None:
    black_card = game.position["hands"]["black"][0]
    with pytest.raises(refusals.Refusal) as refused:
        moving.submit(game.pk, game.seat("red").user, 0, f"{black_card} burn")
    message = str(refused.value)
    assert message == f"{black_card} burn: {black_card}, a Black card, is not in Red's hand (R7)"
    game.refresh_from_db()
    assert game.ply == 0 and not game.moves.exists()


def test_black_acting_on_reds_turn_is_still_told_whose_turn_it_is(game: Game) -> None:
    black_card = game.position["hands"]["black"][0]
    with pytest.raises(refusals.Refusal, match=r"^it is Red's turn \(R7\)$"):
        moving.submit(game.pk, game.seat("black").user, 0, f"{black_card} burn")
