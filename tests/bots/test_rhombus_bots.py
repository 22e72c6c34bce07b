"""Bots in Rhombus games, a four-player game mixing people and bots
included: each bot is handed its own seat's view only (RH29, RH36)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import bots as engine_bots
from engine.rhombus import View as RhombusView
from games import botmoves, bots, moving, starting
from games.models import Game, Move
from games.timecontrols import TimeControl

pytestmark = pytest.mark.django_db

RULES = engine.GAMES["rhombus"]


def test_bots_take_their_seats_in_a_mixed_team_game_seeing_only_their_own_hands(
        alice: Any, bob: Any, bot_accounts: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    real_choose = engine_bots.choose

    def recording_choose(view: Any, level: str, *, seed: Any, seconds: Any = None) -> Any:
        seen.append(view)
        return real_choose(view, level, seed=seed, seconds=seconds)

    monkeypatch.setattr(engine_bots, "choose", recording_choose)
    game = starting.start_game(alice, bot_accounts["greedy"], bob, bot_accounts["ismcts-1"], seed="mixed",
                               time_control=TimeControl.parse("10+5"), setup=starting.Setup("rhombus"))
    assert bots.bot_seats(game) == {"SE": "greedy", "NW": "ismcts-1"}
    for ply, (user, seat) in enumerate(((alice, "SW"), (None, "SE"), (bob, "NE"), (None, "NW")) * 2):
        position = Game.objects.get(pk=game.pk).position
        if user is None:
            assert botmoves.play_move(game.pk, ply) == "played"
            view = seen[-1]
            assert type(view) is RhombusView and view.seat == seat
            assert list(view.hand or ()) == position["seats"][seat]["hand"]
            assert "mixed" not in repr(view)  # nor the seed that fixes the pile
        else:
            moving.submit(game.pk, user, ply, str(RULES.legal_actions(RULES.from_json(position))[0]))
    moves = list(Move.objects.filter(game=game).values_list("seat", flat=True))
    assert moves == ["SW", "SE", "NE", "NW"] * 2 and len(seen) == 4


def test_two_bots_play_a_rhombus_game_on_the_site_to_a_rules_ending(bot_accounts: dict[str, Any]) -> None:
    game = starting.start_game(bot_accounts["greedy"], bot_accounts["random"], seed="bots-duel",
                               time_control=TimeControl.parse("3d"), setup=starting.Setup("rhombus"))
    for ply in range(400):  # the quiet rule (RH27) ends any game well before
        if not Game.objects.get(pk=game.pk).running:
            break
        assert botmoves.play_move(game.pk, ply) == "played"
    g = Game.objects.get(pk=game.pk)
    assert g.status == "finished" and g.reason in ("no-pieces", "no-action", "quiet"), (g.ply, g.reason)
    assert g.moves.count() == g.ply
    replayed = RULES.start("bots-duel")
    for action in g.moves.values_list("action", flat=True):
        replayed = RULES.apply(replayed, action)  # the stored canonical texts replay the game
    assert RULES.to_json(replayed) == g.position
