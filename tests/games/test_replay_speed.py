"""A replay page replays its game once, without listing each position's actions (issue 22, finding 4).

The page showed each step's spectator view and, once over, every hand, but
built them by listing every legal action of every position twice (once to
check each action, once for each view's ending): 13-21 s for a 200-ply
game, minutes for Formation's 2,000. The engine's full list
(``engine.rhombus.rules.legal``) is counted here while the public page is
built; ``bench/replay.py`` times it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.record import RhombusRecord
from engine import rhombus
from engine.rhombus import State, apply, fastplay, rules
from games import finishing, moving, starting
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def listings(monkeypatch: pytest.MonkeyPatch) -> list[State]:
    """Every position whose legal actions the engine lists from now on."""
    listed: list[State] = []
    real = rules.legal

    def counting(s: State) -> rules.Legal:
        listed.append(s)
        return real(s)

    monkeypatch.setattr(rules, "legal", counting)
    return listed


def random_record(seed: str, players: int, variant: str, plies: int) -> RhombusRecord:
    start = RhombusRecord.start(seed, ["ann", "ben", "cat", "dan"][:players], variant=variant)
    s, rng, actions = start.new_game(), random.Random(seed), []
    while len(actions) < plies and (move := fastplay.random_move(fastplay.Sim(s), rng)) is not None:
        actions.append(fastplay.to_action(s, move))
        s = apply(s, actions[-1])
    return RhombusRecord(start.commitment, start.players, variant, start.dealer, seed, tuple(actions))


def test_a_finished_formation_game_s_replay_lists_no_position_s_actions(
        alice: Any, bob: Any, listings: list[State]) -> None:
    game = starting.start_game(alice, bob, seed="speed", setup=starting.Setup("rhombus", variant="formation"))
    users = {seat.name: seat.user for seat in Game.objects.get(pk=game.pk).table}
    rng = random.Random(3)
    for ply in range(40):  # random moves through the site, as players would send them
        current = Game.objects.get(pk=game.pk)
        s = rhombus.from_json(current.position)
        move = fastplay.random_move(fastplay.Sim(s), rng)
        assert move is not None
        moving.submit(game.pk, users[current.to_move], ply, str(fastplay.to_action(s, move)))
    finishing.resign(game.pk, alice)
    listings.clear()

    page = Client().get(reverse("games:replay", args=[game.pk]))

    assert page.status_code == 200
    assert page.content.count(b'data-step="') == 41  # Start and the 40 actions
    assert len(listings) == 0  # was 2 a ply


def test_an_imported_long_game_s_replay_lists_no_position_s_actions(listings: list[State]) -> None:
    record = random_record("imported", 4, "formation", 300)
    listings.clear()

    page = Client().post(reverse("games:import"), {"record": json.dumps(record.to_json())})

    assert page.status_code == 200
    steps = json.loads(page.content.decode().split('<script id="replay-steps" type="application/json">')[1]
                       .split("</script>")[0])
    assert len(steps) == 301 and steps[-1]["action"] == str(record.actions[-1])
    assert len(listings) == 0
