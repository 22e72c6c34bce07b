"""No notice holds a card of a hand (issue 26: "no hand, no card, ever"): a
whole correspondence game is played with the player to move away, every turn
notice and the game-over notices are sent, and neither their params nor their
text in any language names a card either player held at any point."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation

import engine
from games import notices as game_notices
from games import moving, payloads, store
from games.models import Game
from notify.models import Notification
from notify.texts import describe
from tests.notify.playing import correspondence

pytestmark = pytest.mark.django_db(transaction=True)


def hands_now(game: Game) -> set[str]:
    """Every card in a hand, as each seat's own view shows it (games.payloads.seat_view)."""
    return {card for seat in game.seat_names for card in payloads.seat_view(game, seat)["hand"] or []}


def test_no_notice_of_a_whole_game_names_a_card_of_a_hand(alice: Any, bob: Any) -> None:
    game = correspondence(alice, bob)
    held: set[str] = set()
    rng = random.Random(26)
    for _ in range(200):  # a game ends within 52 turns of each side (R15, R16); bounded anyway
        game = store.load(game.pk)
        if not game.running:
            break
        held |= hands_now(game)
        action = rng.choice(engine.legal_actions(engine.from_json(game.position)))
        mover = next(seat.user for seat in Game.objects.get(pk=game.pk).table if seat.name == game.to_move)
        moving.submit(game.pk, mover, game.ply, str(action))
        game_notices.tell_turn(game.pk, game.ply + 1)
    else:
        pytest.fail("the game did not end within 200 actions")
    if Game.objects.get(pk=game.pk).status == Game.Status.RUNNING:
        pytest.fail("the game still runs")
    told = list(Notification.objects.all())
    assert {n.kind for n in told} >= {"turn", "game-end"}
    assert len(held) > 10
    cards = re.compile(r"\b(" + "|".join(sorted(held)) + r")\b")
    for notice in told:
        said = [json.dumps(notice.params), notice.url]
        for language, _name in settings.LANGUAGES:
            with translation.override(language):
                said.extend(describe(notice.kind, notice.params))
        for text in said:
            assert not cards.search(text), (notice.kind, text)
