"""Issue 24: the live path never lists a Rhombus position's actions. The
mover's view names the card sets, the options answers come from the builder,
and the action played is recorded with its canonical text (N1), while the
engine's full list (``engine.rhombus.rules.legal``) is never asked for, even
for a Formation flush of four movers whose list is tens of thousands long."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.rhombus import rules
from games import moving, payloads, starting, steps, store
from games.models import Game, Move
from tests.rhombus_steps import FLUSH, build, flush_on_an_open_board

pytestmark = pytest.mark.django_db


@pytest.fixture
def listings(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every position whose legal actions the engine lists from now on."""
    listed: list[Any] = []
    real = rules.legal

    def counting(s: Any) -> Any:
        listed.append(s)
        return real(s)

    monkeypatch.setattr(rules, "legal", counting)
    return listed


def flush_game(alice: Any, bob: Any) -> Game:
    game = starting.start_game(alice, bob, seed="live-path", setup=starting.Setup("rhombus", "formation"))
    flush_on_an_open_board(game.pk)
    return Game.objects.get(pk=game.pk)


def test_a_formation_flush_is_viewed_built_and_played_without_a_listing(
        alice: Any, bob: Any, listings: list[Any]) -> None:
    game = flush_game(alice, bob)
    view = payloads.view_for(store.load(game.pk), alice)
    assert "legal" not in view and sorted(FLUSH) in [sorted(cards) for cards in view["sets"]]
    rng = random.Random(5)

    def ask(cards: list[str], done: list[str]) -> dict[str, Any]:
        return dict(steps.options(store.load(game.pk), alice, 0, cards, done))

    text = build(ask, [FLUSH], rng)
    after = moving.submit(game.pk, alice, 0, text)
    payloads.view_for(after, alice)
    payloads.view_for(store.load(game.pk), bob)
    assert listings == []  # neither the views, nor the options, nor the move listed a position
    recorded = Move.objects.get(game_id=game.pk, ply=0).action
    assert recorded in [str(action) for action in rules.legal_actions(payloads.state_of(game))]  # canonical (N1)
